/**
 * Bench peer: Socket.IO v4 as one node of a cluster with @socket.io/redis-adapter (the
 * classic adapter on node-redis pub/sub, the one its docs start with), WebSocket transport
 * only; the `/bcast` namespace re-emits every `m` to all its members, the sender included,
 * as bench/peers/socket-io.ts does on one node. ADAPTER=local: Socket.IO's in-memory adapter.
 */
import { createServer } from 'node:http'
import { createAdapter } from '@socket.io/redis-adapter'
import { createClient } from 'redis'
import { Server } from 'socket.io'

const http = createServer((_req, res) => {
  res.writeHead(404)
  res.end()
})
const io = new Server(http, {
  transports: ['websocket'],
  serveClient: false,
  perMessageDeflate: false,
  maxHttpBufferSize: 16 * 1024 * 1024,
  pingInterval: 600_000,
  pingTimeout: 600_000,
})
if (process.env.ADAPTER === 'redis') {
  const pub = createClient({ url: process.env.REDIS_URL })
  const sub = pub.duplicate()
  await Promise.all([pub.connect(), sub.connect()])
  io.adapter(createAdapter(pub, sub, { key: process.env.PREFIX ?? 'bench-sio' }))
}
const room = io.of('/bcast')
room.on('connection', (socket) => {
  socket.on('m', (data: unknown) => room.emit('m', data))
})
http.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const address = http.address()
  console.log(`socket.io listening on ${typeof address === 'object' && address !== null ? address.port : 0} (${process.env.ADAPTER ?? 'local'})`)
})
// Stopped with SIGTERM (bench/cluster.ts --profile): exit, so a CPU profile is written.
process.on('SIGTERM', () => process.exit(0))
