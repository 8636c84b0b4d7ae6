/**
 * Peer server: Socket.IO v4 over its own protocol, WebSocket transport only.
 * The echo half of the contract is the event `m` sent back to its sender on the
 * default namespace; the room is the namespace `/bcast`, where each `m` is
 * emitted to every member, the sender included. Heartbeats are pushed out to
 * ten minutes so that no ping lands inside a measured window. HOST/PORT from
 * the environment.
 */
import { createServer } from 'node:http'
import { Server } from 'socket.io'

const http = createServer((_req, res) => {
  res.writeHead(404, { 'content-type': 'application/json' })
  res.end('{"error":"not found"}')
})

const io = new Server(http, {
  transports: ['websocket'],
  serveClient: false,
  perMessageDeflate: false,
  maxHttpBufferSize: 16 * 1024 * 1024,
  pingInterval: 600_000,
  pingTimeout: 600_000,
})

io.on('connection', (socket) => {
  socket.on('m', (data: unknown) => socket.emit('m', data))
})

const room = io.of('/bcast')
room.on('connection', (socket) => {
  socket.on('m', (data: unknown) => room.emit('m', data))
})

http.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0', () => {
  console.log(`socket.io listening on ${JSON.stringify(http.address())}`)
})
