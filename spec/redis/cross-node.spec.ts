/**
 * The Redis adapter with a real redis-server and two or three real twinport servers on
 * different ports, each with its own adapter, and real `ws` clients on each: broadcasts to
 * rooms, namespaces and everyone cross between nodes byte for byte; a room's traffic reaches
 * only nodes with members; a client of another node is reached by its cluster id; queries
 * span the nodes.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { onConnect, onMessage, type RouteSource, routes, socketOn } from '../../lib/index.js'
import { startRedis } from '../support/redis.js'
import { meshed, type RedisNode, redisSuite } from '../support/redis-suite.js'
import { delay, eventually, openClient } from '../support/server.js'

const app = routes({
  join: onConnect((ctx) => {
    const room = new URLSearchParams(ctx.request.rawQuery).get('room')
    if (room !== null) ctx.joinRoom(room)
  }),
  shout: socketOn('shout', (data, ctx) => ctx.broadcast('shout', data, { room: 'lobby', except: ctx.clientId })),
})
// The echo example's /bcast room: every message, verbatim, to every member.
const bcast = routes({
  join: onConnect((ctx) => ctx.joinRoom('bcast')),
  raw: onMessage((message, ctx) => {
    ctx.broadcastRaw(message, { room: 'bcast' })
    return undefined
  }),
})

const Cross = suite('redisAdapter :: across nodes')
const shared = redisSuite(Cross, {
  start: startRedis,
  prefix: 'cross',
  adapter: (redis) => ({ url: redis.url, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 400, requestTimeoutMs: 300 }),
})
const startNode = (nodeId: string, routeTable: RouteSource = app): Promise<RedisNode> => shared.startNode(nodeId, {}, { routes: routeTable })

Cross('a room broadcast reaches the room\'s members on the other node, the same bytes', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const sender = await openClient(a.port, '/?room=lobby')
  const far = await openClient(b.port, '/?room=lobby')
  const elsewhere = await openClient(b.port, '/?room=other')
  await delay(100) // b's subscription to the room, made when its member joined
  sender.emit('shout', { text: 'é ✓ 🎉' })
  assert.is(await far.next(), '{"event":"shout","data":{"text":"é ✓ 🎉"}}')
  await delay(100)
  assert.equal([sender.pending.length, elsewhere.pending.length], [0, 0])
  assert.ok(b.adapter.stats().received >= 1)
  for (const c of [sender, far, elsewhere]) c.ws.close()
})

Cross('the echo /bcast room: binary and text messages from one node reach clients of the other', async () => {
  const a = await startNode('a', bcast)
  const b = await startNode('b', bcast)
  const one = await openClient(a.port, '/bcast')
  const two = await openClient(b.port, '/bcast')
  await delay(100)
  one.ws.send(Buffer.from([0, 1, 2, 255]))
  await eventually(() => two.pending.length === 1 && one.pending.length === 1, 2000, 'the binary message on both nodes')
  assert.equal([...(two.pending[0] as Buffer)], [0, 1, 2, 255])
  assert.equal([...(one.pending[0] as Buffer)], [0, 1, 2, 255])
  await Promise.all([one.next(), two.next()])
  two.ws.send('from b')
  assert.is(await one.next(), 'from b')
  assert.is(await two.next(), 'from b')
  one.ws.close()
  two.ws.close()
})

Cross('broadcasts to everyone and to a namespace cross too; the handle counts its own node\'s receivers', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const one = await openClient(a.port)
  const two = await openClient(b.port)
  await delay(100)
  assert.is(a.server.broadcast('news', [1, 2]), 1)
  assert.is(await one.next(), '{"event":"news","data":[1,2]}')
  assert.is(await two.next(), '{"event":"news","data":[1,2]}')
  assert.is(b.server.broadcastRaw({ _tag: 'Text', text: 'ns' }, { namespace: '/' }), 1)
  assert.is(await one.next(), 'ns')
  assert.is(await two.next(), 'ns')
  one.ws.close()
  two.ws.close()
})

Cross('a room\'s channel has a subscriber only on the nodes with members in it', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const subscribers = async (): Promise<number> => Number((await shared.redis.cli('PUBSUB', 'SHARDNUMSUB', 'cross:{r:%2F:vip}:c')).split('\n')[1])
  const member = await openClient(a.port, '/?room=vip')
  let n = 0
  for (let i = 0; i < 100 && (n = await subscribers()) !== 1; i++) await delay(20)
  assert.is(n, 1)
  const other = await openClient(b.port, '/?room=vip')
  for (let i = 0; i < 100 && (n = await subscribers()) !== 2; i++) await delay(20)
  assert.is(n, 2)
  member.ws.close()
  for (let i = 0; i < 100 && (n = await subscribers()) !== 1; i++) await delay(20)
  assert.is(n, 1)
  other.ws.close()
  for (let i = 0; i < 100 && (n = await subscribers()) !== 0; i++) await delay(20)
  assert.is(n, 0)
})

Cross('server.cluster: room members and counts of every node; a client of another node by its id', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  await meshed(a, b)
  const one = await openClient(a.port, '/?room=lobby')
  const two = await openClient(b.port, '/?room=lobby')
  const three = await openClient(b.port, '/')
  const lobby = await a.server.cluster.clientsInRoom('lobby')
  assert.equal(lobby, { clients: ['a/1', 'b/1'], missingNodes: [] })
  assert.equal(await b.server.cluster.count(), { count: 3, missingNodes: [] })
  assert.equal(await b.server.cluster.count({ room: 'lobby' }), { count: 2, missingNodes: [] })
  assert.is(a.server.cluster.send('b/1', 'direct', { to: 'two' }), true)
  assert.is(await two.next(), '{"event":"direct","data":{"to":"two"}}')
  assert.is(a.server.cluster.sendRaw('b/2', { _tag: 'Text', text: 'raw to three' }), true)
  assert.is(await three.next(), 'raw to three')
  assert.equal(await a.server.cluster.joinRoom('b/2', 'lobby'), { found: true, missingNodes: [] })
  assert.equal(await a.server.cluster.count({ room: 'lobby' }), { count: 3, missingNodes: [] })
  assert.equal(await a.server.cluster.leaveRoom('b/2', 'lobby'), { found: true, missingNodes: [] })
  assert.equal(await a.server.cluster.disconnectClient('b/1'), { found: true, missingNodes: [] })
  assert.is((await two.closed()).code, 1000)
  assert.equal(await a.server.cluster.disconnectClient('b/1'), { found: false, missingNodes: [] })
  one.ws.close()
  three.ws.close()
})

Cross('server.cluster.emit: server-to-server events with every other node\'s acknowledgement', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const c = await startNode('c')
  await meshed(a, b, c)
  b.server.cluster.on('load', (data, from) => ({ node: 'b', load: 0.5, data, from }))
  c.server.cluster.on('load', async () => ({ node: 'c', load: 0.25 }))
  const answer = await a.server.cluster.emit('load', 'please')
  const byNode = [...answer.replies].sort((x, y) => x.node.localeCompare(y.node))
  assert.equal(byNode, [
    { node: 'b', data: { node: 'b', load: 0.5, data: 'please', from: 'a' } },
    { node: 'c', data: { node: 'c', load: 0.25 } },
  ])
  assert.equal(answer.missingNodes, [])
  assert.equal((await a.server.cluster.emit('nobody-listens')).replies.map((r) => r.error), ['no_handler', 'no_handler'])
})

Cross('a foreign or corrupt message on a channel is logged and dropped; the node keeps working', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const member = await openClient(b.port, '/?room=lobby')
  const sender = await openClient(a.port, '/?room=lobby')
  await delay(100)
  for (const [channel, payload] of [
    ['cross:{r:%2F:lobby}:c', 'not a cluster message'],
    ['cross:{r:%2F:lobby}:c', 'tw\u0001\u0001garbage with our magic bytes'],
    ['cross:{node:b}:c', '{"event":"hack"}'],
    ['cross:{control}:c', ''],
  ] as const) {
    await shared.redis.cli('SPUBLISH', channel, payload)
  }
  await eventually(() => b.adapter.stats().invalid >= 4, 2000, 'the bad messages to be counted')
  const warnings = b.records.filter((r) => r.level === 'warning' && r.message.startsWith('cluster: dropped a message'))
  assert.ok(warnings.length >= 4)
  assert.ok(warnings.some((w) => w.context.reason === 'bad magic bytes'))
  assert.equal(member.pending.length, 0)
  sender.emit('shout', 'still here')
  assert.is(await member.next(), '{"event":"shout","data":"still here"}')
  member.ws.close()
  sender.ws.close()
})

Cross.run()
