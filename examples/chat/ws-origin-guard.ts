/**
 * `wsOriginGuard`: WebSocket middleware that ignores every event from a connection whose
 * upgrade request came from an origin the policy refuses. `chatRoutes` also closes such a
 * connection as soon as it opens; this guard makes sure nothing it sent before the close
 * is acted on. Imports the framework's types only.
 */
import { noReply, type WsMiddleware } from '../../lib/index.js'
import type { OriginPolicy } from './origin-policy.js'

/** The first value of a header of a parsed request (names compared case-insensitively). */
export const requestHeader = (headers: readonly (readonly [string, string])[], name: string): string | undefined =>
  headers.find(([n]) => n.toLowerCase() === name)?.[1]

/**
 * The middleware: events of refused connections are dropped without an answer.
 *
 * @example
 * runServer({ routes, wsMiddleware: [wsOriginGuard(originPolicy([]))] })
 */
export const wsOriginGuard =
  (allowed: OriginPolicy): WsMiddleware =>
  (_message, next, ctx) =>
    allowed(requestHeader(ctx.request.headers, 'origin'), requestHeader(ctx.request.headers, 'host')) ? next() : noReply
