/**
 * The Redis adapter on a real Redis Cluster (three masters, spec/support/redis-cluster.ts)
 * through node-redis' cluster client: twinport nodes on different ports deliver room
 * broadcasts and direct sends across nodes; rooms land on different slots and masters
 * (each master holds the sharded subscriptions and the streams of its own rooms); a gap is
 * filled from the room's stream (XRANGE) on the master that owns it.
 */
import * as E from 'fp-ts/lib/Either.js'
import { createCluster } from 'redis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { UNSEQUENCED } from '../../lib/core/cluster/cluster-message.js'
import { encodeClusterMessage } from '../../lib/core/cluster/encode-cluster-message.js'
import { withSequence } from '../../lib/core/cluster/with-sequence.js'
import { onConnect, routes, socketOn } from '../../lib/index.js'
import { startRedisCluster } from '../support/redis-cluster.js'
import { meshed, redisSuite } from '../support/redis-suite.js'
import { delay, eventually, type LogRecord, openClient } from '../support/server.js'

const app = routes({
  join: onConnect((ctx) => {
    for (const room of new URLSearchParams(ctx.request.rawQuery).getAll('room')) ctx.joinRoom(room)
  }),
  shout: socketOn('shout', (data, ctx) => {
    const { room, text } = data as { room: string; text: string }
    ctx.broadcast('shout', text, { room, except: ctx.clientId })
  }),
})

const Cluster = suite('redisAdapter :: on a Redis Cluster')
let admin: ReturnType<typeof createCluster>
// One room per master: the first rooms `room-0`, `room-1`, … whose slots land on each.
let rooms: readonly { readonly room: string; readonly master: number }[] = []
// Each test has its own prefix, so streams left by one test are not counted by the next.
const shared = redisSuite(Cluster, {
  start: () => startRedisCluster(),
  prefix: 'cl',
  numbered: true,
  adapter: (cluster) => ({ cluster: { rootNodes: cluster.rootNodes }, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 500, requestTimeoutMs: 500 }),
  server: { routes: app },
  setup: async (cluster) => {
    admin = createCluster({ rootNodes: cluster.rootNodes.map((n) => ({ url: n.url })) })
    await admin.connect()
    const found = new Map<number, string>()
    for (let i = 0; found.size < cluster.ports.length && i < 100; i++) {
      const master = await cluster.masterOf(channelOf(`room-${i}`))
      if (!found.has(master)) found.set(master, `room-${i}`)
    }
    rooms = [...found].map(([master, room]) => ({ room, master }))
  },
  teardown: () => admin.close(),
})
const { startNode } = shared
const tagOf = (room: string): string => `{r:%2F:${encodeURIComponent(room)}}`
const channelOf = (room: string): string => `${shared.prefix}:${tagOf(room)}:c`
const streamOf = (room: string): string => `${shared.prefix}:${tagOf(room)}:s`
const counterOf = (room: string): string => `${shared.prefix}:${tagOf(room)}:q`
// Subscribers of a sharded channel, as counted by one master (each counts its own shard's).
const shardSubscribers = async (port: number, channel: string): Promise<number> => Number((await shared.redis.cli(port, 'PUBSUB', 'SHARDNUMSUB', channel)).split('\n')[1])

Cluster('the cluster: three masters, each with a third of the slots, and rooms found on each', async () => {
  const shards = await shared.redis.cli(shared.redis.ports[0] as number, 'CLUSTER', 'INFO')
  assert.match(shards, /cluster_state:ok/)
  assert.match(shards, /cluster_size:3/)
  assert.equal(rooms.map((r) => r.master).sort(), [...shared.redis.ports].sort())
  // A room's channel, stream and counter share its hash tag: one slot.
  const { room } = rooms[0] as { room: string }
  const slots = await Promise.all([channelOf(room), streamOf(room), counterOf(room)].map((k) => shared.redis.cli(shared.redis.ports[0] as number, 'CLUSTER', 'KEYSLOT', k)))
  assert.is(new Set(slots).size, 1)
})

