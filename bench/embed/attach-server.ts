/**
 * One contender of `bench/embed-attach.ts`: a plain `node:http` server (an existing app's,
 * answering its own `GET /legacy`) with a WebSocket echo added to it, either twinport's
 * `attach` (argv `twinport`) or `ws`'s `WebSocketServer({ server })` (argv `ws`, with
 * `bufferutil` as the peers use it). Listens on 127.0.0.1 and a free port, prints
 * `PORT <n>` once listening; on `SIGUSR2` it runs a full GC (started with `--expose-gc`) and
 * prints `MEM <heapUsed + external bytes> <rss bytes>`.
 * Bench code: node:* is fine; it imports twinport from `lib/`.
 */
import { createServer } from 'node:http'
import { WebSocketServer } from 'ws'
import { attach } from '../../lib/node/attach.js'
import { onMessage } from '../../lib/core/route/on-message.js'
import { silentLogger } from '../../lib/core/log/silent-logger.js'

const which = process.argv[2]
const server = createServer((req, res) => {
  if (req.url === '/legacy') return void res.end('legacy')
  res.statusCode = 404
  res.end()
})
if (which === 'twinport') {
  attach(server, { logger: silentLogger, routes: [onMessage((message) => message)] })
} else if (which === 'ws') {
  const wss = new WebSocketServer({ server, perMessageDeflate: false })
  wss.on('connection', (socket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })))
} else {
  console.error('usage: attach-server.ts twinport|ws')
  process.exit(2)
}
const gc = (globalThis as { gc?: () => void }).gc
process.on('SIGUSR2', () => {
  gc?.()
  const { heapUsed, external, rss } = process.memoryUsage()
  console.log(`MEM ${heapUsed + external} ${rss}`)
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  console.log(`PORT ${typeof address === 'object' && address !== null ? address.port : 0}`)
})
