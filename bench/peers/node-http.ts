/**
 * Peer server: `node:http` for HTTP and the `ws` package (with `bufferutil`) on
 * the same port for WebSocket, written to the DESIGN §4 echo contract:
 * `GET /hello` → `{"hello":"world"}`, `POST /echo` → the body and its content
 * type, every WebSocket message echoed verbatim, and clients on `/bcast` sharing
 * one room that a plain loop over the room broadcasts to (the way the ws README
 * does it). The harness uses it as the `node:http` and as the `ws` contender.
 * HOST/PORT from the environment; `DEFLATE=1` turns on ws's `perMessageDeflate` with its
 * defaults (as `DEFLATE=1` does for twinport's echo example).
 */
import { createServer } from 'node:http'
import { WebSocket, WebSocketServer } from 'ws'

const HELLO = Buffer.from('{"hello":"world"}')
const MAX = 16 * 1024 * 1024

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/hello') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': HELLO.length })
    res.end(HELLO)
    return
  }
  if (req.method === 'POST' && req.url === '/echo') {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/octet-stream', 'content-length': body.length })
      res.end(body)
    })
    return
  }
  res.writeHead(404, { 'content-type': 'application/json' })
  res.end('{"error":"not found"}')
})

const wss = new WebSocketServer({ server, perMessageDeflate: process.env['DEFLATE'] === '1', maxPayload: MAX })
const room = new Set<WebSocket>()

wss.on('connection', (socket, req) => {
  if (req.url === '/bcast') {
    room.add(socket)
    socket.on('close', () => room.delete(socket))
    socket.on('message', (data, isBinary) => {
      for (const peer of room) if (peer.readyState === WebSocket.OPEN) peer.send(data, { binary: isBinary })
    })
    return
  }
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }))
})

server.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0', () => {
  console.log(`node:http + ws listening on ${JSON.stringify(server.address())}`)
})
