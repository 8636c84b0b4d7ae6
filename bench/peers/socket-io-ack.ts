/**
 * Peer server for `bench/client-acks.ts`: Socket.IO v4, WebSocket transport only, with one
 * acknowledged event, `m`, answered with its data (`socket.on('m', (data, ack) => ack(data))`).
 * `TRANSPORT=polling` serves HTTP long-polling only instead (`bench/fallback-acks.ts`).
 * Heartbeats pushed out of the measured window, as in `socket-io.ts`. HOST/PORT from the
 * environment.
 */
import { createServer } from 'node:http'
import { Server } from 'socket.io'

const http = createServer((_req, res) => {
  res.writeHead(404, { 'content-type': 'application/json' })
  res.end('{"error":"not found"}')
})

const io = new Server(http, {
  transports: [process.env['TRANSPORT'] === 'polling' ? 'polling' : 'websocket'],
  serveClient: false,
  perMessageDeflate: false,
  pingInterval: 600_000,
  pingTimeout: 600_000,
})

io.on('connection', (socket) => {
  socket.on('m', (data: unknown, ack: unknown) => {
    if (typeof ack === 'function') (ack as (d: unknown) => void)(data)
  })
})

http.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0')
process.once('SIGTERM', () => process.exit(0))
