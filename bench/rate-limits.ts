/**
 * What a rate-limit check costs (issue 25, docs/decisions.md "Rate limits"): the local
 * limiter's checks per second on one core (the server's `ServerLimiter` over `LocalBuckets`,
 * as a `rateLimit` route calls it, over 10,000 keys), and what the
 * cluster-wide limiter adds to a checked request: the round trip of one check to Redis on
 * loopback (`redisLimitStore`, one EVALSHA), measured one at a time, p50/p99, beside a PING's
 * (the floor of any round trip). It starts its own redis-server on a free 127.0.0.1 port in a
 * temporary directory (spec/support/redis.ts) and stops it.
 *
 *   node --import tsx bench/rate-limits.ts                    # both, defaults
 *   node --import tsx bench/rate-limits.ts --ms 3000 --checks 20000
 */
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { silentLogger } from '../lib/core/log/silent-logger.js'
import { bucketOf } from '../lib/core/route/rate-limit-rule.js'
import { AbuseLog } from '../lib/engine/limit/abuse-log.js'
import { LocalBuckets } from '../lib/engine/limit/local-buckets.js'
import { ServerLimiter } from '../lib/engine/limit/server-limiter.js'
import { nodeTimers } from '../lib/runtime/node-timers.js'
import { nodeRedisPort } from '../lib/redis/node-redis-port.js'
import { redisLimitStore } from '../lib/redis/redis-limit-store.js'
import { startRedis } from '../spec/support/redis.js'

const { values: opt } = parseArgs({
  options: {
    ms: { type: 'string', default: '2000' },
    keys: { type: 'string', default: '10000' },
    checks: { type: 'string', default: '10000' },
  },
})
const ms = Number(opt.ms)
const keyCount = Number(opt.keys)

const local = (): number => {
  const limiter = new ServerLimiter({
    buckets: new LocalBuckets(() => nodeTimers.now()),
    store: undefined,
    trustedProxies: 0,
    abuse: new AbuseLog(silentLogger, nodeTimers, 10_000),
    now: () => nodeTimers.now(),
    closeForAbuse: () => undefined,
  })
  const keys = Array.from({ length: keyCount }, (_, i) => `198.51.${(i >> 8) & 255}.${i & 255}`)
  // Generous enough that most checks pass: 100 per second per key.
  const rule = bucketOf({ limit: 100, windowMs: 1000 })
  let checks = 0
  let refused = 0
  const until = performance.now() + ms
  while (performance.now() < until) {
    for (let i = 0; i < 10_000; i++) {
      const v = limiter.take('GET /api', keys[(checks + i) % keyCount] as string, rule) as { allowed: boolean }
      if (!v.allowed) refused++
    }
    checks += 10_000
  }
  const perSecond = Math.round(checks / (ms / 1000))
  console.log(`local limiter: ${perSecond.toLocaleString('en')} checks/s on one core (${keyCount} keys, ${((refused / checks) * 100).toFixed(1)}% refused)`)
  return perSecond
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number

const redis = async (): Promise<void> => {
  const server = await startRedis()
  const port = nodeRedisPort({ url: server.url })
  try {
    await port.connect()
    const store = redisLimitStore(port, 'bench')
    const rule = bucketOf({ limit: 1000, windowMs: 1000 })
    const n = Number(opt.checks)
    const time = async (run: (i: number) => Promise<unknown>): Promise<number[]> => {
      for (let i = 0; i < 500; i++) await run(i) // warm-up (and the script loaded)
      const times: number[] = []
      for (let i = 0; i < n; i++) {
        const t0 = performance.now()
        await run(i)
        times.push(performance.now() - t0)
      }
      return times.sort((a, b) => a - b)
    }
    const check = await time((i) => store.take('GET /api', `k${i % keyCount}`, rule))
    const ping = await time(() => port.command(['PING']))
    const show = (t: readonly number[]): string => `p50 ${(quantile(t, 0.5) * 1000).toFixed(0)} µs, p99 ${(quantile(t, 0.99) * 1000).toFixed(0)} µs`
    console.log(`redis limiter: one check ${show(check)} (${n} checks one at a time, loopback)`)
    console.log(`redis PING:    ${show(ping)} (the floor of a round trip)`)
  } finally {
    await port.close()
    await server.dispose()
  }
}

local()
await redis()
