/**
 * The Redis adapter's edges, against a real redis-server: option checks, plain pub/sub,
 * a flushed script cache, misdirected and corrupt messages on every channel, a gap the
 * stream cannot fill, Redis unreachable at start, and calls after close. Some tests attach
 * the adapter to a small host of their own (the `ClusterHost` port) instead of a server.
 */
import * as E from 'fp-ts/lib/Either.js'
import { createClient } from 'redis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { UNSEQUENCED, type ClusterMessage } from '../../lib/core/cluster/cluster-message.js'
import { encodeClusterMessage } from '../../lib/core/cluster/encode-cluster-message.js'
import { withSequence } from '../../lib/core/cluster/with-sequence.js'
import { makeLogger } from '../../lib/core/log/make-logger.js'
import type { ClusterHost, ClusterTarget } from '../../lib/engine/cluster/cluster-adapter.js'
import { onConnect, routes } from '../../lib/index.js'
import { nodeRedisPort } from '../../lib/redis/node-redis-port.js'
import { redisAdapter } from '../../lib/redis/index.js'
import { startRedis } from '../support/redis.js'
import { redisSuite } from '../support/redis-suite.js'
import { delay, eventually, type LogRecord, openClient, startServer } from '../support/server.js'

const Edge = suite('redisAdapter :: edges')
let admin: ReturnType<typeof createClient>
const shared = redisSuite(Edge, {
  start: startRedis,
  prefix: 'edge',
  setup: async (redis) => {
    admin = createClient({ url: redis.url })
    await admin.connect()
  },
  teardown: () => admin.close(),
})

// A host that records what the adapter hands it (the payloads of one-frame, short deliveries).
const recordingHost = () => {
  const delivered: { text: string; target: ClusterTarget }[] = []
  const direct: { clientId: number; text: string }[] = []
  const records: LogRecord[] = []
  const host: ClusterHost = {
    deliver: (frame, target) => {
      delivered.push({ text: new TextDecoder().decode(frame.subarray(2)), target })
      return 1
    },
    deliverTo: (clientId, frame) => {
      direct.push({ clientId, text: new TextDecoder().decode(frame.subarray(2)) })
      return true
    },
    answer: async (body) => ((body as { q?: string }).q === 'count' ? 7 : undefined),
    logger: makeLogger((entry) => records.push(entry)),
    timers: {
      now: () => Date.now(),
      setTimeout: (run, ms) => setTimeout(run, ms),
      clearTimeout: (id) => clearTimeout(id as NodeJS.Timeout),
      setInterval: (run, ms) => setInterval(run, ms).unref(),
      clearInterval: (id) => clearInterval(id as NodeJS.Timeout),
      afterIo: (run) => void setImmediate(run),
    },
  }
  return { host, delivered, direct, records }
}

const attached = async (nodeId: string, options: Parameters<typeof redisAdapter>[0] = {}) => {
  const adapter = redisAdapter({ url: shared.redis.url, nodeId, prefix: shared.prefix, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 400, requestTimeoutMs: 200, ...options })
  const recorded = recordingHost()
  adapter.attach(recorded.host)
  shared.defer(() => adapter.close())
  await adapter.ready()
  return { adapter, ...recorded }
}

const frame = (text: string): Uint8Array => new Uint8Array([0x81, text.length, ...new TextEncoder().encode(text)])
const encode = (m: ClusterMessage): Buffer => {
  const bytes = encodeClusterMessage(m)
  if (E.isLeft(bytes)) throw new Error(bytes.left.reason)
  return Buffer.from(bytes.right)
}

Edge('bad options are refused by name', () => {
  assert.throws(() => redisAdapter({ nodeId: 'a/b' }), /nodeId must be non-empty and without '\/'/)
  assert.throws(() => redisAdapter({ nodeId: '' }), /nodeId must be non-empty/)
  assert.throws(() => redisAdapter({ requestTimeoutMs: 0 }), /requestTimeoutMs must be a positive integer, got 0/)
  assert.throws(() => redisAdapter({ maxBufferedBytes: 1.5 }), /maxBufferedBytes must be a positive integer/)
  assert.match(redisAdapter({ url: shared.redis.url }).nodeId, /^[0-9a-z]{12}$/)
})

