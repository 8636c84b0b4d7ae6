/**
 * Bench peer (bench/presence.ts): presence as Socket.IO users write it, one node of a cluster
 * on @socket.io/redis-adapter: a member is a socket in the room `lobby` with its key in
 * `socket.data`; each change is emitted to the room `watchers` as `presence_diff`
 * ({joined|left: [key]}), and the list is `io.in('lobby').fetchSockets()`, which asks every
 * node (Socket.IO keeps no presence view of its own). Events: `join` {key, n}, `toggle`,
 * `watch` (each acknowledged). HTTP for the driver: `GET /bench/count` (sockets in `lobby` on
 * every node, through fetchSockets), `GET /bench/list` (median time of fetchSockets over 20
 * calls), `GET /bench/heap` (heap used after a full GC; run with --expose-gc), `POST` then `GET /bench/probe`
 * (CPU, GC pauses and event-loop delay between the two: node-probe.ts).
 */
import { createServer } from 'node:http'
import { createAdapter } from '@socket.io/redis-adapter'
import { createClient } from 'redis'
import { Server } from 'socket.io'
import { nodeProbe } from './node-probe.js'

const probe = nodeProbe()

const http = createServer((req, res) => {
  const answer = (body: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  // fetchSockets rejects when a node does not answer in time: said, not a crash.
  const failed = (error: unknown): void => {
    res.writeHead(503, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: String(error) }))
  }
  const path = req.url ?? ''
  if (path === '/bench/count') return void io.in('lobby').fetchSockets().then((s) => answer({ count: new Set(s.map((x) => (x.data as { key: string }).key)).size }), failed)
  if (path === '/bench/list')
    return void (async () => {
      const times: number[] = []
      let size = 0
      for (let i = 0; i < 20; i++) {
        const start = performance.now()
        size = new Set((await io.in('lobby').fetchSockets()).map((x) => (x.data as { key: string }).key)).size
        times.push(performance.now() - start)
      }
      times.sort((a, b) => a - b)
      answer({ ms: times[10], size })
    })().catch(failed)
  if (path === '/bench/probe') return req.method === 'POST' ? (probe.mark(), answer({ ok: true })) : answer(probe.read())
  if (path === '/bench/heap') {
    ;(globalThis as { gc?: () => void }).gc?.()
    return answer({ heapUsed: process.memoryUsage().heapUsed })
  }
  res.writeHead(404)
  res.end()
})
const io = new Server(http, { transports: ['websocket'], serveClient: false, perMessageDeflate: false, pingInterval: 600_000, pingTimeout: 600_000 })
const pub = createClient({ url: process.env.REDIS_URL })
const sub = pub.duplicate()
// A command that times out under load (the PUBLISH of a large fetchSockets answer) rejects a
// promise the adapter does not catch: logged, so the node lives on as a kept-up deployment would.
for (const client of [pub, sub]) client.on('error', (error: unknown) => console.error(`redis: ${String(error)}`))
process.on('unhandledRejection', (error) => console.error(`unhandled: ${String(error)}`))
await Promise.all([pub.connect(), sub.connect()])
// fetchSockets waits this long for every node's answer (the default 5 s is for idle clusters).
io.adapter(createAdapter(pub, sub, { key: process.env.PREFIX ?? 'bench-presence', requestsTimeout: 30_000 }))

io.on('connection', (socket) => {
  socket.on('join', (data: { key: string; n: number }, ack?: (ok: boolean) => void) => {
    socket.data = { key: data.key, n: data.n }
    void socket.join('lobby')
    io.to('watchers').emit('presence_diff', { joined: [data.key] })
    ack?.(true)
  })
  socket.on('toggle', (ack?: (ok: boolean) => void) => {
    const { key } = socket.data as { key: string }
    if (socket.rooms.has('lobby')) {
      void socket.leave('lobby')
      io.to('watchers').emit('presence_diff', { left: [key] })
    } else {
      void socket.join('lobby')
      io.to('watchers').emit('presence_diff', { joined: [key] })
    }
    ack?.(true)
  })
  socket.on('watch', (ack?: (ok: boolean) => void) => {
    void socket.join('watchers')
    ack?.(true)
  })
})
http.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const address = http.address()
  console.log(`socket.io listening on ${typeof address === 'object' && address !== null ? address.port : 0} (${process.env.NODE_ID ?? 'a'})`)
})
process.on('SIGTERM', () => process.exit(0))
