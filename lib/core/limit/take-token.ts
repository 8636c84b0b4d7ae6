/**
 * `takeToken`: one check against a token bucket, as the generic cell rate algorithm (GCRA,
 * the token bucket in its "virtual scheduling" form): the whole state of a bucket is one
 * number, the theoretical arrival time, so a store keeps a number per key and a Redis script
 * keeps one string. Time is passed in; nothing here reads a clock.
 * Pure and portable: no node:* imports, no timers, no state.
 */

/** A bucket's shape: `burst` tokens at most, refilled one every `intervalMs`. */
export interface BucketRule {
  /** Milliseconds to earn one token back (`windowMs / limit`); > 0. */
  readonly intervalMs: number
  /** Tokens the bucket holds when full: the most a key may spend at once; ≥ 1. */
  readonly burst: number
}

/** The answer of one check, and the bucket's next state. */
export interface TokenVerdict {
  readonly allowed: boolean
  /** When refused: milliseconds until the same check would pass; 0 when allowed. */
  readonly retryAfterMs: number
  /** Whole tokens left after this check. */
  readonly remaining: number
  /**
   * The bucket's state to keep: its theoretical arrival time (ms). Unchanged when refused;
   * a bucket whose `tat` is at or before `now` is full and need not be kept.
   */
  readonly tat: number
}

/**
 * Spends `cost` tokens of the bucket whose state is `tat` (`undefined`: a full bucket) at
 * time `now`. The bucket is full again at `tat`; a check passes while the debt
 * `tat + cost·interval − now` stays within `burst·interval`. A refused check spends nothing.
 *
 * @example
 * const rule = { intervalMs: 100, burst: 2 }
 * const a = takeToken(undefined, rule, 0) // allowed, remaining 1
 * const b = takeToken(a.tat, rule, 0)     // allowed, remaining 0
 * const c = takeToken(b.tat, rule, 0)     // refused, retryAfterMs 100
 */
export const takeToken = (tat: number | undefined, rule: BucketRule, now: number, cost = 1): TokenVerdict => {
  const { intervalMs, burst } = rule
  const start = tat === undefined || tat < now ? now : tat
  const next = start + intervalMs * cost
  // The earliest time this check may pass: the debt after it must fit in the bucket.
  const allowAt = next - intervalMs * burst
  if (now < allowAt) {
    const remaining = Math.max(0, Math.floor((now - (start - intervalMs * burst)) / intervalMs))
    return { allowed: false, retryAfterMs: Math.ceil(allowAt - now), remaining, tat: start }
  }
  return { allowed: true, retryAfterMs: 0, remaining: Math.floor((now - allowAt) / intervalMs + 1e-9), tat: next }
}
