/**
 * The echo server used by conformance runs and benchmarks (DESIGN §4); its routes are in
 * `examples/echo-routes.ts`:
 * - every WebSocket text or binary message is echoed back verbatim (up to 16 MiB);
 * - WebSocket clients on `/bcast` share one room: each message is sent to all of them;
 * - `GET /hello` answers `{"hello":"world"}`; `POST /echo` answers the body and its type;
 * - `GET /metrics` answers the server's metrics (Prometheus text), `GET /health` its
 *   readiness as JSON (and `/health/live`, `/health/ready`).
 *
 * Run: `npm run example:echo` (HOST and PORT from the environment, default 0.0.0.0:6001);
 * the same app on Bun and Deno: `npm run example:echo:bun`, `npm run example:echo:deno`;
 * on many processes and hosts with Redis: `npm run example:cluster` (examples/cluster.ts).
 * `DEFLATE=1 npm run example:echo` offers WebSocket compression (permessage-deflate,
 * RFC 7692) with the server's defaults, for conformance runs and benchmarks; a value
 * other than `1`, `0` or empty is refused at start-up.
 * With `TLS_KEY` and `TLS_CERT` (PEM files) it serves `https://` and `wss://` instead, and
 * SIGHUP reloads the certificate (`tls-from-env.ts`).
 * On Node, `TRANSPORT=native` serves on twinport's native transport (lib/native/, built with
 * `make -C native`; node:net with a warning when it cannot), `TRANSPORT=net` or unset on node:net.
 */
import { echoOptions, echoRoutes } from './echo-routes.js'
import { runServer } from './run-anywhere.js'
import { reloadTlsOnHangup, tlsFromEnv } from './tls-from-env.js'

export { echoRoutes } from './echo-routes.js'

// DEFLATE=1: permessage-deflate offered; unset, empty or 0: plain frames only (the default).
const deflate = process.env.DEFLATE ?? ''
if (deflate !== '' && deflate !== '0' && deflate !== '1') {
  console.error(`DEFLATE: expected 1 (compression on) or 0 (off), got ${JSON.stringify(deflate)}`)
  process.exit(2)
}

// TRANSPORT=native|net (Node's `transport` option; Bun and Deno have one transport each).
const transport = process.env.TRANSPORT ?? ''
if (transport !== '' && transport !== 'native' && transport !== 'net') {
  console.error(`TRANSPORT: expected native or net, got ${JSON.stringify(transport)}`)
  process.exit(2)
}

const tls = tlsFromEnv()
const server = await runServer({
  host: process.env.HOST ?? '0.0.0.0',
  port: Number(process.env.PORT ?? 6001),
  routes: echoRoutes,
  ...echoOptions,
  perMessageDeflate: deflate === '1',
  logger: undefined,
  ...(tls === undefined ? {} : { tls }),
  ...(transport === '' ? {} : { transport }),
})
const stopReloading = tls === undefined ? () => undefined : reloadTlsOnHangup(server)

const stop = (): void => {
  stopReloading()
  void server.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