Edge('plain pub/sub (sharded: false): broadcasts cross, on SUBSCRIBE channels', async () => {
  const a = await attached('pa', { sharded: false })
  const b = await attached('pb', { sharded: false })
  b.adapter.roomOpened('/', 'plain')
  for (let i = 0; i < 100 && (await admin.sendCommand(['PUBSUB', 'NUMSUB', 'edge:{r:%2F:plain}:c']) as [string, number])[1] !== 1; i++) await delay(10)
  a.adapter.publish(frame('hi'), { room: 'plain' }, false)
  await eventually(() => b.delivered.length === 1, 2000, 'the broadcast')
  assert.equal(b.delivered, [{ text: 'hi', target: { namespace: '/', room: 'plain' } }])
})

Edge('a flushed script cache (NOSCRIPT) falls back to EVAL; the broadcast still crosses', async () => {
  const a = await attached('sa')
  const b = await attached('sb')
  b.adapter.namespaceOpened('/chat')
  await delay(100)
  await admin.sendCommand(['SCRIPT', 'FLUSH'])
  a.adapter.publish(frame('ns'), { namespace: '/chat' }, true)
  await eventually(() => b.delivered.length === 1, 2000, 'the broadcast')
  assert.equal(b.delivered[0]?.target, { namespace: '/chat' })
  assert.is(a.adapter.stats().published, 1)
})

Edge('misdirected or malformed messages on each channel are counted, logged and dropped', async () => {
  const b = await attached('mb')
  b.adapter.roomOpened('/', 'lobby')
  await delay(100)
  const send = (channel: string, message: Buffer | string) => admin.sendCommand(['SPUBLISH', channel, message])
  const f = frame('x')
  await send('edge:{node:mb}:c', encode({ _tag: 'Direct', origin: 'z', seq: UNSEQUENCED, node: 'other', clientId: 1, frame: f }))
  await send('edge:{node:mb}:c', encode({ _tag: 'Broadcast', origin: 'z', seq: UNSEQUENCED, frame: f }))
  await send('edge:{node:mb}:c', encode({ _tag: 'Request', origin: 'z', seq: UNSEQUENCED, requestId: 1, node: 'mb', body: 'not json' }))
  await send('edge:{node:mb}:c', encode({ _tag: 'Reply', origin: 'z', seq: UNSEQUENCED, requestId: 1, node: 'mb', body: '{' }))
  await send('edge:{node:mb}:c', 'garbage')
  await send('edge:{control}:c', encode({ _tag: 'Request', origin: 'z', seq: UNSEQUENCED, requestId: 1, node: 'mb', body: '{}' }))
  await send('edge:{control}:c', 'garbage')
  await send('edge:{r:%2F:lobby}:c', encode({ _tag: 'Broadcast', origin: 'z', seq: { epoch: 1, n: 1 }, room: 'elsewhere', frame: f }))
  await send('edge:{r:%2F:lobby}:c', encode({ _tag: 'Request', origin: 'z', seq: UNSEQUENCED, requestId: 1, node: '', body: '{}' }))
  await eventually(() => b.adapter.stats().invalid === 9, 2000, 'nine invalid messages')
  const reasons = b.records.filter((r) => r.message.startsWith('cluster: dropped a message')).map((r) => r.context.reason)
  assert.equal(reasons, [
    'a message for another node',
    'a message for another node',
    'a request whose body is not JSON',
    'a reply whose body is not JSON',
    'bad magic bytes',
    'not a request to every node',
    'bad magic bytes',
    "not a broadcast to this channel's target",
    "not a broadcast to this channel's target",
  ])
  assert.equal([b.delivered, b.direct], [[], []])
  // A well-addressed direct message is written to its client.
  await send('edge:{node:mb}:c', encode({ _tag: 'Direct', origin: 'z', seq: UNSEQUENCED, node: 'mb', clientId: 3, frame: f }))
  await eventually(() => b.direct.length === 1, 2000, 'the direct message')
  assert.equal(b.direct, [{ clientId: 3, text: 'x' }])
})

