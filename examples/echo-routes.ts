/**
 * The echo app's routes and options (DESIGN §4), apart from any server so that other
 * examples can serve them (`examples/echo.ts` on one process, `examples/cluster.ts` on many):
 * - every WebSocket text or binary message is echoed back verbatim (up to 16 MiB);
 * - WebSocket clients on `/bcast` share one room: each message is sent to all of them
 *   (with the Redis adapter, on every process and host of the app);
 * - `GET /hello` answers `{"hello":"world"}`; `POST /echo` answers the body and its type.
 */
import { httpRoute, json, onConnect, onMessage, response, routes, type ServerOptions } from '../lib/index.js'

const BCAST = 'bcast'
const HELLO = json({ hello: 'world' })

export const echoRoutes = routes({
  joinBroadcast: onConnect((ctx) => {
    if (ctx.request.path === '/bcast') ctx.joinRoom(BCAST)
  }),
  echo: onMessage((message, ctx) => {
    if (ctx.request.path !== '/bcast') return message
    ctx.broadcastRaw(message, { room: BCAST })
    return undefined
  }),
  // A response is an immutable value: built once, served as often as asked.
  hello: httpRoute('GET', '/hello', () => HELLO),
  echoBody: httpRoute('POST', '/echo', (req) =>
    response(req.rawBody, 200, { 'Content-Type': req.headerMap.get('content-type') ?? 'application/octet-stream' }),
  ),
})

/** The echo server's options besides host, port and routes. */
export const echoOptions = {
  limits: { maxFramePayload: 16 * 1024 * 1024, maxMessage: 16 * 1024 * 1024, maxBody: 16 * 1024 * 1024 },
  // A conformance and benchmark target, not a browser API: no CORS headers, like its peers.
  cors: false,
} as const satisfies ServerOptions
