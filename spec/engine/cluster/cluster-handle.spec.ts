import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { makeLogger } from '../../../lib/core/log/make-logger.js'
import type { ClusterAdapter, ClusterReplies } from '../../../lib/engine/cluster/cluster-adapter.js'
import { createClusterHandle } from '../../../lib/engine/cluster/cluster-handle.js'
import { inProcessCluster } from '../../../lib/engine/cluster/in-process-cluster.js'
import { createNamespaceRegistry } from '../../../lib/engine/registry/namespace-registry.js'

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

// An adapter whose other nodes answer what the test says (`answers`), recording what is asked.
const scripted = (answers: (body: unknown, node: string | undefined) => ClusterReplies) => {
  const asked: { body: unknown; node: string | undefined; timeoutMs: number | undefined }[] = []
  const sent: { node: string; clientId: number; text: string }[] = []
  const adapter: ClusterAdapter = {
    ...inProcessCluster('me'),
    sendTo: (node, clientId, frame, envelope) => void sent.push({ node, clientId, text: `${envelope ? 'envelope ' : ''}${new TextDecoder().decode(frame)}` }),
    request: async (body, options) => {
      asked.push({ body, node: options?.node, timeoutMs: options?.timeoutMs })
      return answers(body, options?.node)
    },
  }
  return { adapter, asked, sent }
}

const setup = (answers: (body: unknown, node: string | undefined) => ClusterReplies) => {
  const { adapter, asked, sent } = scripted(answers)
  const registry = createNamespaceRegistry()
  const local = new Set([1, 2, 3])
  for (const id of local) registry.joinNamespace(id)
  registry.joinRoom(1, 'lobby')
  registry.joinRoom(2, 'lobby')
  const log: string[] = []
  const done: string[] = []
  const framesTo: { clientId: number; text: string }[] = []
  const side = createClusterHandle({
    adapter,
    registry,
    localClients: () => local,
    sendFrame: (clientId, frame, text) => local.has(clientId) && (framesTo.push({ clientId, text: `${text === undefined ? '' : 'envelope '}${new TextDecoder().decode(frame)}` }), true),
    eventFrame: (event, data) => ({ frame: utf8(JSON.stringify({ event, data })), text: JSON.stringify({ event, data }) }),
    rawFrame: (m) => (m._tag === 'Text' ? utf8(m.text) : m.data),
    disconnect: (id) => local.has(id) && (done.push(`disconnect ${id}`), true),
    join: (id, room, ns) => local.has(id) && (done.push(`join ${id} ${room} ${ns ?? '-'}`), true),
    leave: (id, room, ns) => local.has(id) && (done.push(`leave ${id} ${room} ${ns ?? '-'}`), true),
    post: (sid, text) => sid === 'held' && (done.push(`post ${sid} ${text}`), true),
    logger: makeLogger((entry) => log.push(`${entry.level} ${entry.message}`)),
  })
  return { ...side, asked, sent, log, done, framesTo }
}

const none: ClusterReplies = { replies: [], missingNodes: [] }

test('clusterHandle :: clientsInRoom joins this node\'s members to the answers of the others, with the missing nodes', async () => {
  const { handle, asked } = setup(() => ({ replies: [{ node: 'n2', body: ['n2/5'] }], missingNodes: ['n3'] }))
  const found = await handle.clientsInRoom('lobby', undefined, { timeoutMs: 50 })
  assert.equal(found, { clients: ['me/1', 'me/2', 'n2/5'], missingNodes: ['n3'] })
  assert.equal(asked, [{ body: { q: 'clients', room: 'lobby' }, node: undefined, timeoutMs: 50 }])
})

test('clusterHandle :: clients and count of a namespace and of everything', async () => {
  const { handle, asked } = setup((body) => ({ replies: [{ node: 'n2', body: (body as { q: string }).q === 'count' ? 4 : ['n2/9'] }], missingNodes: [] }))
  assert.equal(await handle.clients(), { clients: ['me/1', 'me/2', 'me/3', 'n2/9'], missingNodes: [] })
  assert.equal(await handle.count({ namespace: '/' }), { count: 7, missingNodes: [] })
  assert.equal(await handle.count({ room: 'lobby' }), { count: 6, missingNodes: [] })
  assert.equal(await handle.count({ namespace: '/nowhere' }), { count: 4, missingNodes: [] })
  assert.equal(asked.map((a) => a.body), [{ q: 'clients' }, { q: 'count', namespace: '/' }, { q: 'count', room: 'lobby' }, { q: 'count', namespace: '/nowhere' }])
})