Edge('a gap the stream can no longer fill is counted as lost and logged; a foreign stream entry is skipped', async () => {
  const b = await attached('gb')
  b.adapter.roomOpened('/', 'gap')
  await delay(100)
  const channel = 'edge:{r:%2F:gap}:c'
  const base = encodeClusterMessage({ _tag: 'Broadcast', origin: 'z', seq: UNSEQUENCED, namespace: '/', room: 'gap', frame: frame('m') })
  assert.ok(E.isRight(base))
  const at = (n: number) => Buffer.from(withSequence(base.right, { epoch: 5, n }))
  await admin.sendCommand(['SPUBLISH', channel, at(1)])
  await eventually(() => b.delivered.length === 1, 2000, 'the first message')
  // 2 and 3 never existed anywhere; the stream holds a foreign entry and 4.
  await admin.sendCommand(['XADD', 'edge:{r:%2F:gap}:s', '5-3', 'm', 'foreign'])
  await admin.sendCommand(['XADD', 'edge:{r:%2F:gap}:s', '5-4', 'm', at(4)])
  await admin.sendCommand(['SPUBLISH', channel, at(4)])
  await eventually(() => b.delivered.length === 2, 2000, 'the message after the gap')
  assert.is(b.adapter.stats().lost, 2)
  assert.is(b.adapter.stats().invalid, 1)
  assert.ok(b.records.some((r) => r.message.startsWith('cluster: {lost} broadcasts to {target} were no longer in Redis')))
  await admin.sendCommand(['SPUBLISH', channel, at(4)]) // again: a duplicate
  await admin.sendCommand(['SPUBLISH', channel, at(5)])
  await eventually(() => b.delivered.length === 3, 2000, 'the next one')
  assert.is(b.adapter.stats().duplicates, 1)
})

// A failover as the publish script starts one (lua-scripts.ts): the old epoch 5 ended on the
// new master at `pn`, a new epoch 9 starts; the node last delivered 5-3.
const failedOver = async (room: string, pn: number, trimmed = false) => {
  const b = await attached(`fo-${room}`)
  b.adapter.roomOpened('/', room)
  await delay(100)
  const channel = `edge:{r:%2F:${room}}:c`
  const stream = `edge:{r:%2F:${room}}:s`
  const at = (epoch: number, n: number) => {
    const base = encodeClusterMessage({ _tag: 'Broadcast', origin: 'z', seq: UNSEQUENCED, namespace: '/', room, frame: frame(`${epoch}-${n}`) })
    if (E.isLeft(base)) throw new Error(base.left.reason)
    return Buffer.from(withSequence(base.right, { epoch, n }))
  }
  for (let n = 1; n <= Math.max(3, pn); n++) await admin.sendCommand(['XADD', stream, `5-${n}`, 'm', at(5, n)])
  for (let n = 1; n <= 3; n++) await admin.sendCommand(['SPUBLISH', channel, at(5, n)])
  await eventually(() => b.delivered.length === 3, 2000, 'the old epoch up to 5-3')
  // The new master has the old epoch up to `pn` (those past 3 were published, but pub/sub
  // lost them in the failover), then the new epoch's first broadcast.
  if (pn < 3) for (let n = pn + 1; n <= 3; n++) await admin.sendCommand(['XDEL', stream, `5-${n}`])
  await admin.sendCommand(['HSET', `edge:{r:%2F:${room}}:q`, 'pe', '5', 'pn', String(pn), 'e', '9', 'n', '1'])
  await admin.sendCommand(['XADD', stream, '9-1', 'm', at(9, 1)])
  // The stream trimmed past the old epoch before this node read it.
  if (trimmed) await admin.sendCommand(['XTRIM', stream, 'MINID', '9-0'])
  await admin.sendCommand(['SPUBLISH', channel, at(9, 1)])
  return b
}

Edge('a new epoch after the last place: the rest of the old epoch is read from the stream first, then the new one, once, in order', async () => {
  const b = await failedOver('epoch-rest', 5)
  await eventually(() => b.delivered.length === 6, 2000, 'the old epoch\'s rest and the new epoch')
  assert.equal(
    b.delivered.map((d) => d.text),
    ['5-1', '5-2', '5-3', '5-4', '5-5', '9-1'],
  )
  assert.equal([b.adapter.stats().backfilled, b.adapter.stats().lost, b.adapter.stats().rolledBack], [3, 0, 0])
})

Edge('a new epoch whose old one ended behind the last place: the new epoch is delivered, what the failover took back is counted', async () => {
  const b = await failedOver('epoch-behind', 2)
  await eventually(() => b.delivered.length === 4 && b.adapter.stats().rolledBack === 1, 2000, 'the new epoch, and the count')
  assert.equal(
    b.delivered.map((d) => d.text),
    ['5-1', '5-2', '5-3', '9-1'],
  )
  assert.ok(b.records.some((r) => r.message.startsWith('cluster: {count} broadcasts to {target} this node delivered were lost from Redis in a failover')))
})

Edge('a new epoch after the last place, the old epoch\'s rest trimmed before it was read: the new epoch is delivered, the rest counted lost', async () => {
  const b = await failedOver('epoch-trimmed', 5, true)
  await eventually(() => b.delivered.length === 4 && b.adapter.stats().lost === 2, 2000, 'the new epoch, and the count')
  assert.equal(
    b.delivered.map((d) => d.text),
    ['5-1', '5-2', '5-3', '9-1'],
  )
  assert.is(b.adapter.stats().rolledBack, 0)
})

