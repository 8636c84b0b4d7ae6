/**
 * `originGuard`: HTTP middleware that refuses, with 403, what a page of another site could do
 * as the user's browser: a WebSocket upgrade (before the handshake completes, DESIGN §5), an
 * event stream (`Accept: text/event-stream`, the chat's fallback transport) and every write
 * (any method but GET, HEAD and OPTIONS), when the origin policy does not trust its `Origin`.
 * The framework's `allowedOrigins` is a fixed list; this check also knows "the page's own
 * origin", whatever host name the server was reached by. It runs before any route, so a
 * cross-site post is refused before its body is read or checked. Reads pass untouched.
 * Imports the framework's public API only.
 */
import { errorResponse, type HttpMiddleware, type HttpRequest, isWebSocketUpgrade } from '../../lib/index.js'
import type { OriginPolicy } from './origin-policy.js'

/** The first value of a header of a parsed request (names compared case-insensitively). */
export const requestHeader = (headers: readonly (readonly [string, string])[], name: string): string | undefined =>
  headers.find(([n]) => n.toLowerCase() === name)?.[1]

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

// What another site's page must not do in the user's name.
const isGuarded = (request: HttpRequest): boolean =>
  !READS.has(request.method) || isWebSocketUpgrade(request) || (requestHeader(request.headers, 'accept') ?? '').includes('text/event-stream')

/**
 * The middleware for `policy`.
 *
 * @example
 * runServer({ routes, httpMiddleware: [originGuard(originPolicy([]))] })
 */
export const originGuard =
  (allowed: OriginPolicy): HttpMiddleware =>
  (request, next) => {
    if (!isGuarded(request)) return next()
    const origin = requestHeader(request.headers, 'origin')
    return allowed(origin, requestHeader(request.headers, 'host')) ? next() : errorResponse(403, 'origin not allowed')
  }
