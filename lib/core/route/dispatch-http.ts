/**
 * `dispatchHttp`: one parsed request to a Response, through the HTTP middleware, the CORS
 * preflight, the router and the handler (DESIGN §2, §5). Never rejects: a thrown error or
 * rejected promise anywhere becomes 500 `{"error":"Internal Server Error"}` and is
 * reported. Pure and portable: no node:* imports, no timers.
 */
import { makeRequest } from '../http/request.js'
import { errorResponse, isResponse, json, noContent } from '../http/response.js'
import { withHeader } from '../http/response-updates.js'
import type { HttpRequest, Json, Response } from '../http/types.js'
import { composeHttp } from '../middleware/compose-http.js'
import type { HttpMiddleware } from '../middleware/http-middleware.js'
import type { CompiledRoutes } from './compiled-routes.js'
import type { HttpContext } from './http-context.js'
import { inertHttpContext } from './inert-http-context.js'
import { matchRoute } from './match-route.js'

/** The CORS step as two functions resolved once from the configuration (see `applyCors`). */
export interface CorsHooks {
  /** The answer to a preflight request, or `undefined` when `req` is not one. */
  preflight(req: HttpRequest): Response | undefined
  /** Adds the CORS headers this request earns to the final response. */
  apply(req: HttpRequest, res: Response): Response
}

export interface HttpDispatchOptions {
  /** Runs around everything (routing, 404/405, preflights), first element outermost. */
  readonly middleware?: readonly HttpMiddleware[]
  readonly cors?: CorsHooks
  /** Server operations for handlers and middleware; an inert one when absent. */
  readonly context?: HttpContext
  /** Told about every thrown error or rejection (with its stack, when an Error). Must not throw. */
  readonly onError?: (error: unknown, request: HttpRequest) => void
}

const internalError = (): Response => errorResponse(500, 'Internal Server Error')

// A handler may answer a Response, a plain value for json(), nothing (204), or a promise of those.
const toResponse = (result: unknown): Response => {
  if (isResponse(result)) return result
  if (result === undefined) return noContent()
  return json(result as Json)
}

/**
 * Answers `http`. Inside the middleware: the CORS preflight (when `cors` is given and the
 * request is one), else the route: 404 `{"error":"Not Found"}`, 405 with `Allow`, 400 for
 * a param that does not percent-decode, or the handler's answer (HEAD runs the GET route;
 * the serializer drops the body). Outside the middleware: `cors.apply` on every response.
 *
 * @example
 * const res = await dispatchHttp(compiled, request, { middleware: [logRequests], cors, context, onError })
 */
export const dispatchHttp = async (compiled: CompiledRoutes, http: HttpRequest, options: HttpDispatchOptions = {}): Promise<Response> => {
  const ctx = options.context ?? inertHttpContext
  const report = (error: unknown, request: HttpRequest): void => {
    try {
      options.onError?.(error, request)
    } catch {
      // A broken hook must not turn a reported failure into a rejection.
    }
  }
  const target = async (request: HttpRequest, context: HttpContext): Promise<Response> => {
    try {
      const preflight = options.cors?.preflight(request)
      if (preflight !== undefined) return preflight
      const match = matchRoute(compiled, request.method, request.path)
      switch (match._tag) {
        case 'RouteNotFound':
          return errorResponse(404, 'Not Found')
        case 'MethodNotAllowed':
          return withHeader(errorResponse(405, 'Method Not Allowed'), 'Allow', match.allow.join(', '))
        case 'MalformedParam':
          return errorResponse(400, 'Bad Request')
        case 'RouteFound':
          return toResponse(await match.route.handler(makeRequest(request, match.params), context))
      }
    } catch (error) {
      report(error, request)
      return internalError()
    }
  }
  let res: Response
  try {
    res = await composeHttp(options.middleware ?? [])(http, ctx, target)
  } catch (error) {
    report(error, http)
    res = internalError()
  }
  if (options.cors === undefined) return res
  try {
    return options.cors.apply(http, res)
  } catch (error) {
    report(error, http)
    return internalError()
  }
}
