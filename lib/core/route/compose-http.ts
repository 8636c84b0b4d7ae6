/** `composeHttp`: an HTTP middleware stack around a request target. Pure and portable. */
import type { HttpRequest, Response } from '../http/types.js'
import type { HttpContext } from './http-context.js'
import { compose } from '../middleware/compose.js'
import type { HttpMiddleware } from './http-middleware.js'

/** The composed stack: the request, the server context and the innermost target. */
export type HttpStack = (
  request: HttpRequest,
  ctx: HttpContext,
  target: (request: HttpRequest, ctx: HttpContext) => Response | Promise<Response>,
) => Promise<Response>

/**
 * Composes in onion order: `stack[0]` sees the request first and the response last.
 *
 * @example
 * const run = composeHttp([logRequests, requireToken])
 * const response = await run(request, ctx, (req) => route(req))
 */
export const composeHttp = (stack: readonly HttpMiddleware[]): HttpStack => compose(stack)
