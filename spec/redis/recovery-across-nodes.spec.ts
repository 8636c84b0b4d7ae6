/**
 * Session recovery across nodes (issue 11), against a real redis-server: twinport nodes with
 * the Redis adapter and the Redis recovery store, a `twinport/client` on `ws` reaching them
 * through a TCP forwarder (like a load balancer). A node killed with SIGKILL while its client
 * is in a room: the client comes back on another node, in its room, with its data, and gets
 * what it missed, in order, once. Past the window, across a gap, or with the store away:
 * a fresh session and the resync signal, and no node crashes.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import { redisRecoveryStore, type RedisRecoveryStore } from '../../lib/redis/index.js'
import { WebSocketImpl } from '../support/client.js'
import { type NodeProcess, simulateFailover, startNodeProcess, startRedis } from '../support/redis.js'
import { type RedisNode, redisSuite } from '../support/redis-suite.js'
import { delay, eventually } from '../support/server.js'
import { startProxy, type TcpProxy } from '../support/tcp-proxy.js'
import { recoveryApp } from './fixtures/recovery-app.js'

interface Node extends RedisNode {
  readonly store: RedisRecoveryStore
}

const Recovery = suite('session recovery across nodes')
const children: NodeProcess[] = []
const clients: { close(): void }[] = []
const shared = redisSuite(Recovery, {
  start: startRedis,
  prefix: 'rx',
  numbered: true,
  adapter: (redis) => ({ url: redis.url, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 400, requestTimeoutMs: 300 }),
  server: { routes: recoveryApp },
  beforeClose: async (redis) => {
    for (const c of clients.splice(0)) c.close()
    for (const child of children.splice(0)) await kill(child)
    await redis.restart()
  },
})

const startNode = async (nodeId: string, recovery: { windowMs?: number; loadTimeoutMs?: number } = {}): Promise<Node> => {
  const store = redisRecoveryStore({ url: shared.redis.url, prefix: shared.prefix })
  await store.connect()
  shared.defer(() => store.close())
  return { ...(await shared.startNode(nodeId, {}, { recovery: { store, ...recovery } })), store }
}
const proxyTo = async (port: number): Promise<TcpProxy> => {
  const proxy = await startProxy(port)
  shared.defer(() => proxy.close())
  return proxy
}
const startChild = async (nodeId: string, env: Record<string, string> = {}): Promise<NodeProcess> => {
  const child = await startNodeProcess({ REDIS_URL: shared.redis.url, NODE_ID: nodeId, PREFIX: shared.prefix, ...env }, 'spec/redis/fixtures/recovery-node.ts')
  children.push(child)
  return child
}
const kill = async (child: NodeProcess): Promise<void> => {
  child.child.kill('SIGKILL')
  await child.exited()
}

// A twinport/client through the proxy, recording the room's numbers, direct messages and lifecycle.
const client = (proxy: TcpProxy, minDelay = 300) => {
  const c = connect(`ws://127.0.0.1:${proxy.port}/`, { WebSocket: WebSocketImpl, reconnect: { minDelay, maxDelay: minDelay, maxAttempts: 100 }, timeout: 3000 })
  clients.push(c)
  const got = { n: [] as number[], d: [] as number[], sessions: [] as { id: string; recovered: boolean; resync?: string }[], resyncs: [] as string[] }
  c.on('n', (n: unknown) => void got.n.push(n as number))
  c.on('d', (n: unknown) => void got.d.push(n as number))
  c.on('session', (s) => void got.sessions.push(s))
  c.on('resync', (r) => void got.resyncs.push(r.reason))
  return { c, got }
}

Recovery('a node killed with SIGKILL: its client resumes on another node, in its room, with its data, and gets what it missed in order, once', async () => {
  const a = await startChild('a')
  const b = await startNode('b')
  const proxy = await proxyTo(a.port)
  const { c, got } = client(proxy)
  await c.request('join', 'lobby')
  await c.request('remember', 'Ada')
  // Broadcasts from the other node, one from its own node, and direct messages, before the crash.
  b.server.broadcast('n', 1, { room: 'lobby' })
  await eventually(() => got.n.length === 1, 3000, 'the first broadcast')
  await c.request('shout', { room: 'lobby', n: 2 })
  await c.request('poke', 1)
  b.server.broadcast('n', 3, { room: 'lobby' })
  await eventually(() => got.n.length === 3 && got.d.length === 1, 3000, 'what came before the crash')
  await delay(100) // the node's journal has written it all (it flushes within 10 ms)

  await kill(a)
  proxy.pointAt(b.port)
  // Sent while no node holds the session: to its room, and to everyone.
  b.server.broadcast('n', 4, { room: 'lobby' })
  b.server.broadcast('n', 5)
  b.server.broadcast('n', 6, { room: 'lobby' })
  await eventually(() => got.sessions.length === 2, 5000, 'the client to resume on b')
  assert.equal(got.sessions[1], { id: got.sessions[0]?.id as string, recovered: true })
  assert.equal(got.resyncs, [])
  await eventually(() => got.n.length >= 6, 3000, 'the missed broadcasts')
  assert.equal(await c.request('recall', null), 'Ada', 'its data is back')
  // Back in its room on b: b's next broadcast reaches it once, after the missed ones.
  b.server.broadcast('n', 7, { room: 'lobby' })
  await c.request('poke', 2)
  await eventually(() => got.n.length >= 7 && got.d.length === 2, 3000, 'what b sends now')
  await delay(100)
  // The everyone-broadcast (5) comes in its own log's order, after the room's: order holds per target.
  assert.equal(got.n.filter((n) => n !== 5), [1, 2, 3, 4, 6, 7], 'room broadcasts in order, once')
  assert.equal(got.n.filter((n) => n === 5), [5], 'the broadcast to everyone, once')
  assert.equal(got.d, [1, 2])
  assert.equal((await b.server.cluster.clientsInRoom('lobby')).clients.length, 1)
  console.log(`[figures] SIGKILL recovery: ${got.n.length} broadcasts received (7 sent), ${got.d.length} direct, resyncs ${got.resyncs.length}`)
})

Recovery('a client that was away when its node died resumes on another node with what it missed', async () => {
  const a = await startChild('a')
  const b = await startNode('b')
  const proxy = await proxyTo(a.port)
  const { c, got } = client(proxy, 600)
  await c.request('join', 'lobby')
  // The link breaks (the client is away, parked on a), a broadcast comes, then a dies.
  proxy.cut()
  await delay(100)
  b.server.broadcast('n', 1, { room: 'lobby' })
  await delay(150)
  await kill(a)
  b.server.broadcast('n', 2, { room: 'lobby' })
  proxy.pointAt(b.port)
  await eventually(() => got.sessions.length === 2, 5000, 'the client to resume on b')
  assert.is(got.sessions[1]?.recovered, true)
  await eventually(() => got.n.length >= 2, 3000, 'the missed broadcasts')
  await delay(100)
  assert.equal(got.n, [1, 2])
})

Recovery('a node that never heard its session moved away does not resume its stale copy: the client back there gets what the new holder numbered (issue 29, the soak)', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const proxy = await proxyTo(a.port)
  const { c, got } = client(proxy)
  await c.request('poke', 1)
  await delay(100) // a's journal has written it
  // The client moves to b, which restores the session and claims it; a keeps its parked copy:
  // nothing is numbered for it there, so a writes nothing and is never refused.
  proxy.pointAt(b.port)
  proxy.cut()
  await eventually(() => got.sessions.length === 2, 5000, 'the client to resume on b')
  assert.is(got.sessions[1]?.recovered, true)
  await c.request('poke', 2) // numbered by b only
  await delay(100) // b's journal has written it
  // Back on a, having seen 2: a's copy ends at 1, the store's (b's) at 2.
  proxy.pointAt(a.port)
  proxy.cut()
  await eventually(() => got.sessions.length === 3, 5000, 'the client back on a')
  assert.equal(got.sessions[2], { id: got.sessions[0]?.id as string, recovered: true })
  assert.equal(got.resyncs, [])
  await c.request('poke', 3)
  await eventually(() => got.d.length === 3, 3000, 'the direct message after the return')
  assert.equal(got.d, [1, 2, 3])
})

Recovery('past the window, or across a gap in a room log: a fresh session and the resync signal with its reason', async () => {
  const a = await startChild('a', { WINDOW_MS: '200' })
  const b = await startNode('b')
  const proxy = await proxyTo(a.port)
  const { c, got } = client(proxy)
  await c.request('join', 'lobby')
  await c.request('remember', 'Ada')
  await delay(100)
  await kill(a)
  // Nothing answers until the session has expired in the store (a connected one: twice the window).
  await delay(700)
  proxy.pointAt(b.port)
  await eventually(() => got.resyncs.length === 1, 5000, 'the resync')
  assert.equal(got.resyncs, ['unknown_session'])
  assert.equal(got.sessions[1], { id: c.session?.id as string, recovered: false, resync: 'unknown_session' })
  assert.is(await c.request('recall', null), null, 'a fresh session has no data')

  // Across a gap: the room log no longer holds what was sent while no node held the session.
  const d = await startChild('d')
  proxy.pointAt(d.port)
  proxy.cut()
  await eventually(() => got.sessions.length === 3, 5000, 'the client on d')
  await c.request('join', 'lobby')
  await delay(100)
  await kill(d)
  for (let i = 0; i < 3; i++) b.server.broadcast('n', 10 + i, { room: 'lobby' })
  for (let i = 0; i < 100 && Number(await shared.redis.cli('XLEN', `${shared.prefix}:{r:%2F:lobby}:s`)) < 3; i++) await delay(20)
  await shared.redis.cli('XTRIM', `${shared.prefix}:{r:%2F:lobby}:s`, 'MAXLEN', '0')
  proxy.pointAt(b.port)
  await eventually(() => got.resyncs.length === 2, 5000, 'the second resync')
  assert.equal(got.resyncs, ['unknown_session', 'gap'])
})

// A Redis Cluster failover that lost the room's last `lost` writes (spec/support/redis.ts).
const failover = (room: string, lost: number, newEpoch: boolean): Promise<number> => simulateFailover(shared.redis, shared.prefix, room, lost, newEpoch)
const logLength = async (room: string, length: number): Promise<void> => {
  for (let i = 0; i < 100 && Number(await shared.redis.cli('XLEN', `${shared.prefix}:{r:%2F:${room}}:s`)) < length; i++) await delay(20)
}

Recovery('a failover while no node holds the session: the rest of the old epoch and the new one, once; a cursor past the old epoch\'s end resyncs with "gap"', async () => {
  const a = await startChild('a')
  const b = await startNode('b')
  const toLobby = await proxyTo(a.port)
  const toHall = await proxyTo(a.port)
  const p = client(toLobby)
  const q = client(toHall)
  await p.c.request('join', 'lobby')
  await q.c.request('join', 'hall')
  for (const n of [1, 2]) b.server.broadcast('n', n, { room: 'lobby' })
  for (const n of [1, 2, 3, 4]) b.server.broadcast('n', n, { room: 'hall' })
  await eventually(() => p.got.n.length === 2 && q.got.n.length === 4, 3000, 'the broadcasts before the crash')
  await delay(100) // the journal has written the cursors
  await kill(a)
  // lobby: 3 and 4 while no node holds p's session; the new master has up to 3, then a new epoch.
  b.server.broadcast('n', 3, { room: 'lobby' })
  b.server.broadcast('n', 4, { room: 'lobby' })
  await logLength('lobby', 4)
  const epoch = await failover('lobby', 1, true)
  b.server.broadcast('n', 5, { room: 'lobby' })
  b.server.broadcast('n', 6, { room: 'lobby' })
  // hall: q saw 4, the new master has up to 3 (no broadcast since, so no new epoch yet).
  await failover('hall', 1, false)
  await logLength('lobby', 5)
  toLobby.pointAt(b.port)
  toHall.pointAt(b.port)
  await eventually(() => p.got.sessions.length === 2 && q.got.sessions.length === 2, 5000, 'both clients back on b')
  assert.equal(p.got.sessions[1], { id: p.got.sessions[0]?.id as string, recovered: true })
  await eventually(() => p.got.n.length >= 5, 3000, 'what p missed')
  await delay(100)
  assert.equal(p.got.n, [1, 2, 3, 5, 6], 'the old epoch up to its end here, then the new one, once')
  assert.equal(q.got.resyncs, ['gap'])
  assert.is(q.got.sessions[1]?.recovered, false)
  // p's session as b wrote it: its cursor in the new epoch.
  const sid = p.got.sessions[0]?.id as string
  await eventually(async () => (await b.store.loadSession(sid))?.cursors?.['/\u0000lobby']?.epoch === epoch + 1000, 3000, 'the cursor in the new epoch')
  assert.equal((await b.store.loadSession(sid))?.cursors?.['/\u0000lobby'], { epoch: epoch + 1000, n: 2 })
})

Recovery('the store unreachable: the client still gets a fresh session (resync "unavailable"), the node logs it and keeps serving', async () => {
  const b = await startNode('b')
  const e = await startNode('e', { loadTimeoutMs: 400 })
  const proxy = await proxyTo(b.port)
  const { c, got } = client(proxy, 100)
  await c.request('join', 'lobby')
  await delay(50)
  await shared.redis.stop()
  proxy.pointAt(e.port)
  proxy.cut()
  await eventually(() => got.resyncs.length === 1, 5000, 'the resync')
  assert.equal(got.resyncs, ['unavailable'])
  assert.ok(e.records.some((r) => r.level === 'warning' && r.message.includes('recovery: the session store did not serve a resume')), 'logged')
  assert.equal(await c.request('recall', null), null, 'the node still answers')
  await shared.redis.restart()
})

Recovery('a session moved while its old node broadcasts (issue 29, soak): every broadcast the old node started reaches the client once, none lost between the load and the claim', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const proxy = await proxyTo(a.port)
  const { c, got } = client(proxy, 200)
  await c.request('join', 'lobby')
  await c.request('shout', { room: 'lobby', n: 1 })
  await eventually(() => got.n.length === 1, 3000, 'the first broadcast')
  // The link breaks (the session is parked on a) and the client comes back on b, while a
  // keeps broadcasting to its room every 2 ms: some land between b's load and its claim.
  proxy.pointAt(b.port)
  proxy.cut()
  let n = 1
  const last = 400
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      a.server.broadcast('n', ++n, { room: 'lobby' })
      if (n === last) {
        clearInterval(tick)
        resolve()
      }
    }, 2)
  })
  await eventually(() => got.sessions.length === 2, 5000, 'the client to resume on b')
  assert.is(got.sessions[1]?.recovered, true)
  await eventually(() => got.n.length >= last, 5000, 'every broadcast').catch(() => undefined)
  await delay(200)
  const missing = Array.from({ length: last }, (_, i) => i + 1).filter((k) => !got.n.includes(k))
  assert.equal(missing, [], 'none lost')
  assert.equal(got.n, Array.from({ length: last }, (_, i) => i + 1), 'in order, once')
})

Recovery.run()
