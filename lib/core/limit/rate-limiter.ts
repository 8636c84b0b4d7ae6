/**
 * `RateLimiter`: the port a server gives rate-limited routes through their context (HTTP and
 * WebSocket alike): it keeps the buckets (in memory, or cluster-wide in Redis), resolves a
 * client's address behind trusted proxies, and closes a client refused too often. The core
 * only calls it; the engine implements it. Types only. Pure and portable: no node:* imports.
 */
import type { HttpRequest } from '../http/types.js'
import type { BucketRule } from './take-token.js'

/** One check's answer. */
export interface LimitVerdict {
  readonly allowed: boolean
  /** When refused: milliseconds until the same check would pass. */
  readonly retryAfterMs: number
  /** Whole tokens left. */
  readonly remaining: number
}

export interface RateLimiter {
  /**
   * Spends a token of bucket `name` for `key` (its own bucket per key). Synchronous in
   * memory; a promise when the buckets are in a shared store (never rejects: a store that
   * cannot answer lets the check pass, and the server logs it once per window).
   */
  take(name: string, key: string, rule: BucketRule): LimitVerdict | Promise<LimitVerdict>
  /**
   * WebSocket client `clientId` was just refused: closed with 1008 once this is its
   * `closeAfter`-th refusal within `windowMs` (never when `closeAfter` is absent).
   */
  refused(clientId: number, closeAfter: number | undefined, windowMs: number): void
  /**
   * The client's address: `peer` (the socket's), or, when the server trusts proxies in front
   * of it, the address the outermost trusted proxy saw (from `X-Forwarded-For`).
   */
  addressOf(request: HttpRequest, peer: string | undefined): string | undefined
}
