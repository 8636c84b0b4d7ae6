/**
 * Peer server for `bench/streaming.ts`: twinport serving `stream-twinport-routes.ts`
 * (`GET /stream` through `stream()`, `POST /upload` as a streamed multipart body to disk),
 * no CORS, no logger, a request time-out long enough for a 1 GiB upload.
 * HOST/PORT/UPLOAD_DIR from the environment; `TWINPORT_TRANSPORT=native` serves on the native
 * transport (`make -C native` first; the process exits when the addon cannot load, rather
 * than measuring node:net under the native name).
 */
import { runServer } from '../../lib/index.js'
import { loadNativeBinding } from '../../lib/native/native-binding.js'
import { streamRoutes } from './stream-twinport-routes.js'
import { gcOnSignal } from './gc-on-signal.js'

gcOnSignal()

const native = process.env['TWINPORT_TRANSPORT'] === 'native'
const binding = native ? loadNativeBinding() : undefined
if (binding?._tag === 'Left') {
  console.error(`stream-twinport: the native transport is unavailable: ${binding.left}`)
  process.exit(1)
}

const server = await runServer({
  host: process.env['HOST'] ?? '0.0.0.0',
  port: Number(process.env['PORT'] ?? 6001),
  routes: streamRoutes,
  cors: false,
  logger: undefined,
  // A 1 GiB upload outlasts the default 30 s request time-out on a slow disk.
  limits: { requestTimeoutMs: 600_000 },
  transport: native ? 'native' : 'net',
})

const stop = (): void => {
  void server.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
