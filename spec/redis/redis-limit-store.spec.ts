/**
 * Cluster-wide rate limits against a real redis-server: the Redis store answers as the core's
 * token bucket does, and two nodes on one Redis share a route's buckets (the limit holds
 * whichever node a client's requests reach).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { httpRoute, rateLimit } from '../../lib/index.js'
import { nodeRedisPort, redisLimitStore } from '../../lib/redis/index.js'
import { startRedis } from '../support/redis.js'
import { redisSuite } from '../support/redis-suite.js'

const Limits = suite('redisLimitStore')
const shared = redisSuite(Limits, {
  start: startRedis,
  prefix: 'rl',
  numbered: true,
  adapter: (redis) => ({ url: redis.url }),
})

Limits('a bucket in Redis: burst tokens at once, then a refusal with the time to the next token', async () => {
  const port = nodeRedisPort({ url: shared.redis.url })
  await port.connect()
  shared.defer(() => port.close())
  const store = redisLimitStore(port, shared.prefix)
  assert.ok(store.ready)
  const rule = { intervalMs: 10_000, burst: 2 }
  const a = await store.take('login', '203.0.113.7', rule)
  const b = await store.take('login', '203.0.113.7', rule)
  const c = await store.take('login', '203.0.113.7', rule)
  assert.equal([a.allowed, a.remaining], [true, 1])
  assert.equal([b.allowed, b.remaining], [true, 0])
  assert.is(c.allowed, false)
  assert.ok(c.retryAfterMs > 9_000 && c.retryAfterMs <= 10_000, String(c.retryAfterMs))
  // Another key, another bucket; the bucket's key expires once it would be full again.
  assert.ok((await store.take('login', '203.0.113.8', rule)).allowed)
  const ttl = Number(await port.command(['PTTL', `${shared.prefix}:{rl:login:203.0.113.7}`]))
  assert.ok(ttl > 10_000 && ttl <= 20_000, String(ttl))
})

Limits('two nodes share a route\'s buckets: the limit holds across them', async () => {
  const server = { routes: [rateLimit({ limit: 3, windowMs: 60_000 }, httpRoute('GET', '/limited', () => 'ok'))] }
  const a = await shared.startNode('a', {}, server)
  const b = await shared.startNode('b', {}, server)
  const statuses: number[] = []
  for (const node of [a, b, a, b, a]) statuses.push((await fetch(`http://127.0.0.1:${node.port}/limited`)).status)
  assert.equal(statuses, [200, 200, 200, 429, 429])
})

Limits('rateLimits.store local: each node counts its own', async () => {
  const server = { routes: [rateLimit({ limit: 1, windowMs: 60_000 }, httpRoute('GET', '/limited', () => 'ok'))], rateLimits: { store: 'local' as const } }
  const a = await shared.startNode('a', {}, server)
  const b = await shared.startNode('b', {}, server)
  const statuses: number[] = []
  for (const node of [a, b, a]) statuses.push((await fetch(`http://127.0.0.1:${node.port}/limited`)).status)
  assert.equal(statuses, [200, 200, 429])
})

Limits.run()
