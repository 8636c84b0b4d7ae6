/**
 * The echo example's routes on Node for bench/metrics-overhead-e2e.ts, in one of three modes
 * (argv[2]): `off` (`metrics: false`), `on` (the default: metrics on, `/metrics` and `/health`
 * in the table) or `otel` (metrics on and `otelInstrumentation` over an SDK whose exporters
 * drop everything). Listens on 127.0.0.1:PORT and prints `READY <port>`.
 */
import { echoOptions, echoRoutes } from '../../examples/echo-routes.js'
import { runServer } from '../../lib/node/run-server.js'
import { silentLogger } from '../../lib/core/log/silent-logger.js'
import { attachedSdk } from './otel-sdk.js'

const mode = process.argv[2] ?? 'on'
if (mode !== 'off' && mode !== 'on' && mode !== 'otel') throw new Error(`mode: off, on or otel, got ${mode}`)
const server = await runServer({
  ...echoOptions,
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  logger: silentLogger,
  routes: echoRoutes,
  metrics: mode !== 'off',
  ...(mode === 'otel' ? { instrumentation: attachedSdk() } : {}),
})
console.log(`READY ${server.address.port}`)
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)))
