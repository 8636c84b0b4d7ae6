/**
 * Peer server for `bench/streaming.ts`: twinport serving `stream-twinport-routes.ts`
 * (`GET /stream` through `stream()`, `POST /upload` as a streamed multipart body to disk),
 * no CORS, no logger, a request time-out long enough for a 1 GiB upload.
 * HOST/PORT/UPLOAD_DIR from the environment.
 */
import { runServer } from '../../lib/index.js'
import { streamRoutes } from './stream-twinport-routes.js'
import { gcOnSignal } from './gc-on-signal.js'

gcOnSignal()

const server = await runServer({
  host: process.env['HOST'] ?? '0.0.0.0',
  port: Number(process.env['PORT'] ?? 6001),
  routes: streamRoutes,
  cors: false,
  logger: undefined,
  // A 1 GiB upload outlasts the default 30 s request time-out on a slow disk.
  limits: { requestTimeoutMs: 600_000 },
})

const stop = (): void => {
  void server.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
