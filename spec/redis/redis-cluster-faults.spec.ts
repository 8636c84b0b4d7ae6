/**
 * The Redis adapter on a real Redis Cluster whose master goes away: three masters, each with
 * a replica (spec/support/redis-cluster.ts, `cluster-node-timeout` 1000 ms), two twinport
 * nodes, clients in one room per master. A master is killed with SIGKILL in the middle of a
 * broadcast storm; its replica is promoted. No assertion is about time: each is about what
 * arrived, in which order, and what was counted and logged. Each test prints one
 * `[figures]` line for the record.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { onConnect, routes } from '../../lib/index.js'
import { startRedisCluster } from '../support/redis-cluster.js'
import { type RedisNode, redisSuite } from '../support/redis-suite.js'
import { delay, eventually, type LogRecord, openClient, type TestClient } from '../support/server.js'

const app = routes({
  join: onConnect((ctx) => {
    for (const room of new URLSearchParams(ctx.request.rawQuery).getAll('room')) ctx.joinRoom(room)
  }),
})

const unhandled: unknown[] = []
const onUnhandled = (reason: unknown): void => void unhandled.push(reason)

const Failover = suite('redisAdapter :: a Redis Cluster master fails over')
const clients: TestClient[] = []
const shared = redisSuite(Failover, {
  start: () => startRedisCluster({ replicas: 1, nodeTimeoutMs: 1000 }),
  prefix: 'cf',
  numbered: true,
  adapter: (cluster) => ({ cluster: { rootNodes: cluster.rootNodes }, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 3000, requestTimeoutMs: 500 }),
  server: { routes: app },
  setup: async () => void process.on('unhandledRejection', onUnhandled),
  beforeClose: async () => {
    for (const c of clients.splice(0)) c.ws.terminate()
  },
  teardown: async () => void process.off('unhandledRejection', onUnhandled),
})
const { startNode } = shared
const connect = async (port: number, rooms: readonly string[]): Promise<TestClient> => {
  const client = await openClient(port, `/?${rooms.map((r) => `room=${r}`).join('&')}`)
  clients.push(client)
  return client
}
const tagOf = (room: string): string => `{r:%2F:${encodeURIComponent(room)}}`
const channelOf = (room: string): string => `${shared.prefix}:${tagOf(room)}:c`
const shardSubscribers = async (port: number, channel: string): Promise<number> => Number((await shared.redis.cli(port, 'PUBSUB', 'SHARDNUMSUB', channel)).split('\n')[1])

// What a client received, per room: {"event":"n","data":[room, i]}.
const received = (client: TestClient): Map<string, number[]> => {
  const byRoom = new Map<string, number[]>()
  for (const b of client.pending) {
    const [room, i] = (JSON.parse(b.toString()) as { data: [string, number] }).data
    byRoom.set(room, [...(byRoom.get(room) ?? []), i])
  }
  return byRoom
}
const increasing = (list: readonly number[]): boolean => list.every((x, i) => i === 0 || x > (list[i - 1] as number))
const firsts = (list: readonly number[]): number[] => [...new Set(list)]

// Broadcasts [room, 0], [room, 1], … to every room from `node`, one per room every millisecond.
const storm = (node: RedisNode, rooms: readonly string[]) => {
  let next = 0
  const timer = setInterval(() => {
    for (const room of rooms) node.server.broadcast('n', [room, next], { room })
    next += 1
  }, 1)
  return { stop: () => clearInterval(timer), sent: () => next }
}

// One room per master: the first `room-0`, `room-1`, … whose slots land on each (per prefix).
const roomsByMaster = async (): Promise<{ room: string; master: number }[]> => {
  const found = new Map<number, string>()
  for (let i = 0; found.size < shared.redis.ports.length && i < 200; i++) {
    const master = await shared.redis.masterOf(channelOf(`room-${i}`))
    if (!found.has(master)) found.set(master, `room-${i}`)
  }
  return [...found].map(([master, room]) => ({ room, master }))
}

// On a failure: what each node counted and logged, and where each room got to on a client.
const tell = (named: Record<string, RedisNode>, client: TestClient, sent: number): void => {
  const lines = [`sent ${sent} per room; on the client: ${[...received(client)].map(([r, l]) => `${r}: ${firsts(l).length} (last ${String(l.at(-1))})`).join(', ')}`]
  for (const [name, node] of Object.entries(named)) {
    lines.push(`${name}: ${JSON.stringify(node.adapter.stats())}`)
    for (const r of node.records) lines.push(`  ${name} ${r.level}: ${r.message} ${JSON.stringify(r.context)}`)
  }
  console.error(lines.join('\n'))
}

Failover('the cluster: three masters, each with a replica in sync', async () => {
  const known = await shared.redis.nodes()
  assert.is(known.filter((n) => n.role === 'master').length, 3)
  assert.is(known.filter((n) => n.role === 'replica').length, 3)
  for (const master of known.filter((n) => n.role === 'master')) assert.is(known.filter((n) => n.masterId === master.id).length, 1)
})

Failover('a master killed in a broadcast storm: local delivery goes on, its rooms come back on the promoted replica, nothing lost or each loss counted, other rooms undisturbed', async () => {
  const rooms = await roomsByMaster()
  const names = rooms.map((r) => r.room)
  const victim = rooms[0] as { room: string; master: number }
  // Streams long enough for the whole storm: what b reads back cannot have been trimmed.
  const a = await startNode('a', { streamMaxLength: 100_000 })
  const b = await startNode('b', { streamMaxLength: 100_000 })
  const near = await connect(a.port, names)
  const far = await connect(b.port, names)
  for (const { room, master } of rooms) await eventually(async () => (await shardSubscribers(master, channelOf(room))) === 2, 3000, `both nodes on ${room}`)
  const s = storm(a, names)
  await delay(150)
  const killedAt = Date.now()
  await shared.redis.kill(victim.master)
  const heir = await shared.redis.failedOver(victim.master)
  const failover = Date.now() - killedAt
  await delay(300)
  s.stop()
  const sent = s.sent()
  const { room } = victim
  // Every room reaches its end on b, or what is missing is counted as dropped.
  await eventually(() => names.every((r) => (received(far).get(r) ?? []).includes(sent - 1)), 15_000, 'the last broadcast of every room on b').catch((error: unknown) => {
    tell({ a, b }, far, sent)
    throw error
  })
  await delay(200)
  const local = received(near)
  for (const r of names) assert.equal(local.get(r), [...Array(sent).keys()], `local delivery of ${r} never stopped`)
  const remote = received(far)
  // At least once: a broadcast whose reply the dying master did not send is sent again, so
  // it may arrive twice; the first arrivals are in order.
  for (const r of names) assert.ok(increasing(firsts(remote.get(r) ?? [])), `${r} in order`)
  const stats = a.adapter.stats()
  for (const r of names.filter((n) => n !== room)) assert.equal(firsts(remote.get(r) ?? []), [...Array(sent).keys()], `${r} (another master): every broadcast`)
  const got = firsts(remote.get(room) ?? []).length
  const twice = (remote.get(room) ?? []).length - got
  // A loss is counted either way: dropped on a (never published), or rolled back (a delivered
  // it locally, the dying master acknowledged it and its replica never had it: docs/guide.md).
  const counted = stats.dropped + stats.rolledBack
  assert.is(got + counted, sent, `${room}: delivered ${got} + dropped ${stats.dropped} + rolled back ${stats.rolledBack} on a = sent ${sent}; b: ${JSON.stringify(b.adapter.stats())}`)
  assert.is(b.adapter.stats().lost, 0, 'nothing trimmed away before b read it')
  // The affected room's subscriptions are on the promoted replica now, both nodes' of them.
  await eventually(async () => (await shardSubscribers(heir, channelOf(room))) === 2, 10_000, `both nodes subscribed to ${room} on ${heir}`)
  b.server.broadcast('n', [room, -1], { room })
  await eventually(() => (received(near).get(room) ?? []).includes(-1), 5000, 'b\'s broadcast to the failed-over room on a')
  assert.equal(unhandled, [])
  console.log(
    `[figures] master SIGKILLed in a storm (3 rooms, 1 per master): failover ${failover} ms; sent ${sent} per room; ${room} on b: ${got} delivered (${twice} twice, ${b.adapter.stats().backfilled} from the stream), ${stats.dropped} dropped, ${stats.rolledBack} rolled back, sent after the failover ${stats.sentAfterOutage}; other rooms: all ${sent}`,
  )
  await shared.redis.restart(victim.master)
})

Failover('writes the dead master took but its replica never got: new broadcasts are not mistaken for duplicates, and what was taken back is counted and logged', async () => {
  const rooms = await roomsByMaster()
  const { room, master } = rooms[1] as { room: string; master: number }
  const a = await startNode('a')
  const b = await startNode('b')
  const near = await connect(a.port, [room])
  const far = await connect(b.port, [room])
  await eventually(async () => (await shardSubscribers(master, channelOf(room))) === 2, 3000, `both nodes on ${room}`)
  for (let i = 0; i < 10; i++) a.server.broadcast('n', [room, i], { room })
  await eventually(() => far.pending.length === 10, 3000, 'the first ten on b')
  const counter = `${shared.prefix}:${tagOf(room)}:q`
  const stream = `${shared.prefix}:${tagOf(room)}:s`
  const epoch = Number(await shared.redis.cli(master, 'HGET', counter, 'e'))
  await shared.redis.kill(master)
  const heir = await shared.redis.failedOver(master)
  // Asynchronous replication: the heir as it would be had the last three writes not reached
  // it before its master died (counter and stream three behind).
  await shared.redis.cli(heir, 'HINCRBY', counter, 'n', '-3')
  for (const id of (await shared.redis.cli(heir, 'XREVRANGE', stream, '+', '-', 'COUNT', '3')).split('\n').filter((l) => /^\d+-\d+$/.test(l))) await shared.redis.cli(heir, 'XDEL', stream, id)
  assert.is(Number(await shared.redis.cli(heir, 'XLEN', stream)), 7)
  await eventually(async () => (await shardSubscribers(heir, channelOf(room))) === 2, 10_000, `both nodes subscribed to ${room} on ${heir}`)
  a.server.broadcast('n', [room, 10], { room })
  a.server.broadcast('n', [room, 11], { room })
  await eventually(() => far.pending.length === 12, 5000, 'the broadcasts after the failover on b')
  assert.equal(received(far).get(room), [...Array(12).keys()])
  assert.equal(received(near).get(room), [...Array(12).keys()])
  // A new epoch on the heir; where the old one ended there is kept.
  assert.ok(Number(await shared.redis.cli(heir, 'HGET', counter, 'e')) > epoch)
  assert.equal((await shared.redis.cli(heir, 'HMGET', counter, 'pe', 'pn')).split('\n'), [String(epoch), '7'])
  await eventually(() => b.adapter.stats().rolledBack === 3 && a.adapter.stats().rolledBack === 3, 3000, 'the three taken back counted on both nodes').catch((error: unknown) => {
    tell({ a, b }, far, 12)
    throw error
  })
  assert.ok(b.records.some((r) => r.level === 'warning' && r.message.includes('lost from Redis in a failover') && r.context.count === 3))
  // Once per failover, however many of the new epoch's broadcasts came while b was filling.
  await delay(300)
  assert.equal([a.adapter.stats().rolledBack, b.adapter.stats().rolledBack], [3, 3], 'counted once on each node')
  assert.equal(unhandled, [])
  console.log(`[figures] failover that lost 3 acknowledged writes: 12 of 12 delivered on b, rolledBack counted ${b.adapter.stats().rolledBack} on b and ${a.adapter.stats().rolledBack} on a`)
  await shared.redis.restart(master)
})

Failover('a backfill that fails while a master is down is read again once its replica is promoted: the room is not held forever', async () => {
  const rooms = await roomsByMaster()
  const { room, master } = rooms[2] as { room: string; master: number }
  const known = await shared.redis.nodes()
  const replica = known.find((n) => n.masterId === known.find((m) => m.port === master)?.id)?.port as number
  // A master that serves slots: the nodes hold connections to those alone.
  const healthy = known.find((n) => n.role === 'master' && !n.failed && n.slots.length > 0 && n.port !== master && shared.redis.running(n.port))?.port as number
  const a = await startNode('a')
  const b = await startNode('b')
  const near = await connect(a.port, [room])
  const far = await connect(b.port, [room])
  await eventually(async () => (await shardSubscribers(master, channelOf(room))) === 2, 3000, `both nodes on ${room}`)
  for (let i = 0; i < 5; i++) a.server.broadcast('n', [room, i], { room })
  await eventually(() => far.pending.length === 5, 3000, 'the first five on b')
  // The replica waits to be told: the master stays down as long as the spec needs.
  await shared.redis.cli(replica, 'CONFIG', 'SET', 'cluster-replica-no-failover', 'yes')
  await shared.redis.kill(master)
  // A connection of b's to a healthy master drops and comes back (`node-ready`): b reads every
  // stream from its last place, and the room's read goes to the dead master and fails.
  await shared.redis.cli(healthy, 'CLIENT', 'KILL', 'TYPE', 'normal')
  const failedFill = (r: LogRecord): boolean => r.message.startsWith('cluster: backfill of') && r.context.target === tagOf(room).slice(1, -1)
  await eventually(() => b.records.some(failedFill), 10_000, `b's backfill of ${room} failing`)
  await shared.redis.cli(replica, 'CLUSTER', 'FAILOVER', 'FORCE')
  const heir = await shared.redis.failedOver(master)
  await shared.redis.cli(heir, 'CONFIG', 'SET', 'cluster-replica-no-failover', 'no')
  await eventually(async () => (await shardSubscribers(heir, channelOf(room))) === 2, 10_000, `both nodes subscribed to ${room} on ${heir}`)
  for (let i = 5; i < 10; i++) a.server.broadcast('n', [room, i], { room })
  await eventually(() => far.pending.length === 10, 5000, 'the broadcasts after the failover on b').catch((error: unknown) => {
    tell({ a, b }, far, 10)
    throw error
  })
  assert.equal(received(far).get(room), [...Array(10).keys()])
  assert.equal(received(near).get(room), [...Array(10).keys()])
  assert.is(b.adapter.stats().lost, 0)
  assert.equal(unhandled, [])
  await shared.redis.restart(master)
})

Failover.run()
