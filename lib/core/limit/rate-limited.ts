/**
 * What a refused check answers: `tooManyRequests` (HTTP 429 with `Retry-After`) and
 * `RateLimited` (thrown out of an event handler, answered as the `rate_limited` error event
 * with `retryAfterMs`). Pure and portable: no node:* imports.
 */
import { errorResponse } from '../http/response.js'
import type { Response } from '../http/types.js'

/**
 * 429 Too Many Requests (RFC 6585 §4), body `{"error":"too_many_requests"}`, with `Retry-After` in whole seconds (RFC 9110 §10.2.3:
 * the field has no finer unit, so it is rounded up, at least 1).
 *
 * @example
 * tooManyRequests(1500).headers // [['Retry-After', '2']]
 */
export const tooManyRequests = (retryAfterMs: number): Response =>
  errorResponse(429, 'too_many_requests', { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) })

/**
 * Thrown by a rate-limited event handler when its check is refused; the dispatch answers
 * `{"event":"error","data":{"error":"rate_limited","message":…,"retryAfterMs":N}}` (with the
 * request's id) and the connection stays.
 *
 * @example
 * new RateLimited(250).retryAfterMs // 250
 */
export class RateLimited extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`rate limit exceeded: retry in ${retryAfterMs} ms`)
    this.name = 'RateLimited'
  }
}
