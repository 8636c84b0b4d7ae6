/**
 * The Redis adapter under faults, against a real redis-server and real twinport servers:
 * Redis stopped in the middle of a broadcast storm and started again, a node killed with
 * SIGKILL or frozen with SIGSTOP, Redis answering slowly (DEBUG SLEEP). No assertion is
 * about time; each is about what arrived, in which order, and what was counted and logged.
 * Each test prints one `[figures]` line (sent, delivered, dropped, …) for the record.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createClient } from 'redis'
import { onConnect, routes } from '../../lib/index.js'
import { type NodeProcess, startNodeProcess, startRedis } from '../support/redis.js'
import { type RedisNode, redisSuite } from '../support/redis-suite.js'
import { delay, eventually, openClient, type TestClient } from '../support/server.js'
import { startFaultProxy } from '../../bench/soak/fault-proxy.js'

const app = routes({
  join: onConnect((ctx) => {
    const room = new URLSearchParams(ctx.request.rawQuery).get('room')
    if (room !== null) ctx.joinRoom(room)
  }),
})

const Faults = suite('redisAdapter :: faults')
const children: NodeProcess[] = []
const shared = redisSuite(Faults, {
  start: startRedis,
  prefix: 'faults',
  numbered: true,
  adapter: (redis) => ({ url: redis.url, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 500, requestTimeoutMs: 300 }),
  server: { routes: app },
  beforeClose: async (redis) => {
    for (const child of children.splice(0)) {
      child.child.kill('SIGKILL')
      await child.exited()
    }
    await redis.restart()
  },
})
const { startNode } = shared

// The numbers a client received, in order ({"event":"n","data":i}).
const numbers = (client: TestClient): number[] => client.pending.map((b) => (JSON.parse(b.toString()) as { data: number }).data)
const increasing = (list: readonly number[]): boolean => list.every((x, i) => i === 0 || x >= (list[i - 1] as number))

// Broadcasts 0, 1, 2, … to `room` from `node` every millisecond until stopped.
const storm = (node: RedisNode, room: string) => {
  let next = 0
  const timer = setInterval(() => {
    for (let k = 0; k < 2; k++) node.server.broadcast('n', next++, { room })
  }, 1)
  return { stop: () => clearInterval(timer), sent: () => next }
}

Faults('Redis stopped in a broadcast storm and started again: local delivery never stops, nothing is lost, order holds, subscriptions come back', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const near = await openClient(a.port, '/?room=storm')
  const far = await openClient(b.port, '/?room=storm')
  await delay(100)
  const s = storm(a, 'storm')
  await delay(150)
  await shared.redis.stop()
  const sentBeforeRestart = s.sent()
  await delay(300)
  // Local delivery went on while Redis was away.
  await eventually(() => near.pending.length >= s.sent() - 2, 2000, 'local delivery during the outage')
  assert.ok(s.sent() > sentBeforeRestart)
  await shared.redis.restart()
  await delay(300)
  s.stop()
  const sent = s.sent()
  await eventually(() => numbers(far).includes(sent - 1), 5000, 'the other node to receive the last broadcast')
  const local = numbers(near)
  assert.equal(local, [...Array(sent).keys()])
  const remote = numbers(far)
  assert.ok(increasing(remote), 'in order')
  assert.equal([...new Set(remote)], [...Array(sent).keys()], 'every broadcast, none lost')
  const stats = a.adapter.stats()
  assert.is(stats.dropped, 0)
  assert.ok(stats.sentAfterOutage > 0)
  assert.ok(a.records.some((r) => r.level === 'warning' && r.message.startsWith('cluster: lost Redis')))
  assert.ok(a.records.some((r) => r.level === 'info' && r.message.startsWith('cluster: Redis is back')))
  // Subscriptions came back by themselves: a broadcast from b now reaches a.
  b.server.broadcast('n', -1, { room: 'storm' })
  await eventually(() => numbers(near).includes(-1), 3000, 'b\'s broadcast on a after the restart')
  console.log(`[figures] storm through a Redis restart: sent ${sent}, local ${local.length}, remote ${remote.length} (${remote.length - new Set(remote).size} twice), after outage ${stats.sentAfterOutage}, dropped ${stats.dropped}, backfilled on b ${b.adapter.stats().backfilled}`)
  near.ws.close()
  far.ws.close()
})

Faults('Redis away longer than the buffer holds: the rest is dropped, counted and logged; delivered + dropped = sent', async () => {
  const a = await startNode('a', { maxBufferedBytes: 4000 })
  const b = await startNode('b')
  const near = await openClient(a.port, '/?room=storm')
  const far = await openClient(b.port, '/?room=storm')
  await delay(100)
  const s = storm(a, 'storm')
  await delay(100)
  await shared.redis.stop()
  await delay(300)
  await shared.redis.restart()
  // The storm goes on until a is back on Redis and its buffer is empty (a loaded machine may
  // take seconds to reconnect); then one last broadcast, which nothing can drop, closes it.
  await eventually(() => a.records.some((r) => r.message.startsWith('cluster: Redis is back')), 15000, 'a back on Redis')
  await eventually(() => a.adapter.stats().waitingBytes === 0, 15000, 'a\'s buffer drained')
  s.stop()
  const sent = s.sent() + 1
  a.server.broadcast('n', sent - 1, { room: 'storm' })
  await eventually(() => numbers(far).includes(sent - 1), 15000, 'the last broadcast on b')
  await delay(100)
  const stats = a.adapter.stats()
  const remote = new Set(numbers(far))
  assert.ok(stats.dropped > 0, 'some dropped')
  assert.is(remote.size + stats.dropped, sent)
  assert.ok(increasing(numbers(far)), 'in order')
  assert.equal(numbers(near).length, sent)
  assert.ok(a.records.some((r) => r.level === 'warning' && r.message.includes('dropped until it catches up')), 'warned')
  const back = a.records.find((r) => r.message.startsWith('cluster: Redis is back'))
  assert.ok(back !== undefined && (back.context.dropped as number) > 0, JSON.stringify(back))
  console.log(`[figures] storm with a 4000-byte buffer: sent ${sent}, delivered on b ${remote.size}, dropped ${stats.dropped}, waiting bytes now ${stats.waitingBytes}`)
  near.ws.close()
  far.ws.close()
})

Faults('a node killed with SIGKILL: the others\' counts drop its clients at once, and its entry within the heartbeat bound', async () => {
  const a = await startNode('a')
  const victim = await startNodeProcess({ REDIS_URL: shared.redis.url, NODE_ID: 'victim', PREFIX: shared.prefix, HEARTBEAT_MS: '100', HEARTBEAT_TIMEOUT_MS: '500' })
  children.push(victim)
  const mine = await openClient(a.port, '/?room=lobby')
  const theirs = await Promise.all([openClient(victim.port, '/?room=lobby'), openClient(victim.port, '/?room=lobby')])
  await eventually(() => a.adapter.liveNodes().includes('victim'), 3000, 'a to see the victim')
  assert.equal(await a.server.cluster.count({ room: 'lobby' }), { count: 3, missingNodes: [] })
  victim.child.kill('SIGKILL')
  await victim.exited()
  // Within the heartbeat's time to live the dead node is still expected: it is named as missing, its clients are not counted.
  const during = await a.server.cluster.count({ room: 'lobby' })
  const killedAt = Date.now()
  assert.is(during.count, 1)
  await eventually(() => !a.adapter.liveNodes().includes('victim'), 3000, 'the victim to leave the registry')
  const goneAfter = Date.now() - killedAt
  assert.equal(await a.server.cluster.count({ room: 'lobby' }), { count: 1, missingNodes: [] })
  console.log(`[figures] SIGKILL: count right away ${JSON.stringify(during)}; out of the registry after ~${goneAfter} ms (bound: timeout 500 + interval 100)`)
  mine.ws.close()
  for (const c of theirs) c.ws.terminate()
})

Faults('a frozen node (SIGSTOP) is reported missing by queries, which do not wait past their bound', async () => {
  const a = await startNode('a', { requestTimeoutMs: 200, heartbeatTimeoutMs: 60_000 })
  const frozen = await startNodeProcess({ REDIS_URL: shared.redis.url, NODE_ID: 'frozen', PREFIX: shared.prefix, HEARTBEAT_MS: '100', HEARTBEAT_TIMEOUT_MS: '60000' })
  children.push(frozen)
  await openClient(frozen.port, '/?room=lobby')
  await eventually(() => a.adapter.liveNodes().includes('frozen'), 3000, 'a to see the frozen node')
  assert.equal(await a.server.cluster.clientsInRoom('lobby'), { clients: ['frozen/1'], missingNodes: [] })
  frozen.child.kill('SIGSTOP')
  try {
    assert.equal(await a.server.cluster.clientsInRoom('lobby'), { clients: [], missingNodes: ['frozen'] })
    assert.equal(await a.server.cluster.emit('anyone'), { replies: [], missingNodes: ['frozen'] })
  } finally {
    frozen.child.kill('SIGCONT')
  }
})

Faults('Redis answering slowly (DEBUG SLEEP) does not delay local broadcasts', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const near = await openClient(a.port, '/?room=slow')
  const far = await openClient(b.port, '/?room=slow')
  await delay(100)
  let sleeping = true
  const sleep = shared.redis.cli('DEBUG', 'SLEEP', '1').then(() => {
    sleeping = false
  })
  await delay(50) // the sleep has started
  for (let i = 0; i < 20; i++) a.server.broadcast('n', i, { room: 'slow' })
  await eventually(() => near.pending.length === 20, 900, 'local delivery')
  // Every local client got everything while Redis was still asleep; the other node gets it after.
  assert.is(sleeping, true)
  assert.equal(far.pending.length, 0)
  await sleep
  await eventually(() => far.pending.length === 20, 3000, 'remote delivery after the sleep')
  assert.equal(numbers(far), [...Array(20).keys()])
  near.ws.close()
  far.ws.close()
})

Faults('shutting down while Redis does not answer (DEBUG SLEEP) does not wait for it', async () => {
  const a = await startNode('a', { requestTimeoutMs: 200 })
  let sleeping = true
  const sleep = shared.redis.cli('DEBUG', 'SLEEP', '6').then(() => {
    sleeping = false
  })
  await delay(50)
  a.server.broadcast('n', 1) // in flight, unanswered
  await a.server.close()
  assert.is(sleeping, true, 'closed while Redis was still asleep')
  await sleep
})

Faults('subscriptions cut by Redis (CLIENT KILL TYPE pubsub) come back, and what was published meanwhile is read from the stream', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const far = await openClient(b.port, '/?room=cut')
  await delay(100)
  a.server.broadcast('n', 0, { room: 'cut' })
  await eventually(() => far.pending.length === 1, 2000, 'the first broadcast')
  // Killed from this process, and published in the same turn the kill is answered: while
  // b's subscription is down, so b cannot hear these on the channel.
  const admin = createClient({ url: shared.redis.url })
  await admin.connect()
  await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub'])
  for (let i = 1; i <= 5; i++) a.server.broadcast('n', i, { room: 'cut' })
  await admin.close()
  await eventually(() => far.pending.length === 6, 5000, 'the broadcasts published while b was not subscribed')
  assert.equal(numbers(far), [0, 1, 2, 3, 4, 5])
  a.server.broadcast('n', 6, { room: 'cut' })
  await eventually(() => far.pending.length === 7, 3000, 'a broadcast after the resubscription')
  assert.equal(numbers(far), [0, 1, 2, 3, 4, 5, 6])
  console.log(`[figures] pub/sub connections killed: b backfilled ${b.adapter.stats().backfilled} from the stream, received ${b.adapter.stats().received}`)
  far.ws.close()
})

Faults('the link to Redis cut while the replies of published broadcasts are on their way (issue 29, soak): each reaches the other node once', async () => {
  const proxy = await startFaultProxy(Number(new URL(shared.redis.url).port))
  shared.defer(() => proxy.close())
  const a = await startNode('a')
  // b reaches Redis through the proxy: 150 ms each way, so a publish runs in Redis 150 ms
  // after it left b and its reply is still on its way when the link is cut at 225 ms.
  const b = await startNode('b', { url: `redis://127.0.0.1:${proxy.port}` })
  const far = await openClient(a.port, '/?room=cut')
  await delay(150)
  proxy.shape(150, 0)
  await delay(400)
  for (let n = 0; n < 20; n++) b.server.broadcast('n', n, { room: 'cut' })
  await delay(225)
  proxy.cut()
  proxy.shape(0, 0)
  await eventually(() => numbers(far).length >= 20, 8000, 'the broadcasts on a')
  await delay(1500)
  assert.equal(numbers(far), Array.from({ length: 20 }, (_, n) => n), 'each once, in order')
})

Faults.run()
