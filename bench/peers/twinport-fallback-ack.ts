/**
 * Peer server for `bench/fallback-acks.ts`: `bench/peers/twinport-ack.ts`'s acknowledged event
 * `m` (its handler returns its data as the ack) served to clients without WebSocket: the event
 * stream `GET /events` (`sseRoute`) brings the acks, `POST /events` (`ssePostRoute`) takes the
 * requests (issue 23's fallback, as `twinport/client/fallback` speaks it). HOST/PORT from the
 * environment.
 */
import { routes, runServer, socketOn, ssePostRoute, sseRoute } from '../../lib/index.js'

const server = await runServer({
  host: process.env['HOST'] ?? '0.0.0.0',
  port: Number(process.env['PORT'] ?? 6001),
  routes: routes(sseRoute('/events'), ssePostRoute('/events'), socketOn('m', (data) => data)),
  cors: false,
})

const stop = (): void => {
  void server.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
