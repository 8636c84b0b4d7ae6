/**
 * The engine's cluster port end to end, without Redis: two real servers whose adapters are
 * joined by an in-memory hub (spec/support/memory-cluster.ts), real `ws` clients on each.
 * Proves what the engine does with an adapter: a broadcast is encoded once and the same
 * bytes reach the other server's clients, rooms open and close, queries span both servers.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { onConnect, onMessage, routes, socketOn } from '../../lib/index.js'
import { memoryHub } from '../support/memory-cluster.js'
import { delay, eventually, openClient, startServer } from '../support/server.js'

const app = routes({
  join: onConnect((ctx) => {
    const room = new URLSearchParams(ctx.request.rawQuery).get('room')
    if (room !== null) ctx.joinRoom(room)
  }),
  shout: socketOn('shout', (data, ctx) => ctx.broadcast('shout', data, { room: 'lobby', except: ctx.clientId })),
})

const Cluster = suite('runServer :: cluster adapter')

const twoNodes = async () => {
  const hub = memoryHub()
  const a = await startServer({ routes: app, cluster: hub.node('a') })
  const b = await startServer({ routes: app, cluster: hub.node('b') })
  return { hub, a, b }
}

Cluster('a room broadcast reaches the room on the other node, byte for byte; the sender is left out on its own node only', async () => {
  const { hub, a, b } = await twoNodes()
  try {
    const sender = await openClient(a.port, '/?room=lobby')
    const neighbour = await openClient(a.port, '/?room=lobby')
    const far = await openClient(b.port, '/?room=lobby')
    const outside = await openClient(b.port, '/')
    sender.emit('shout', { text: 'é ✓' })
    assert.is(await neighbour.next(), '{"event":"shout","data":{"text":"é ✓"}}')
    assert.is(await far.next(), '{"event":"shout","data":{"text":"é ✓"}}')
    await delay(30)
    assert.equal([sender.pending.length, outside.pending.length], [0, 0])
    assert.equal(hub.published, ['a /lobby'])
    assert.equal([...(hub.rooms.get('b') ?? [])], ['/ lobby'])
    for (const c of [sender, neighbour, far, outside]) c.ws.close()
  } finally {
    await Promise.all([a.server.close(), b.server.close()])
  }
})

Cluster('handle.broadcast to everyone and to a namespace reaches both nodes and counts the local ones', async () => {
  const { a, b } = await twoNodes()
  try {
    const one = await openClient(a.port)
    const two = await openClient(b.port)
    assert.is(a.server.broadcast('news', 1), 1)
    assert.is(await one.next(), '{"event":"news","data":1}')
    assert.is(await two.next(), '{"event":"news","data":1}')
    assert.is(b.server.broadcastRaw({ _tag: 'Text', text: 'plain' }, { namespace: '/' }), 1)
    assert.is(await one.next(), 'plain')
    assert.is(await two.next(), 'plain')
    one.ws.close()
    two.ws.close()
  } finally {
    await Promise.all([a.server.close(), b.server.close()])
  }
})

Cluster('rooms close on the adapter when their last local member leaves', async () => {
  const { hub, a, b } = await twoNodes()
  try {
    const c = await openClient(a.port, '/?room=r1')
    await eventually(() => hub.rooms.get('a')?.has('/ r1') === true)
    c.ws.close()
    await eventually(() => hub.rooms.get('a')?.size === 0, 2000, 'the room to close')
  } finally {
    await Promise.all([a.server.close(), b.server.close()])
  }
})

Cluster('server.cluster: clients and counts span both nodes; send, join and disconnect reach a client of the other node', async () => {
  const { a, b } = await twoNodes()
  try {
    const one = await openClient(a.port, '/?room=lobby')
    const two = await openClient(b.port, '/?room=lobby')
    await openClient(b.port, '/')
    const rooms = await a.server.cluster.clientsInRoom('lobby')
    assert.equal(rooms.clients.map((id) => id.split('/')[0]), ['a', 'b'])
    assert.equal(rooms.missingNodes, [])
    assert.equal(await a.server.cluster.count(), { count: 3, missingNodes: [] })
    const remote = rooms.clients[1] as string
    assert.is(a.server.cluster.send(remote, 'direct', 'hi'), true)
    assert.is(await two.next(), '{"event":"direct","data":"hi"}')
    assert.equal(await a.server.cluster.joinRoom(remote, 'vip'), { found: true, missingNodes: [] })
    assert.equal(await b.server.cluster.count({ room: 'vip' }), { count: 1, missingNodes: [] })
    assert.equal(await a.server.cluster.disconnectClient(remote), { found: true, missingNodes: [] })
    assert.is((await two.closed()).code, 1000)
    assert.equal(await a.server.cluster.disconnectClient(remote), { found: false, missingNodes: [] })
    one.ws.close()
  } finally {
    await Promise.all([a.server.close(), b.server.close()])
  }
})

Cluster('server.cluster.emit: the other nodes\' handlers acknowledge; a node that does not answer is named', async () => {
  const { hub, a, b } = await twoNodes()
  const c = await startServer({ routes: app, cluster: hub.node('c') })
  try {
    b.server.cluster.on('whoami', (data, from) => ({ me: 'b', asked: data, from }))
    a.server.cluster.on('whoami', () => 'a answers others, never itself')
    hub.silence('c')
    assert.equal(await a.server.cluster.emit('whoami', 42), { replies: [{ node: 'b', data: { me: 'b', asked: 42, from: 'a' } }], missingNodes: ['c'] })
  } finally {
    await Promise.all([a.server.close(), b.server.close(), c.server.close()])
  }
})

Cluster('a burst of broadcasts in one turn reaches every receiver complete and in order (held to the end of the turn), on both nodes', async () => {
  const burst = routes({
    join: onConnect((ctx) => ctx.joinRoom('r')),
    go: socketOn('go', (_data, ctx) => {
      for (let i = 0; i < 50; i++) ctx.broadcast('n', i, { room: 'r' })
    }),
  })
  const hub = memoryHub()
  const a = await startServer({ routes: burst, cluster: hub.node('a') })
  const b = await startServer({ routes: burst, cluster: hub.node('b') })
  try {
    const clients = [await openClient(a.port), await openClient(a.port), await openClient(b.port)]
    clients[0]?.emit('go')
    for (const c of clients) {
      await eventually(() => c.pending.length === 50, 2000, 'the burst')
      assert.equal(c.pending.map((m) => (JSON.parse(m.toString()) as { data: number }).data), [...Array(50).keys()])
      c.ws.close()
    }
  } finally {
    await Promise.all([a.server.close(), b.server.close()])
  }
})

Cluster('a client with a session (tp_v=1) on the other node gets envelopes numbered, raw messages as they are; a client without gets the same bytes', async () => {
  const { a, b } = await twoNodes()
  try {
    const plain = await openClient(b.port, '/?room=lobby')
    const withSession = await openClient(b.port, '/?room=lobby&tp_v=1')
    assert.is((await withSession.nextJson()).event, 'tp:session')
    await delay(30)
    a.server.broadcast('news', 1, { room: 'lobby' })
    a.server.broadcastRaw({ _tag: 'Text', text: 'raw' }, { room: 'lobby' })
    assert.is(a.server.cluster.send(b.server.cluster.idOf(2), 'direct', 2), true)
    assert.is(await plain.next(), '{"event":"news","data":1}')
    assert.is(await plain.next(), 'raw')
    const numbered = [await withSession.next(), await withSession.next(), await withSession.next()]
    assert.equal(numbered, ['{"event":"news","data":1,"seq":1}', 'raw', '{"event":"direct","data":2,"seq":2}'])
    plain.ws.close()
    withSession.ws.close()
  } finally {
    await Promise.all([a.server.close(), b.server.close()])
  }
})

Cluster('without the option: the in-process cluster, this node alone', async () => {
  const { server, port } = await startServer({ routes: routes({ echo: onMessage((m) => m) }) })
  try {
    const c = await openClient(port)
    assert.is(server.cluster.nodeId, 'local')
    assert.equal(await server.cluster.clients(), { clients: ['local/1'], missingNodes: [] })
    assert.is(server.cluster.send('local/1', 'x', 1), true)
    assert.is(await c.next(), '{"event":"x","data":1}')
    c.ws.close()
  } finally {
    await server.close()
  }
})

Cluster('an adapter missing an operation is refused at start with the option named', async () => {
  const hub = memoryHub()
  const { publish: _, ...broken } = hub.node('x')
  try {
    await startServer({ cluster: broken as never })
    assert.unreachable('started')
  } catch (error) {
    assert.match(String(error), /cluster\.publish: expected a function/)
  }
})

Cluster.run()
