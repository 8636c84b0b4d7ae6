/**
 * `LimitStore`: the port of a rate-limit store shared by the nodes of a cluster (the Redis
 * adapter's, `lib/redis/redis-limit-store.ts`). A cluster adapter that has one offers it as
 * its `limitStore`, and the server's rate limits are then cluster-wide. Types only.
 * Must not import `node:*`, Buffer or process.
 */
import type { LimitVerdict } from '../../core/limit/rate-limiter.js'
import type { BucketRule } from '../../core/limit/take-token.js'

export interface LimitStore {
  /**
   * Spends a token of bucket `name` for `key`, in one round trip at most. Rejects when the
   * store cannot answer (the server then lets the check pass and logs it once per window).
   */
  take(name: string, key: string, rule: BucketRule): Promise<LimitVerdict>
  /** Whether the store can answer now; `false`: the server does not ask (and lets checks pass). */
  readonly ready: boolean
}
