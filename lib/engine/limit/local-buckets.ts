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
  private readonly tats = new Map<string, number>()
  private sweptAt = 0

  constructor(private readonly now: () => number) {}

  /** Spends a token of bucket `name` for `key`. */
  take(name: string, key: string, rule: BucketRule): LimitVerdict {
    const now = this.now()
    if (now - this.sweptAt >= SWEEP_MS) this.sweep(now)
    const id = `${name}\u0000${key}`
    const verdict = takeToken(this.tats.get(id), rule, now)
    if (verdict.allowed) this.tats.set(id, verdict.tat)
    return verdict
  }

  /** How many buckets are kept (not yet full again at the last sweep). */
  get size(): number {
    return this.tats.size
  }

  private sweep(now: number): void {
    this.sweptAt = now
    for (const [id, tat] of this.tats) if (tat <= now) this.tats.delete(id)
  }
}
