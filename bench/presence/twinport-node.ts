/**
 * Bench server (bench/presence.ts): one node of a twinport cluster on Redis (`NODE_ID`,
 * `REDIS_URL`, `PREFIX`) whose clients are tracked in the presence topic `lobby`
 * (`server.presence`, issue 28). Events: `join` {key, n} tracks the client under `key`; `toggle`
 * untracks it, or tracks it again; `watch` puts the client in the room `lobby`, which gets every
 * diff as `presence_diff` (the topic's `event` option). HTTP for the driver: `GET /bench/count`
 * (keys present), `GET /bench/list` (median time of `list()` over 20 calls), `GET /bench/heap`
 * (heap used after a full GC; run with --expose-gc), `POST /bench/probe` then `GET /bench/probe`
 * (CPU, GC pauses and event-loop delay between the two: node-probe.ts), `GET /bench/seq?node=<id>` (the changes of
 * node <id>'s connections in the order this node's subscriber got them). Prints `listening`.
 */
import { httpRoute, runServer, silentLogger, socketOn } from '../../lib/index.js'
import { redisAdapter } from '../../lib/redis/index.js'
import { nodeProbe } from './node-probe.js'

const nodeId = process.env.NODE_ID ?? 'a'
const adapter = redisAdapter({ url: process.env.REDIS_URL, prefix: process.env.PREFIX ?? 'bench-presence', nodeId })
const keys = new Map<number, { key: string; n: number }>()
const tracked = new Set<number>()
// What this node's subscriber got, as `+ref` / `-ref`, per node of origin.
const seqs = new Map<string, string[]>()
const probe = nodeProbe()

const server = await runServer({
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  logger: silentLogger,
  limits: { maxConnections: 100_000 },
  cluster: adapter,
  routes: [
    socketOn('join', (data, ctx) => {
      const { key, n } = data as { key: string; n: number }
      keys.set(ctx.clientId, { key, n })
      tracked.add(ctx.clientId)
      ctx.presence?.('lobby').track(ctx.clientId, key, { n })
      return true
    }),
    socketOn('toggle', (_data, ctx) => {
      const mine = keys.get(ctx.clientId)
      if (mine === undefined) return false
      const lobby = ctx.presence?.('lobby')
      if (tracked.delete(ctx.clientId)) lobby?.untrack(ctx.clientId)
      else {
        tracked.add(ctx.clientId)
        lobby?.track(ctx.clientId, mine.key, { n: mine.n })
      }
      return true
    }),
    socketOn('watch', (_data, ctx) => {
      ctx.joinRoom('lobby')
      return true
    }),
    httpRoute('GET', '/bench/count', () => ({ count: lobby.count() })),
    httpRoute('GET', '/bench/list', () => {
      const times: number[] = []
      let size = 0
      for (let i = 0; i < 20; i++) {
        const start = performance.now()
        size = Object.keys(lobby.list()).length
        times.push(performance.now() - start)
      }
      times.sort((a, b) => a - b)
      return { ms: times[10], size }
    }),
    httpRoute('GET', '/bench/heap', () => {
      ;(globalThis as { gc?: () => void }).gc?.()
      return { heapUsed: process.memoryUsage().heapUsed }
    }),
    httpRoute('POST', '/bench/probe', () => (probe.mark(), { ok: true })),
    httpRoute('GET', '/bench/probe', () => probe.read()),
    httpRoute('GET', '/bench/seq', (req) => ({ seq: seqs.get(String(req.query.node ?? '')) ?? [] })),
  ],
})
const lobby = server.presence('lobby', { event: 'presence_diff' })
lobby.subscribe((diff) => {
  for (const [sign, changes] of [['-', diff.leaves], ['+', diff.joins]] as const) {
    for (const change of changes) {
      const node = change.ref.slice(0, change.ref.indexOf('/'))
      const list = seqs.get(node) ?? []
      seqs.set(node, list)
      list.push(`${sign}${change.ref}`)
    }
  }
})
await adapter.ready()
await lobby.sync()
console.log(`twinport listening on ${server.address.port} (${nodeId})`)
process.on('SIGTERM', () => process.exit(0))
