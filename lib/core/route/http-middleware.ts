/**
 * The HTTP middleware signature (the seed leaves it open, §4.1). Types only.
 * Pure and portable: no node:* imports.
 */
import type { HttpRequest, Response } from '../http/types.js'
import type { HttpContext } from './http-context.js'
import type { Next } from '../middleware/compose.js'

/**
 * `(request, next, ctx) => response`. Runs around every request: matched routes,
 * 404s, 405s and CORS preflights alike, so authentication and logging see them all.
 * To go on: `return next()`, or `next({ ...request, headers })` to change what the rest
 * (routing included) sees; the response of `next` can be changed on its way out. To
 * answer early: return a Response without calling `next`. Throwing or rejecting gives 500.
 * On a server it runs on the request's head: `request.body` is empty, and the body is read
 * (for the handler) only once the middleware has let the request through.
 *
 * @example
 * const requireToken: HttpMiddleware = (req, next) =>
 *   req.headers.some(([name]) => name.toLowerCase() === 'authorization') ? next() : errorResponse(401, 'Unauthorized')
 */
export type HttpMiddleware = (
  request: HttpRequest,
  next: Next<HttpRequest, Response>,
  ctx: HttpContext,
) => Response | Promise<Response>
