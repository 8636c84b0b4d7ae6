/**
 * Peer server on Node: uWebSockets.js (the `uwebsockets` 3.0.6 devDependency, its Node 20
 * binary), a C++ HTTP and WebSocket server that bypasses `node:net`, written to the DESIGN §4
 * echo contract the idiomatic way: `GET /hello` and `POST /echo` as routes, every WebSocket
 * message echoed verbatim, and clients on `/bcast` subscribed to one topic that
 * `app.publish` sends to, the sender included. No compression, no idle pings. The contender
 * issue 32's native transport is measured against. HOST/PORT from the environment.
 */
import { createRequire } from 'node:module'

interface UwsSocket {
  getUserData(): { bcast: boolean }
  send(message: ArrayBuffer, isBinary: boolean): number
  subscribe(topic: string): boolean
}
interface UwsResponse {
  writeHeader(key: string, value: string): UwsResponse
  end(body?: string | ArrayBuffer | Uint8Array): UwsResponse
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): UwsResponse
  onAborted(handler: () => void): UwsResponse
  writeStatus(status: string): UwsResponse
  upgrade(data: { bcast: boolean }, key: string, protocol: string, extensions: string, context: unknown): void
  cork(run: () => void): UwsResponse
}
interface UwsRequest {
  getHeader(name: string): string
  getUrl(): string
}
interface UwsApp {
  get(path: string, handler: (res: UwsResponse, req: UwsRequest) => void): UwsApp
  post(path: string, handler: (res: UwsResponse, req: UwsRequest) => void): UwsApp
  any(path: string, handler: (res: UwsResponse, req: UwsRequest) => void): UwsApp
  ws(path: string, behavior: Record<string, unknown>): UwsApp
  publish(topic: string, message: ArrayBuffer, isBinary: boolean): boolean
  listen(host: string, port: number, done: (token: unknown) => void): UwsApp
}
const uws = createRequire(import.meta.url)('uwebsockets') as { App(): UwsApp; DISABLED: number }

const TOPIC = 'bcast'
const HELLO = '{"hello":"world"}'
const app = uws.App()

app.get('/hello', (res) => {
  res.cork(() => res.writeHeader('content-type', 'application/json').end(HELLO))
})
app.post('/echo', (res, req) => {
  const type = req.getHeader('content-type') || 'application/octet-stream'
  const parts: Buffer[] = []
  let aborted = false
  res.onAborted(() => (aborted = true))
  res.onData((chunk, isLast) => {
    parts.push(Buffer.from(chunk.slice(0)))
    if (isLast && !aborted) res.cork(() => res.writeHeader('content-type', type).end(Buffer.concat(parts)))
  })
})
app.ws('/*', {
  compression: uws.DISABLED,
  maxPayloadLength: 16 * 1024 * 1024,
  idleTimeout: 0,
  sendPingsAutomatically: false,
  upgrade: (res: UwsResponse, req: UwsRequest, context: unknown) => {
    res.upgrade({ bcast: req.getUrl() === '/bcast' }, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), context)
  },
  open: (ws: UwsSocket) => {
    if (ws.getUserData().bcast) ws.subscribe(TOPIC)
  },
  message: (ws: UwsSocket, message: ArrayBuffer, isBinary: boolean) => {
    if (ws.getUserData().bcast) app.publish(TOPIC, message, isBinary)
    else ws.send(message, isBinary)
  },
})
app.any('/*', (res) => {
  res.cork(() => res.writeStatus('404 Not Found').writeHeader('content-type', 'application/json').end('{"error":"not found"}'))
})
const port = Number(process.env['PORT'] ?? 6001)
app.listen(process.env['HOST'] ?? '0.0.0.0', port, (token) => {
  if (!token) {
    console.error(`uws: could not listen on port ${port}`)
    process.exit(1)
  }
})