test('clusterHandle :: an answer that does not match the question counts the node as missing, with a warning', async () => {
  const { handle, log } = setup(() => ({ replies: [{ node: 'n2', body: { not: 'a list' } }, { node: 'n3', body: -1 }], missingNodes: [] }))
  assert.equal(await handle.clientsInRoom('lobby'), { clients: ['me/1', 'me/2'], missingNodes: ['n2', 'n3'] })
  assert.equal(await handle.count(), { count: 3, missingNodes: ['n2', 'n3'] })
  assert.ok(log.some((l) => l.startsWith('warning cluster: node {node} sent an answer')))
})

test('clusterHandle :: a local client is handled here, a remote one is asked of its node only', async () => {
  const { handle, asked, done } = setup((_body, node) => ({ replies: [{ node: node as string, body: true }], missingNodes: [] }))
  assert.equal(await handle.disconnectClient('me/3'), { found: true, missingNodes: [] })
  assert.equal(await handle.disconnectClient('me/9'), { found: false, missingNodes: [] })
  assert.equal(await handle.joinRoom('me/1', 'r', '/x'), { found: true, missingNodes: [] })
  assert.equal(await handle.leaveRoom('me/1', 'r'), { found: true, missingNodes: [] })
  assert.equal(done, ['disconnect 3', 'join 1 r /x', 'leave 1 r -'])
  assert.equal(asked, [])
  assert.equal(await handle.disconnectClient('n2/4'), { found: true, missingNodes: [] })
  assert.equal(await handle.joinRoom('n2/4', 'r'), { found: true, missingNodes: [] })
  assert.equal(await handle.leaveRoom('n2/4', 'r', '/x'), { found: true, missingNodes: [] })
  assert.equal(asked.map((a) => [a.node, a.body]), [
    ['n2', { q: 'disconnect', clientId: 4 }],
    ['n2', { q: 'join', clientId: 4, room: 'r', namespace: undefined }],
    ['n2', { q: 'leave', clientId: 4, room: 'r', namespace: '/x' }],
  ])
})

test('clusterHandle :: a remote client whose node does not answer: not found, node missing', async () => {
  const { handle } = setup((_body, node) => ({ replies: [], missingNodes: [node as string] }))
  assert.equal(await handle.disconnectClient('n2/4'), { found: false, missingNodes: ['n2'] })
})

test('clusterHandle :: ids that are not cluster ids are refused without asking anyone', async () => {
  const { handle, asked, sent, framesTo } = setup(() => none)
  assert.equal(await handle.disconnectClient('4'), { found: false, missingNodes: [] })
  assert.is(handle.send('nope', 'hi'), false)
  assert.is(handle.send('n2/0', 'hi'), false)
  assert.is(handle.send('n2/1.5', 'hi'), false)
  assert.equal([asked, sent, framesTo], [[], [], []])
})

test('clusterHandle :: send and sendRaw: a local client gets the frame here, a remote one through its node', () => {
  const { handle, sent, framesTo } = setup(() => none)
  assert.is(handle.idOf(2), 'me/2')
  assert.is(handle.send('me/2', 'hi', 1), true)
  assert.is(handle.send('me/8', 'hi', 1), false)
  assert.is(handle.sendRaw('n2/7', { _tag: 'Text', text: 'raw' }), true)
  assert.is(handle.send('n2/7', 'hi', 2), true)
  assert.equal(framesTo, [{ clientId: 2, text: 'envelope {"event":"hi","data":1}' }])
  assert.equal(sent, [
    { node: 'n2', clientId: 7, text: 'raw' },
    { node: 'n2', clientId: 7, text: 'envelope {"event":"hi","data":2}' },
  ])
})

test('clusterHandle :: emit collects every node\'s acknowledgement', async () => {
  const { handle } = setup(() => ({ replies: [{ node: 'n2', body: { data: 'pong' } }, { node: 'n3', body: { error: 'no_handler' } }], missingNodes: ['n4'] }))
  assert.equal(await handle.emit('ping', 1), {
    replies: [
      { node: 'n2', data: 'pong' },
      { node: 'n3', error: 'no_handler' },
    ],
    missingNodes: ['n4'],
  })
})

