/**
 * `ServerLimiter`: the server's `RateLimiter` (the port `rateLimit` routes reach through their
 * context): buckets in this process (`LocalBuckets`) or in the cluster's store, the client's
 * address behind trusted proxies, refusals logged once per window, and the 1008 close of a
 * WebSocket client refused `closeAfter` times within a window. A store that cannot answer lets
 * checks pass (a limit must not take the service down with Redis) and says so in the log.
 * Must not import `node:*`, Buffer or process.
 */
import { clientAddress } from '../../core/limit/client-address.js'
import type { LimitVerdict, RateLimiter } from '../../core/limit/rate-limiter.js'
import type { BucketRule } from '../../core/limit/take-token.js'
import { getHeader } from '../../core/http/request-accessors.js'
import type { HttpRequest } from '../../core/http/types.js'
import type { AbuseLog } from './abuse-log.js'
import type { LimitStore } from './limit-store.js'
import type { LocalBuckets } from './local-buckets.js'

const PASS: LimitVerdict = Object.freeze({ allowed: true, retryAfterMs: 0, remaining: 0 })

export interface ServerLimiterDeps {
  readonly buckets: LocalBuckets
  /** The cluster's store, when the buckets are cluster-wide. */
  readonly store: LimitStore | undefined
  readonly trustedProxies: number
  readonly abuse: AbuseLog
  readonly now: () => number
  /** Closes WebSocket client `clientId` with 1008 (after its error event has left). */
  readonly closeForAbuse: (clientId: number) => void
}

export class ServerLimiter implements RateLimiter {
  // Refusals of WebSocket clients whose rule closes after a number of them: count, window start.
  private readonly strikes = new Map<number, { count: number; since: number }>()

  constructor(private readonly deps: ServerLimiterDeps) {}

  take(name: string, key: string, rule: BucketRule): LimitVerdict | Promise<LimitVerdict> {
    const { store, buckets, abuse } = this.deps
    if (store === undefined) return this.seen(name, key, buckets.take(name, key, rule))
    if (!store.ready) {
      abuse.note('rate-limit store unavailable: checks pass unchecked')
      return PASS
    }
    return store.take(name, key, rule).then(
      (verdict) => this.seen(name, key, verdict),
      (error: unknown) => {
        abuse.note('rate-limit store failed: checks pass unchecked', { error: error instanceof Error ? error.message : String(error) })
        return PASS
      },
    )
  }

  refused(clientId: number, closeAfter: number | undefined, windowMs: number): void {
    if (closeAfter === undefined) return
    const now = this.deps.now()
    const seen = this.strikes.get(clientId)
    const strike = seen === undefined || now - seen.since > windowMs ? { count: 1, since: now } : { count: seen.count + 1, since: seen.since }
    if (strike.count < closeAfter) {
      this.strikes.set(clientId, strike)
      if (this.strikes.size > 1024) this.forgetOld(now, windowMs)
      return
    }
    this.strikes.delete(clientId)
    this.deps.abuse.note('client closed for repeated rate-limit refusals (1008)', { clientId, refusals: strike.count })
    this.deps.closeForAbuse(clientId)
  }

  addressOf(request: HttpRequest, peer: string | undefined): string | undefined {
    const hops = this.deps.trustedProxies
    return hops === 0 ? peer : clientAddress(peer, getHeader(request, 'x-forwarded-for'), hops)
  }

  private seen(name: string, key: string, verdict: LimitVerdict): LimitVerdict {
    if (!verdict.allowed) this.deps.abuse.note('rate limited', { bucket: name, key })
    return verdict
  }

  private forgetOld(now: number, windowMs: number): void {
    for (const [id, strike] of this.strikes) if (now - strike.since > windowMs) this.strikes.delete(id)
  }
}
