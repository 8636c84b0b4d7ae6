/**
 * Sessions after a partition between a node and Redis (issue 29; the soak's "cut-on-heal",
 * bench/RESULTS.md "Session 13: sessions after a partition"), against a real redis-server:
 * node b reaches Redis (its adapter and its recovery store) through a forwarder that
 * blackholes everything and, on healing, cuts what it held; b's client stays connected to b
 * throughout. After the heal b keeps the session: its journal writes are accepted (the store
 * names b, up to the last number the client saw), nothing is let go as "moved", the client
 * keeps its session, and gets every message in order, once. Also when the client dropped
 * and came back to b during the partition, and when it had come to b from node a before.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import { redisRecoveryStore, type RedisRecoveryStore } from '../../lib/redis/index.js'
import { WebSocketImpl } from '../support/client.js'
import { startRedis } from '../support/redis.js'
import { type RedisNode, redisSuite } from '../support/redis-suite.js'
import { eventually } from '../support/server.js'
import { startProxy, type TcpProxy } from '../support/tcp-proxy.js'
import { recoveryApp } from './fixtures/recovery-app.js'

interface Node extends RedisNode {
  readonly store: RedisRecoveryStore
}

const Partition = suite('sessions after a partition between a node and Redis')
const clients: { close(): void }[] = []
const shared = redisSuite(Partition, {
  start: startRedis,
  prefix: 'px',
  numbered: true,
  adapter: (redis) => ({ url: redis.url, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 400, requestTimeoutMs: 300 }),
  server: { routes: recoveryApp, debug: true },
  beforeClose: async () => {
    for (const c of clients.splice(0)) c.close()
  },
})

const proxyTo = async (port: number): Promise<TcpProxy> => {
  const proxy = await startProxy(port)
  shared.defer(() => proxy.close())
  return proxy
}
// A node whose adapter and store reach Redis at `url` (the suite's, or a forwarder to it).
const startNode = async (nodeId: string, url: string): Promise<Node> => {
  const store = redisRecoveryStore({ url, prefix: shared.prefix })
  await store.connect()
  shared.defer(() => store.close())
  return { ...(await shared.startNode(nodeId, { url }, { recovery: { store, loadTimeoutMs: 1000 } })), store }
}
const redisPort = (): number => Number(new URL(shared.redis.url).port)

// A twinport/client through `proxy`, recording room numbers, direct messages and sessions.
const client = (proxy: TcpProxy) => {
  const c = connect(`ws://127.0.0.1:${proxy.port}/`, { WebSocket: WebSocketImpl, reconnect: { minDelay: 200, maxDelay: 200, maxAttempts: 100 }, timeout: 3000 })
  clients.push(c)
  const got = { n: [] as number[], d: [] as number[], sessions: [] as { id: string; recovered: boolean; resync?: string }[], resyncs: [] as string[] }
  c.on('n', (n: unknown) => void got.n.push(n as number))
  c.on('d', (n: unknown) => void got.d.push(n as number))
  c.on('session', (s) => void got.sessions.push(s))
  c.on('resync', (r) => void got.resyncs.push(r.reason))
  return { c, got }
}

// What the store holds of the session: `node` named, and every number the client saw.
const storedBy = async (sid: string, node: string, lastSeq: number): Promise<void> =>
  eventually(
    async () => {
      const record = await shared.redis.cli('GET', `${shared.prefix}:{s:${sid}}:state`)
      if (typeof record !== 'string' || record === '') return false
      const parsed = JSON.parse(record) as { node?: string; lastSeq?: number }
      return parsed.node === node && parsed.lastSeq === lastSeq
    },
    8000,
    `the store to name ${node} up to ${lastSeq}`,
  )
// b's journal has given up on a write (no answer within its bound): what it numbered waits in memory.
const storeFailed = (node: RedisNode): Promise<void> =>
  eventually(() => node.records.some((r) => r.message.startsWith('recovery: the session store failed')), 5000, 'b\'s journal to find the store silent')
const movedLines = (node: RedisNode): number => node.records.filter((r) => r.message.includes('moved to another node')).length

// The partition: b's Redis link blackholed while `during` runs, then healed (cut).
const partitioned = async (link: TcpProxy, during: () => Promise<void>): Promise<void> => {
  link.partition(true)
  try {
    await during()
  } finally {
    link.partition(false)
  }
}

Partition('the client stays connected to b across the partition: after the heal b keeps the session, its writes land, every message in order, once', async () => {
  const a = await startNode('a', shared.redis.url)
  const link = await proxyTo(redisPort())
  const b = await startNode('b', `redis://127.0.0.1:${link.port}`)
  const front = await proxyTo(b.port)
  const { c, got } = client(front)
  await c.request('join', 'lobby')
  await c.request('poke', 1)
  a.server.broadcast('n', 1, { room: 'lobby' })
  await eventually(() => got.n.length === 1, 3000, 'a\'s broadcast through Redis')
  const sid = got.sessions[0]?.id as string
  await storedBy(sid, 'b', c.session?.lastSeq ?? -1)

  await partitioned(link, async () => {
    // b numbers these while its journal cannot write: they wait in memory.
    await c.request('poke', 2)
    b.server.broadcast('n', 2, { room: 'lobby' })
    await c.request('poke', 3)
    await eventually(() => got.n.length === 2 && got.d.length === 3, 3000, 'what b sends while cut off')
    await storeFailed(b)
    const held = JSON.parse(String(await shared.redis.cli('GET', `${shared.prefix}:{s:${sid}}:state`))) as { lastSeq: number }
    assert.ok(held.lastSeq < (c.session?.lastSeq ?? 0), 'b could not write while cut off')
  })

  // Healed: b's journal writes what waited; the store names b up to what the client saw.
  await storedBy(sid, 'b', c.session?.lastSeq ?? -1)
  await c.request('poke', 4)
  await eventually(() => got.d.length === 4, 3000, 'a direct message after the heal')
  await eventually(() => b.adapter.liveNodes().includes('a'), 5000, 'b back in the cluster')
  a.server.broadcast('n', 3, { room: 'lobby' })
  await eventually(() => got.n.length === 3, 5000, 'a\'s broadcast after the heal')
  await storedBy(sid, 'b', c.session?.lastSeq ?? -1)
  assert.is(movedLines(b), 0, 'b let nothing go')
  assert.equal(got.sessions.length, 1, 'the same session throughout')
  assert.equal(got.resyncs, [])
  assert.equal(got.d, [1, 2, 3, 4])
  assert.equal(got.n, [1, 2, 3])
})

Partition('the client drops during the partition and comes back to b: b resumes its own copy (the store silent), keeps it after the heal', async () => {
  const link = await proxyTo(redisPort())
  const b = await startNode('b', `redis://127.0.0.1:${link.port}`)
  const front = await proxyTo(b.port)
  const { c, got } = client(front)
  await c.request('join', 'lobby')
  await c.request('poke', 1)
  const sid = got.sessions[0]?.id as string
  await storedBy(sid, 'b', c.session?.lastSeq ?? -1)

  await partitioned(link, async () => {
    front.cut()
    b.server.broadcast('n', 1, { room: 'lobby' }) // while the client is away: kept for it
    await eventually(() => got.sessions.length === 2, 5000, 'the client back on b')
    await c.request('poke', 2)
  })
  assert.equal(got.sessions[1], { id: sid, recovered: true })
  await storedBy(sid, 'b', c.session?.lastSeq ?? -1)
  await c.request('poke', 3)
  await storedBy(sid, 'b', c.session?.lastSeq ?? -1)
  assert.is(movedLines(b), 0, 'b let nothing go')
  assert.equal(got.resyncs, [])
  assert.equal(got.n, [1])
  assert.equal(got.d, [1, 2, 3])
})

Partition('a session that came to b from a, then b cut off and healed: b keeps it, a\'s stale copy writes nothing over it', async () => {
  const a = await startNode('a', shared.redis.url)
  const link = await proxyTo(redisPort())
  const b = await startNode('b', `redis://127.0.0.1:${link.port}`)
  const front = await proxyTo(a.port)
  const { c, got } = client(front)
  await c.request('join', 'lobby')
  await c.request('poke', 1)
  const sid = got.sessions[0]?.id as string
  await storedBy(sid, 'a', c.session?.lastSeq ?? -1)
  front.pointAt(b.port)
  front.cut()
  await eventually(() => got.sessions.length === 2, 5000, 'the client on b')
  assert.equal(got.sessions[1], { id: sid, recovered: true })
  await c.request('poke', 2)
  await storedBy(sid, 'b', c.session?.lastSeq ?? -1)

  await partitioned(link, async () => {
    // a's broadcasts reach a's parked copy (its writes are refused: b holds the session) but
    // not b, cut off; b's own direct messages reach the client.
    a.server.broadcast('n', 1, { room: 'lobby' })
    await c.request('poke', 3)
    await storeFailed(b)
  })
  await storedBy(sid, 'b', c.session?.lastSeq ?? -1)
  await c.request('poke', 4)
  await storedBy(sid, 'b', c.session?.lastSeq ?? -1)
  assert.is(movedLines(b), 0, 'b let nothing go')
  assert.equal(got.resyncs, [])
  assert.equal(got.d, [1, 2, 3, 4])
  assert.equal(got.sessions.length, 2)
})

Partition.run()
