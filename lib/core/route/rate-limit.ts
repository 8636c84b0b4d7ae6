/**
 * `rateLimit`: a route with a rate limit, for an HTTP route and a WebSocket event alike (the
 * route keeps its type, so typed clients see no difference). The route's handler is wrapped:
 * it first spends a token of the route's bucket for the request's key through the server's
 * limiter (`ctx.limiter`), and a refused check answers 429 with `Retry-After` (HTTP) or the
 * `rate_limited` error event with `retryAfterMs` (WebSocket; the connection stays, unless the
 * rule's `closeAfter` says otherwise). Outside a server (no limiter) nothing is limited.
 * Pure and portable: no node:* imports.
 */
import type { Params, Request } from '../http/request.js'
import type { HttpContext } from './http-context.js'
import type { HttpRoute, SocketOnRoute } from './route.js'
import type { SocketContext } from './socket-context.js'
import { RateLimited, tooManyRequests } from '../limit/rate-limited.js'
import { bucketOf, checkRule, type EventSubject, type RateLimitRule } from './rate-limit-rule.js'
import type { LimitVerdict } from '../limit/rate-limiter.js'

const isThenable = (x: unknown): x is PromiseLike<LimitVerdict> =>
  typeof x === 'object' && x !== null && typeof (x as { readonly then?: unknown }).then === 'function'

// The verdict, then `go` with it (synchronously when the limiter answered synchronously).
const after = <R>(verdict: LimitVerdict | Promise<LimitVerdict>, go: (v: LimitVerdict) => R): R | Promise<R> =>
  isThenable(verdict) ? verdict.then(go) : go(verdict)

const limitHttp = <R extends HttpRoute>(rule: RateLimitRule<Request<Params>>, route: R): R => {
  const bucket = bucketOf(rule)
  const name = rule.name ?? `${route.method} ${route.path}`
  const key = rule.key ?? 'ip'
  const handler = route.handler
  const keyOf = (req: Request<Params>, ctx: HttpContext): string | undefined => {
    if (typeof key === 'function') return key(req)
    return ctx.limiter?.addressOf(req.http, req.remoteAddress)
  }
  const limited: HttpRoute['handler'] = (req, ctx) => {
    const limiter = ctx.limiter
    const k = limiter === undefined ? undefined : keyOf(req, ctx)
    if (limiter === undefined || k === undefined) return handler(req, ctx)
    return after(limiter.take(name, k, bucket), (v) => (v.allowed ? handler(req, ctx) : tooManyRequests(v.retryAfterMs)))
  }
  return { ...route, handler: limited }
}

const limitEvent = <R extends SocketOnRoute>(rule: RateLimitRule<EventSubject>, route: R): R => {
  const bucket = bucketOf(rule)
  const name = rule.name ?? route.event
  const key = rule.key ?? 'client'
  const handler = route.handler
  const keyOf = (data: unknown, ctx: SocketContext): string | undefined => {
    if (typeof key === 'function') return key({ data, ctx })
    if (key === 'client') return String(ctx.clientId)
    return ctx.limiter?.addressOf(ctx.request, ctx.remoteAddress)
  }
  const limited: SocketOnRoute['handler'] = (data, ctx) => {
    const limiter = ctx.limiter
    const k = limiter === undefined ? undefined : keyOf(data, ctx)
    if (limiter === undefined || k === undefined) return handler(data, ctx)
    return after(limiter.take(name, k, bucket), (v) => {
      if (v.allowed) return handler(data, ctx)
      limiter.refused(ctx.clientId, rule.closeAfter, rule.windowMs)
      throw new RateLimited(v.retryAfterMs)
    })
  }
  return { ...route, handler: limited }
}

/**
 * The route, limited by `rule`: at most `rule.limit` requests (HTTP) or events (WebSocket)
 * per `rule.windowMs` for each key, in bursts of `rule.burst` (default `limit`). The key is
 * the client's address (`'ip'`, the default for HTTP routes), the WebSocket client
 * (`'client'`, the default for events) or what a function of the request (or of the event's
 * `{ data, ctx }`) answers, a user id say. Throws a `RangeError` for a rule that makes no sense.
 *
 * The buckets are the server's: in memory, or in Redis across the cluster when the server's
 * `cluster` is the Redis adapter (docs/decisions.md "Rate limits").
 *
 * @example
 * const login = rateLimit({ limit: 5, windowMs: 60_000 }, httpRoute('POST', '/login', () => ({ ok: true })))
 * const chat = rateLimit({ limit: 10, windowMs: 1000, closeAfter: 50 }, socketOn('chat', (text, ctx) => ctx.broadcast('chat', text)))
 * const byUser = rateLimit({ limit: 100, windowMs: 60_000, key: ({ ctx }) => String(ctx.getClientData('user')) }, socketOn('save', () => true))
 */
export function rateLimit<R extends HttpRoute>(rule: RateLimitRule<Request<Params>>, route: R): R
export function rateLimit<R extends SocketOnRoute>(rule: RateLimitRule<EventSubject>, route: R): R
export function rateLimit(rule: RateLimitRule<never>, route: HttpRoute | SocketOnRoute): HttpRoute | SocketOnRoute {
  const problem = checkRule(rule)
  if (problem !== undefined) throw new RangeError(`rateLimit: ${problem}`)
  // The overloads pair each route kind with the rule of its subject.
  return route._tag === 'HttpRoute' ? limitHttp(rule as RateLimitRule<Request<Params>>, route) : limitEvent(rule as RateLimitRule<EventSubject>, route)
}
