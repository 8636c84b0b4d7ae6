/**
 * `Last-Event-ID` as the session cursor on any node (issue 23), against a real redis-server:
 * two twinport nodes with the Redis adapter and the Redis recovery store; a Server-Sent Events
 * client of one (in `lobby`) goes away, the room gets broadcasts, and it comes back on the
 * other node with its `Last-Event-ID`: the same session, what it missed in order, once, and the
 * next broadcasts. A cursor of a session no store knows is a fresh session with the resync signal.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { redisRecoveryStore, type RedisRecoveryStore } from '../../lib/redis/index.js'
import { startRedis } from '../support/redis.js'
import { type RedisNode, redisSuite } from '../support/redis-suite.js'
import { delay, eventually } from '../support/server.js'
import { openSse } from '../support/sse-client.js'
import { recoveryApp } from './fixtures/recovery-app.js'

interface Node extends RedisNode {
  readonly store: RedisRecoveryStore
}

const SseRecovery = suite('SSE recovery across nodes')
const shared = redisSuite(SseRecovery, {
  start: startRedis,
  prefix: 'sx',
  numbered: true,
  adapter: (redis) => ({ url: redis.url, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 400, requestTimeoutMs: 300 }),
  server: { routes: recoveryApp },
})

const startNode = async (nodeId: string): Promise<Node> => {
  const store = redisRecoveryStore({ url: shared.redis.url, prefix: shared.prefix })
  await store.connect()
  shared.defer(() => store.close())
  return { ...(await shared.startNode(nodeId, {}, { recovery: { store } })), store }
}
const dataOf = (data: string): { event: string; data: unknown; seq?: number } => JSON.parse(data) as { event: string; data: unknown; seq?: number }

SseRecovery('an event-stream client of node a comes back on node b with Last-Event-ID: the same session, what it missed, in order, once', async () => {
  const a = await startNode('a')
  const b = await startNode('b')
  const first = await openSse(a.port, '/events')
  await first.until(1)
  await delay(200) // both nodes see the room
  b.server.broadcast('n', 1, { room: 'lobby' })
  await first.until(2)
  const lastId = first.reader().lastEventId
  const sid = lastId.split(':')[0] as string
  assert.is(lastId, `${sid}:1`)
  first.socket.destroy()
  await eventually(() => a.server.clients().length === 0, 2000, 'the stream to go from a')
  b.server.broadcast('n', 2, { room: 'lobby' })
  b.server.broadcast('n', 3, { room: 'lobby' })
  await delay(200) // a's journal wrote what its parked session got
  const again = await openSse(b.port, '/events', { 'last-event-id': lastId })
  await again.until(3, 5000)
  assert.equal(dataOf(again.events[0]?.data ?? '').data, { sid, recovered: true, heartbeat: 30_000 })
  assert.equal(again.events.slice(1).map((e) => [e.lastEventId, dataOf(e.data).data]), [[`${sid}:2`, 2], [`${sid}:3`, 3]])
  a.server.broadcast('n', 4, { room: 'lobby' })
  await again.until(4)
  await delay(100)
  assert.equal(again.events.slice(1).map((e) => dataOf(e.data).data), [2, 3, 4])
  assert.is(again.events[3]?.lastEventId, `${sid}:4`)
  again.close()
})

SseRecovery('a cursor no node or store knows: a fresh session with resync unknown_session', async () => {
  const b = await startNode('b')
  const c = await openSse(b.port, '/events', { 'last-event-id': 'NoSuchSession0123456789:5' })
  await c.until(1, 5000)
  const session = dataOf(c.events[0]?.data ?? '').data as { recovered: boolean; resync: string }
  assert.is(session.recovered, false)
  assert.is(session.resync, 'unknown_session')
  c.close()
})

SseRecovery.run()
