/**
 * The engine's cluster port end to end, without Redis: two real servers whose adapters are
 * joined by an in-memory hub (spec/support/memory-cluster.ts), real `ws` clients on each.
 * Proves what the engine does with an adapter: a broadcast is encoded once and the same
 * bytes reach the other server's clients, rooms open and close, queries span both servers.
 * The nodes are apps of spec/integration/fixtures/cluster.ts, served together by the runtime
 * TWINPORT_TARGET names; the clients are Node's `ws`.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serve } from '../support/fixture-server.js'
import { delay, eventually, openClient } from '../support/server.js'

const Cluster = suite('runServer :: cluster adapter')

// Each test's nodes share a hub of their own.
let hubs = 0

const twoNodes = async (app: 'node' | 'burst' = 'node') => {
  const hub = `hub-${++hubs}`
  const a = await serve('cluster', app, {}, { hub, node: 'a' })
  const b = await serve('cluster', app, {}, { hub, node: 'b' })
  return { hub, a, b }
}

Cluster('a room broadcast reaches the room on the other node, byte for byte; the sender is left out on its own node only', async () => {
  const { a, b } = await twoNodes()
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
    assert.equal(await a.server.probe('published'), ['a /lobby'])
    assert.equal((await a.server.probe('rooms', 'b')) ?? [], ['/ lobby'])
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
    assert.is(await a.server.broadcast('news', 1), 1)
    assert.is(await one.next(), '{"event":"news","data":1}')
    assert.is(await two.next(), '{"event":"news","data":1}')
    assert.is(await b.server.broadcastRaw({ _tag: 'Text', text: 'plain' }, { namespace: '/' }), 1)
    assert.is(await one.next(), 'plain')
    assert.is(await two.next(), 'plain')
    one.ws.close()
    two.ws.close()
  } finally {
    await Promise.all([a.server.close(), b.server.close()])
  }
})

Cluster('rooms close on the adapter when their last local member leaves', async () => {
  const { a, b } = await twoNodes()
  try {
    const c = await openClient(a.port, '/?room=r1')
    await eventually(async () => (await a.server.probe('rooms', 'a'))?.includes('/ r1') === true)
    c.ws.close()
    await eventually(async () => (await a.server.probe('rooms', 'a'))?.length === 0, 2000, 'the room to close')
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
    assert.is(await a.server.cluster.send(remote, 'direct', 'hi'), true)
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
  const hub = `hub-${++hubs}`
  const a = await serve('cluster', 'node', {}, { hub, node: 'a', whoami: 'constant' })
  const b = await serve('cluster', 'node', {}, { hub, node: 'b', whoami: 'describe' })
  const c = await serve('cluster', 'node', {}, { hub, node: 'c' })
  try {
    await a.server.probe('silence', 'c')
    assert.equal(await a.server.cluster.emit('whoami', 42), { replies: [{ node: 'b', data: { me: 'b', asked: 42, from: 'a' } }], missingNodes: ['c'] })
  } finally {
    await Promise.all([a.server.close(), b.server.close(), c.server.close()])
  }
})

Cluster('a burst of broadcasts in one turn reaches every receiver complete and in order (held to the end of the turn), on both nodes', async () => {
  const { a, b } = await twoNodes('burst')
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
    const remote = await b.server.cluster.idOf(2)
    const [, , sent] = await a.server.batch([
      ['broadcast', 'news', 1, { room: 'lobby' }],
      ['broadcastRaw', { _tag: 'Text', text: 'raw' }, { room: 'lobby' }],
      ['cluster.send', remote, 'direct', 2],
    ])
    assert.is(sent, true)
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
  const { server, port } = await serve('cluster', 'alone')
  try {
    const c = await openClient(port)
    assert.is(await server.read('cluster.nodeId'), 'local')
    assert.equal(await server.cluster.clients(), { clients: ['local/1'], missingNodes: [] })
    assert.is(await server.cluster.send('local/1', 'x', 1), true)
    assert.is(await c.next(), '{"event":"x","data":1}')
    c.ws.close()
  } finally {
    await server.close()
  }
})

Cluster('an adapter missing an operation is refused at start with the option named', async () => {
  try {
    await serve('cluster', 'broken')
    assert.unreachable('started')
  } catch (error) {
    assert.match(String(error), /cluster\.publish: expected a function/)
  }
})

Cluster.run()
