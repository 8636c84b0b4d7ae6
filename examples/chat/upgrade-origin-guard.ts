/**
 * `upgradeOriginGuard`: HTTP middleware that refuses a WebSocket upgrade from a page the
 * origin policy does not trust, with 403 before the handshake completes (DESIGN §5). The
 * framework's `allowedOrigins` is a fixed list; this check also knows "the page's own
 * origin", whatever host name the server was reached by. Plain requests pass untouched.
 * Imports the framework's public API only.
 */
import { errorResponse, type HttpMiddleware, isWebSocketUpgrade } from '../../lib/index.js'
import type { OriginPolicy } from './origin-policy.js'

/** The first value of a header of a parsed request (names compared case-insensitively). */
export const requestHeader = (headers: readonly (readonly [string, string])[], name: string): string | undefined =>
  headers.find(([n]) => n.toLowerCase() === name)?.[1]

/**
 * The middleware for `policy`.
 *
 * @example
 * runServer({ routes, httpMiddleware: [upgradeOriginGuard(originPolicy([]))] })
 */
export const upgradeOriginGuard =
  (allowed: OriginPolicy): HttpMiddleware =>
  (request, next) => {
    if (!isWebSocketUpgrade(request)) return next()
    const origin = requestHeader(request.headers, 'origin')
    return allowed(origin, requestHeader(request.headers, 'host')) ? next() : errorResponse(403, 'origin not allowed')
  }
