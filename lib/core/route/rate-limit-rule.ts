/**
 * `RateLimitRule`: what a route's or an event's rate limit says (how many, per how long,
 * keyed by what), and `bucketOf`, the token bucket it describes. Types and pure functions.
 * Pure and portable: no node:* imports.
 */
import type { Request } from '../http/request.js'
import type { Params } from '../http/request.js'
import type { SocketContext } from './socket-context.js'
import type { BucketRule } from '../limit/take-token.js'

/**
 * Whose requests share a bucket:
 * - `'ip'`: the client's address (the socket's peer, or behind trusted proxies the address
 *   they saw: the server's `trustedProxies` option);
 * - `'client'`: a WebSocket client's id (HTTP requests have none: their address is used);
 * - a function: a key the application computes (a user id from the client data or a token),
 *   `undefined` to let the request or event through unchecked.
 */
export type RateLimitKey<Subject> = 'ip' | 'client' | ((subject: Subject) => string | undefined)

/** The subject a key function reads: an HTTP route's request, or an event's data and context. */
export interface EventSubject {
  readonly data: unknown
  readonly ctx: SocketContext
}

/**
 * `limit` checks per `windowMs` for each key, in bursts of `burst` at most (default `limit`):
 * a token bucket of `burst` tokens refilled by `limit` every `windowMs`.
 */
export interface RateLimitRule<Subject = Request<Params> | EventSubject> {
  readonly limit: number
  readonly windowMs: number
  /** The bucket's size; `limit` by default (the whole window's allowance may come at once). */
  readonly burst?: number
  /** Whose requests share a bucket; `'ip'` for HTTP routes, `'client'` for events by default. */
  readonly key?: RateLimitKey<Subject>
  /**
   * The bucket's name, so that several routes can share one bucket (give them the same name);
   * by default the route's own (`GET /path`, or the event name).
   */
  readonly name?: string
  /**
   * WebSocket only: a client refused this many times within one `windowMs` is closed with
   * 1008 (policy violation). Absent: refusals never close the connection.
   */
  readonly closeAfter?: number
}

/**
 * The token bucket a rule describes.
 *
 * @example
 * bucketOf({ limit: 10, windowMs: 1000 }) // { intervalMs: 100, burst: 10 }
 */
export const bucketOf = (rule: Pick<RateLimitRule, 'limit' | 'windowMs' | 'burst'>): BucketRule => ({
  intervalMs: rule.windowMs / rule.limit,
  burst: rule.burst ?? rule.limit,
})

/**
 * What is wrong with a rule, or `undefined` when it is sound (positive finite numbers, a
 * burst of at least one token, `closeAfter` a positive integer).
 *
 * @example
 * checkRule({ limit: 0, windowMs: 1000 }) // 'limit must be a positive number'
 */
export const checkRule = (rule: RateLimitRule<never>): string | undefined => {
  const positive = (n: number): boolean => Number.isFinite(n) && n > 0
  if (!positive(rule.limit)) return 'limit must be a positive number'
  if (!positive(rule.windowMs)) return 'windowMs must be a positive number'
  if (rule.burst !== undefined && !(Number.isFinite(rule.burst) && rule.burst >= 1)) return 'burst must be at least 1'
  if (rule.closeAfter !== undefined && !(Number.isInteger(rule.closeAfter) && rule.closeAfter > 0)) return 'closeAfter must be a positive integer'
  return undefined
}