test('clusterHandle :: answer: clients, count, disconnect, join, leave of this node', async () => {
  const { answer, done } = setup(() => none)
  assert.equal(await answer({ q: 'clients', room: 'lobby' }, 'n2'), ['me/1', 'me/2'])
  assert.equal(await answer({ q: 'clients' }, 'n2'), ['me/1', 'me/2', 'me/3'])
  assert.equal(await answer({ q: 'clients', namespace: '/' }, 'n2'), ['me/1', 'me/2', 'me/3'])
  assert.equal(await answer({ q: 'count', room: 'lobby', namespace: '/' }, 'n2'), 2)
  assert.equal(await answer({ q: 'count', room: 'empty' }, 'n2'), 0)
  assert.is(await answer({ q: 'disconnect', clientId: 3 }, 'n2'), true)
  assert.is(await answer({ q: 'disconnect', clientId: 30 }, 'n2'), false)
  assert.is(await answer({ q: 'join', clientId: 1, room: 'x' }, 'n2'), true)
  assert.is(await answer({ q: 'leave', clientId: 1, room: 'x', namespace: '/' }, 'n2'), true)
  assert.equal(done, ['disconnect 3', 'join 1 x -', 'leave 1 x /'])
})

test('clusterHandle :: answer: a post for an event-stream session goes to this node\'s stream when it holds it', async () => {
  const { answer, done } = setup(() => none)
  assert.is(await answer({ q: 'post', sid: 'held', text: '{"event":"e"}' }, 'n2'), true)
  assert.is(await answer({ q: 'post', sid: 'elsewhere', text: '{"event":"e"}' }, 'n2'), false)
  assert.is(await answer({ q: 'post', sid: 'held' }, 'n2'), undefined)
  assert.equal(done, ['post held {"event":"e"}'])
})

test('clusterHandle :: answer: a request that is not one is logged and gets no answer', async () => {
  const { answer, log } = setup(() => none)
  for (const bad of [null, 'clients', { q: 'rm -rf' }, { q: 'disconnect', clientId: -1 }, { q: 'join', clientId: 1 }, { q: 'clients', room: 5 }]) {
    assert.is(await answer(bad, 'n2'), undefined)
  }
  assert.is(log.filter((l) => l.includes('dropped a request')).length, 6)
})

test('clusterHandle :: answer: server-to-server events reach their handler, with errors as values', async () => {
  const { handle, answer, log } = setup(() => none)
  handle.on('add', (data, from) => ({ sum: (data as number[]).reduce((a, b) => a + b, 0), from }))
  handle.on('later', async () => 'done')
  handle.on('boom', () => {
    throw new Error('nope')
  })
  handle.on('cycle', () => {
    const o: Record<string, unknown> = {}
    o.o = o
    return o
  })
  assert.equal(await answer({ q: 'event', event: 'add', data: [1, 2] }, 'n2'), { data: { sum: 3, from: 'n2' } })
  assert.equal(await answer({ q: 'event', event: 'later' }, 'n2'), { data: 'done' })
  assert.equal(await answer({ q: 'event', event: 'unknown' }, 'n2'), { error: 'no_handler' })
  assert.equal(await answer({ q: 'event', event: 'boom' }, 'n2'), { error: 'handler_error' })
  assert.equal(await answer({ q: 'event', event: 'cycle' }, 'n2'), { error: 'unserializable_reply' })
  assert.ok(log.some((l) => l.startsWith('error')))
})

test('inProcessCluster :: a cluster of one: no other node, nothing missing', async () => {
  const cluster = inProcessCluster()
  assert.is(cluster.nodeId, 'local')
  cluster.attach({} as never)
  cluster.publish(new Uint8Array(2), {}, false)
  cluster.sendTo('x', 1, new Uint8Array(2), false)
  cluster.roomOpened('/', 'r')
  cluster.roomClosed('/', 'r')
  cluster.namespaceOpened('/')
  cluster.namespaceClosed('/')
  assert.equal(await cluster.request({ q: 'clients' }), { replies: [], missingNodes: [] })
  await cluster.close()
})

test.run()