Cluster('room broadcasts cross between nodes through each room\'s own master, the same bytes; sharded pub/sub is used', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const query = rooms.map((r) => `room=${r.room}`).join('&')
  const sender = await openClient(a.port, `/?${query}`)
  const far = await openClient(b.port, `/?${query}`)
  // b subscribes to each room's channel on that room's master.
  for (const { room, master } of rooms) {
    let n = 0
    for (let i = 0; i < 100 && (n = await shardSubscribers(master, channelOf(room))) !== 2; i++) await delay(20)
    assert.is(n, 2, `two nodes subscribed to ${room} on its master ${master}`)
  }
  for (const { room } of rooms) sender.emit('shout', { room, text: `to ${room} é ✓` })
  // One order per room; rooms on different masters arrive in any order between them.
  const got: string[] = []
  for (const _ of rooms) got.push(await far.next())
  assert.equal(got.sort(), rooms.map(({ room }) => `{"event":"shout","data":"to ${room} é ✓"}`).sort())
  assert.is(b.adapter.stats().received, rooms.length)
  assert.is(a.adapter.stats().published, rooms.length)
  assert.ok(a.records.some((r) => r.message.startsWith('cluster: node {node} joined') && r.context.mode === 'sharded'))
  sender.ws.close()
  far.ws.close()
})

Cluster('rooms spread over the masters: each master holds only its own rooms\' subscriptions and streams', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const query = rooms.map((r) => `room=${r.room}`).join('&')
  const one = await openClient(a.port, `/?${query}`)
  const two = await openClient(b.port, `/?${query}`)
  await delay(200)
  for (const { room } of rooms) one.emit('shout', { room, text: 'x' })
  for (const _ of rooms) await two.next()
  for (const { room, master } of rooms) {
    for (const port of shared.redis.ports) {
      // Each master answers for its own shard's channels only.
      assert.is(await shardSubscribers(port, channelOf(room)), port === master ? 2 : 0, `${room} subscribers on ${port}`)
    }
    const keys = (await shared.redis.cli(master, '--scan', '--pattern', `${shared.prefix}:${tagOf(room)}:*`)).split('\n').sort()
    assert.equal(keys, [counterOf(room), streamOf(room)], `${room}'s stream and counter on its master`)
    assert.is(Number(await shared.redis.cli(master, 'XLEN', streamOf(room))), 1)
  }
  const perMaster = await Promise.all(shared.redis.ports.map(async (port) => (await shared.redis.cli(port, '--scan', '--pattern', `${shared.prefix}:{r:*:s`)).split('\n').filter((k) => k !== '').length))
  assert.equal(perMaster, shared.redis.ports.map(() => 1), 'one room stream on each master')
  one.ws.close()
  two.ws.close()
})

Cluster('direct sends, queries and server-to-server events reach the other node', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  await meshed(a, b)
  const one = await openClient(a.port, `/?room=${rooms[0]?.room}`)
  const two = await openClient(b.port, `/?room=${rooms[0]?.room}`)
  assert.is(a.server.cluster.send('b/1', 'direct', { to: 'two' }), true)
  assert.is(await two.next(), '{"event":"direct","data":{"to":"two"}}')
  assert.is(b.server.cluster.sendRaw('a/1', { _tag: 'Text', text: 'raw to one' }), true)
  assert.is(await one.next(), 'raw to one')
  assert.equal(await a.server.cluster.clientsInRoom(rooms[0]?.room as string), { clients: ['a/1', 'b/1'], missingNodes: [] })
  b.server.cluster.on('ping', (data, from) => ({ pong: data, from }))
  assert.equal(await a.server.cluster.emit('ping', 1), { replies: [{ node: 'b', data: { pong: 1, from: 'a' } }], missingNodes: [] })
  one.ws.close()
  two.ws.close()
})

Cluster('a gap is filled from the room\'s stream (XRANGE) on its master, in order', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const { room, master } = rooms[rooms.length - 1] as { room: string; master: number }
  const sender = await openClient(a.port, `/?room=${room}`)
  const far = await openClient(b.port, `/?room=${room}`)
  for (let i = 0; i < 100 && (await shardSubscribers(master, channelOf(room))) !== 2; i++) await delay(20)
  sender.emit('shout', { room, text: 'one' })
  assert.is(await far.next(), '{"event":"shout","data":"one"}')
  // The room's next number goes into the stream without being published (as if b missed
  // it), then the one after it is published: b sees the gap and reads the stream.
  const epoch = String(await admin.sendCommand(counterOf(room), false, ['HGET', counterOf(room), 'e']))
  const n = Number(await admin.sendCommand(counterOf(room), false, ['HINCRBY', counterOf(room), 'n', '2']))
  const text = (t: string) => {
    const json = new TextEncoder().encode(`{"event":"shout","data":"${t}"}`)
    const encoded = encodeClusterMessage({ _tag: 'Broadcast', origin: 'z', seq: UNSEQUENCED, namespace: '/', room, envelope: true, frame: new Uint8Array([0x81, json.length, ...json]) })
    if (E.isLeft(encoded)) throw new Error(encoded.left.reason)
    return encoded.right
  }
  const missed = Buffer.from(withSequence(text('two'), { epoch: Number(epoch), n: n - 1 }))
  const next = Buffer.from(withSequence(text('three'), { epoch: Number(epoch), n }))
  await admin.sendCommand(streamOf(room), false, ['XADD', streamOf(room), `${epoch}-${n - 1}`, 'm', missed])
  await admin.sendCommand(streamOf(room), false, ['XADD', streamOf(room), `${epoch}-${n}`, 'm', next])
  await admin.sendCommand(channelOf(room), false, ['SPUBLISH', channelOf(room), next])
  assert.is(await far.next(), '{"event":"shout","data":"two"}')
  assert.is(await far.next(), '{"event":"shout","data":"three"}')
  // Both came from the stream (the one that showed the gap is in it too; its pub/sub copy,
  // held during the fill, is not written twice).
  assert.equal([b.adapter.stats().received, b.adapter.stats().backfilled, b.adapter.stats().lost], [3, 2, 0])
  assert.is(Number(await shared.redis.cli(master, 'XLEN', streamOf(room))), 3)
  sender.ws.close()
  far.ws.close()
})

