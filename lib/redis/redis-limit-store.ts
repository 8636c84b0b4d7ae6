/**
 * `redisLimitStore`: the cluster-wide rate-limit store on Redis (the engine's `LimitStore`
 * port), offered by `redisAdapter` as its `limitStore`: every node's `rateLimit` routes share
 * their buckets. A check is one EVALSHA of LIMIT_SCRIPT (the script sent whole only when Redis
 * does not have it, NOSCRIPT), keyed `<prefix>:{rl:<bucket>:<key>}` (one hash tag per bucket
 * and key, so a Redis Cluster spreads them). Imports the engine as types only, no `node:*`.
 */
import type { LimitVerdict } from '../core/limit/rate-limiter.js'
import type { BucketRule } from '../core/limit/take-token.js'
import { sha1 } from '../core/ws/sha1.js'
import type { LimitStore } from '../engine/limit/limit-store.js'
import { LIMIT_SCRIPT } from './limit-script.js'
import type { RedisPort } from './redis-port.js'

const SCRIPT_SHA = Array.from(sha1(new TextEncoder().encode(LIMIT_SCRIPT)), (b) => b.toString(16).padStart(2, '0')).join('')
const enc = encodeURIComponent

const errorText = (error: unknown): string => String(error instanceof Error ? error.message : error)

/**
 * A store on `port` whose keys start with `prefix`.
 *
 * @example
 * const store = redisLimitStore(port, 'tp')
 * await store.take('GET /login', '203.0.113.7', { intervalMs: 12_000, burst: 5 }) // { allowed: true, retryAfterMs: 0, remaining: 4 }
 */
export const redisLimitStore = (port: RedisPort, prefix: string): LimitStore => {
  const verdictOf = (reply: unknown): LimitVerdict => {
    const [allowed, retryAfterMs, remaining] = reply as readonly [number, number, number]
    return { allowed: allowed === 1, retryAfterMs: Number(retryAfterMs), remaining: Number(remaining) }
  }
  return {
    get ready() {
      return port.commandsReady
    },
    take(name: string, key: string, rule: BucketRule): Promise<LimitVerdict> {
      const bucket = `${prefix}:{rl:${enc(name)}:${enc(key)}}`
      const args = ['1', bucket, String(rule.intervalMs), String(rule.burst)]
      return port.command(['EVALSHA', SCRIPT_SHA, ...args], { key: bucket }).then(verdictOf, (error: unknown) =>
        errorText(error).startsWith('NOSCRIPT') ? port.command(['EVAL', LIMIT_SCRIPT, ...args], { key: bucket }).then(verdictOf) : Promise.reject(error),
      )
    },
  }
}
