/**
 * Peer server for `bench/server-requests.ts`: Socket.IO v4 asking its clients, WebSocket
 * transport only. `GET /clients` answers how many sockets are connected, `GET /go` starts
 * `INFLIGHT` (10) loops per socket of `socket.emitWithAck('work', n)` (the client answers
 * `n + 1`; no time-out, socket.io's default), `GET /mark` answers the window since the last mark
 * (`bench/load/request-loops.ts`), `GET /stop` ends the loops. Heartbeats pushed out of the
 * measured window, as in `socket-io-ack.ts`. HOST/PORT from the environment.
 */
import { createServer } from 'node:http'
import { Server, type Socket } from 'socket.io'
import { requestLoops } from '../load/request-loops.js'

const IN_FLIGHT = Number(process.env['INFLIGHT'] ?? 10)
const sockets = new Set<Socket>()
const loops = requestLoops()

const ask = (socket: Socket) => async (n: number): Promise<number | undefined> => {
  const answer: unknown = await socket.emitWithAck('work', n)
  return typeof answer === 'number' ? answer : undefined
}

const control: Record<string, () => unknown> = {
  '/clients': () => ({ clients: sockets.size }),
  '/go': () => ({ started: loops.start([...sockets].map(ask), IN_FLIGHT) }),
  '/mark': () => loops.mark(),
  '/stop': () => (loops.stop(), { stopped: true }),
}

const http = createServer((req, res) => {
  const answer = req.method === 'GET' ? control[req.url ?? ''] : undefined
  res.writeHead(answer === undefined ? 404 : 200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(answer === undefined ? { error: 'not found' } : answer()))
})

const io = new Server(http, {
  transports: ['websocket'],
  serveClient: false,
  perMessageDeflate: false,
  pingInterval: 600_000,
  pingTimeout: 600_000,
})

io.on('connection', (socket) => {
  sockets.add(socket)
  socket.once('disconnect', () => sockets.delete(socket))
})

http.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0')
process.once('SIGTERM', () => {
  loops.stop()
  process.exit(0)
})