Cluster('a node given the application\'s own cluster client leaves it open on close', async () => {
  const client = createCluster({ rootNodes: shared.redis.rootNodes.map((n) => ({ url: n.url })) })
  await client.connect()
  const a = await startNode('a', { client })
  const b = await startNode('b')
  const one = await openClient(a.port, `/?room=${rooms[1]?.room}`)
  const two = await openClient(b.port, `/?room=${rooms[1]?.room}`)
  await delay(200)
  two.emit('shout', { room: rooms[1]?.room, text: 'hello a' })
  assert.is(await one.next(), '{"event":"shout","data":"hello a"}')
  one.ws.close()
  two.ws.close()
  await Promise.all([a, b].map((n) => n.server.close()))
  assert.is(client.isOpen, true)
  assert.is(await client.sendCommand(undefined, true, ['PING']), 'PONG')
  await client.close()
})

// node-redis moves a failed-over master's sharded subscriptions in a promise nobody awaits:
// when that SSUBSCRIBE fails, the listeners are gone without a word. Here the client is made
// to drop b's listener through its own API, the state such a failure leaves.
Cluster('a subscription the cluster client lost is made again, and what was published meanwhile is read from the stream, in order, once', async () => {
  const client = createCluster({ rootNodes: shared.redis.rootNodes.map((n) => ({ url: n.url })) })
  await client.connect()
  try {
    const { room, master } = rooms[0] as { room: string; master: number }
    const a = await startNode('a')
    const b = await startNode('b', { client })
    const sender = await openClient(a.port, `/?room=${room}`)
    const far = await openClient(b.port, `/?room=${room}`)
    for (let i = 0; i < 100 && (await shardSubscribers(master, channelOf(room))) !== 2; i++) await delay(20)
    sender.emit('shout', { room, text: 'before' })
    assert.is(await far.next(), '{"event":"shout","data":"before"}')
    await client.sUnsubscribe(channelOf(room))
    assert.is(await shardSubscribers(master, channelOf(room)), 1)
    for (const text of ['missed 1', 'missed 2']) sender.emit('shout', { room, text })
    // b finds its listener gone (past its grace for a move on its way), subscribes again and
    // reads the two it missed from the stream.
    const lost = (r: LogRecord): boolean => r.level === 'warning' && r.message.includes('no longer listens to') && r.context.channel === channelOf(room)
    await eventually(() => b.records.some(lost), 5000, 'b to find its subscription lost')
    await eventually(async () => (await shardSubscribers(master, channelOf(room))) === 2, 3000, 'b subscribed again')
    assert.is(await far.next(), '{"event":"shout","data":"missed 1"}')
    assert.is(await far.next(), '{"event":"shout","data":"missed 2"}')
    sender.emit('shout', { room, text: 'after' })
    assert.is(await far.next(), '{"event":"shout","data":"after"}')
    // Each once: nothing more comes, nothing counted lost.
    await delay(300)
    assert.equal(far.pending, [])
    // One listener at a time: no message was heard twice.
    assert.is(b.adapter.stats().duplicates, 0)
    assert.is(b.adapter.stats().lost, 0)
    sender.ws.close()
    far.ws.close()
    await Promise.all([a, b].map((n) => n.server.close()))
  } finally {
    await client.close()
  }
})

Cluster.run()
