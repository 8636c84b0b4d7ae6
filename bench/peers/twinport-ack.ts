/**
 * Peer server for `bench/client-acks.ts`: twinport with one acknowledged event, `m`, whose
 * handler returns its data as the ack (an envelope route, so `twinport/client` gets a
 * session: numbered messages and answers kept for retried ids, as in production).
 * HOST/PORT from the environment.
 */
import { routes, runServer, socketOn } from '../../lib/index.js'

export const ackRoutes = routes({ m: socketOn('m', (data) => data) })

const server = await runServer({
  host: process.env['HOST'] ?? '0.0.0.0',
  port: Number(process.env['PORT'] ?? 6001),
  routes: ackRoutes,
  cors: false,
})

const stop = (): void => {
  void server.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