Edge('requests: answered by live nodes; none when no other node lives; a node not alive is missing at once; an unanswered request is missing', async () => {
  const a = await attached('ra')
  assert.equal(await a.adapter.request({ q: 'count' }), { replies: [], missingNodes: [] })
  assert.equal(await a.adapter.request({ q: 'count' }, { node: 'ghost' }), { replies: [], missingNodes: ['ghost'] })
  const b = await attached('rb')
  await eventually(() => a.adapter.liveNodes().includes('rb'), 2000, 'a to see b')
  assert.equal(await a.adapter.request({ q: 'count' }), { replies: [{ node: 'rb', body: 7 }], missingNodes: [] })
  assert.equal(await a.adapter.request({ q: 'nothing' }, { node: 'rb', timeoutMs: 100 }), { replies: [], missingNodes: ['rb'] })
  void b
})

Edge('a frame that cannot cross is logged, not sent; after close nothing is sent or asked', async () => {
  const a = await attached('ca')
  a.adapter.publish(new Uint8Array([0x81, 0x05, 0x68]), { room: 'r' }, false)
  a.adapter.sendTo('other', 1, new Uint8Array([0x81]), false)
  assert.ok(a.records.some((r) => r.message.startsWith('cluster: a broadcast cannot cross')))
  assert.ok(a.records.some((r) => r.message.startsWith('cluster: a message for {node} cannot be sent')))
  await a.adapter.close()
  await a.adapter.close() // twice is harmless
  a.adapter.publish(frame('late'), { room: 'r' }, false)
  assert.equal(await a.adapter.request({ q: 'count' }), { replies: [], missingNodes: [] })
  assert.is(a.adapter.stats().waiting, 0)
})

Edge('Redis unreachable at start: one warning, local service goes on, nothing waits on Redis', async () => {
  const adapter = redisAdapter({ url: 'redis://127.0.0.1:1', nodeId: 'lonely' })
  const { server, port, records } = await startServer({ cluster: adapter, routes: routes({ j: onConnect((ctx) => ctx.joinRoom('r')) }) })
  try {
    const c = await openClient(port)
    await delay(50)
    assert.is(server.broadcast('n', 1, { room: 'r' }), 1)
    assert.is(await c.next(), '{"event":"n","data":1}')
    server.cluster.send('elsewhere/1', 'x') // nowhere to send it: dropped, no throw
    await eventually(() => records.some((r) => r.message.startsWith('cluster: cannot reach Redis yet')), 3000, 'the warning')
    assert.is(records.filter((r) => r.message.startsWith('cluster: cannot reach Redis yet')).length, 1)
    assert.is(adapter.stats().waiting, 1)
    c.ws.close()
  } finally {
    await server.close()
  }
})

Edge('a client of the application\'s own: the adapter opens a subscriber of its own and leaves the client open', async () => {
  const client = createClient({ url: shared.redis.url })
  await client.connect()
  const a = await attached('own', { client: client as never })
  await a.adapter.close()
  assert.is(client.isOpen, true)
  assert.is(await client.sendCommand(['PING']), 'PONG')
  await client.close()
  const port = nodeRedisPort({ url: shared.redis.url, subscriptions: false })
  await port.connect()
  assert.is(await port.command(['PING']), 'PONG')
  await port.close()
})

Edge('nodeRedisPort: the same listener subscribed twice, at once or after, hears each message once; listening says whether the client holds it', async () => {
  const port = nodeRedisPort({ url: shared.redis.url })
  await port.connect()
  try {
    const heard: string[] = []
    const listener = (bytes: Uint8Array): void => void heard.push(new TextDecoder().decode(bytes))
    assert.is(port.listening?.('edge:twice', false), false)
    await Promise.all([port.subscribe('edge:twice', false, listener), port.subscribe('edge:twice', false, listener)])
    await port.subscribe('edge:twice', false, listener)
    assert.is(port.listening?.('edge:twice', false), true)
    assert.is(await admin.publish('edge:twice', 'one'), 1)
    await eventually(() => heard.length > 0, 2000, 'the message')
    await delay(100)
    assert.equal(heard, ['one'])
    await port.unsubscribe('edge:twice', false)
    assert.is(port.listening?.('edge:twice', false), false)
  } finally {
    await port.close()
  }
})

Edge.run()
