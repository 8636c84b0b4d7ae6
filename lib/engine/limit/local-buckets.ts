/**
 * `LocalBuckets`: token buckets in this process, one number per bucket and key (the core's
 * `takeToken` state), on the platform's clock. A bucket that is full again is worth nothing:
 * a sweep every `SWEEP_MS` forgets those, so memory follows the keys seen within a window.
 * Must not import `node:*`, Buffer or process.
 */
import type { LimitVerdict } from '../../core/limit/rate-limiter.js'
import { type BucketRule, takeToken } from '../../core/limit/take-token.js'

const SWEEP_MS = 10_000

export class LocalBuckets {
  // By bucket name, then key: no string joined per check.
  private readonly tats = new Map<string, Map<string, number>>()
  private sweptAt = 0

  constructor(private readonly now: () => number) {}

  /** Spends a token of bucket `name` for `key`. */
  take(name: string, key: string, rule: BucketRule): LimitVerdict {
    const now = this.now()
    if (now - this.sweptAt >= SWEEP_MS) this.sweep(now)
    let keys = this.tats.get(name)
    if (keys === undefined) this.tats.set(name, (keys = new Map()))
    const verdict = takeToken(keys.get(key), rule, now)
    if (verdict.allowed) keys.set(key, verdict.tat)
    return verdict
  }

  /** How many buckets are kept (not yet full again at the last sweep). */
  get size(): number {
    let size = 0
    for (const keys of this.tats.values()) size += keys.size
    return size
  }

  private sweep(now: number): void {
    this.sweptAt = now
    for (const keys of this.tats.values()) for (const [key, tat] of keys) if (tat <= now) keys.delete(key)
  }
}
