/**
 * `dispatchHttp`: one parsed request to a Response, through the HTTP middleware, the CORS
 * preflight, the router and the handler (DESIGN §2, §5). Never rejects: a thrown error or
 * rejected promise anywhere becomes 500 `{"error":"internal_error"}` and is
 * reported (`settle-answer.ts`). Pure and portable: no node:* imports, no timers.
 *
 * Hot path: with no middleware nothing is composed, and a handler that answers synchronously
 * is answered synchronously (`dispatchHttpNow`): no promise and no closure per request. A
 * server composes its middleware once (`composeHttp`) and passes the `stack` and its own
 * route memo (`createRouteMemo`); nothing is kept here between calls.
 */
import type { BodyStream, ExchangeOwner } from '../http/body-stream.js'
import { decodeBody } from '../http/decompress/decode-body.js'
import type { HttpDecoder, RequestCoding } from '../http/decompress/http-decoder.js'
import { planDecoding } from '../http/decompress/plan-decoding.js'
import { httpErrorResponse } from '../http/http-error-response.js'
import { bodyStreamOf } from '../http/in-process-exchange.js'
import { makeRequest, type Params } from '../http/request.js'
import { errorResponse } from '../http/response.js'
import { withHeader } from '../http/response-updates.js'
import type { HttpRequest, Response } from '../http/types.js'
import { composeHttp, type HttpStack } from './compose-http.js'
import type { HttpMiddleware } from './http-middleware.js'
import type { CompiledRoutes } from './compiled-routes.js'
import type { HttpRoute } from './route.js'
import type { HttpContext } from './http-context.js'
import { inertHttpContext } from './inert-http-context.js'
import { createRouteMemo, matchRoute, matchStatic, type RouteMemo } from './match-route.js'
import { failedAnswer, internalError, reportError, settleAnswer } from './settle-answer.js'

/** The CORS step as two functions resolved once from the configuration (see `applyCors`). */
export interface CorsHooks {
  /** The answer to a preflight request, or `undefined` when `req` is not one. */
  preflight(req: HttpRequest): Response | undefined
  /** Adds the CORS headers this request earns to the final response. */
  apply(req: HttpRequest, res: Response): Response
}

export interface HttpDispatchOptions {
  /**
   * Runs around everything (routing, 404/405, preflights), first element outermost; composed
   * on each call: a server passes `stack` instead.
   */
  readonly middleware?: readonly HttpMiddleware[]
  /** The middleware composed once (`composeHttp`); used instead of `middleware` when given. */
  readonly stack?: HttpStack
  /** The server's route memo (`createRouteMemo`); a fresh one per call when absent. */
  readonly memo?: RouteMemo
  readonly cors?: CorsHooks
  /** Server operations for handlers and middleware; an inert one when absent. */
  readonly context?: HttpContext
  /** Told about every thrown error or rejection (with its stack, when an Error). Must not throw. */
  readonly onError?: (error: unknown, request: HttpRequest) => void
  /**
   * The runtime's decoders for request bodies of routes declared with `decompress`, and the
   * server's `limits.maxBody` (the decoded size's limit for a route without its own). Absent:
   * such a route refuses an encoded body with 415, as if the runtime decoded nothing.
   */
  readonly decoding?: RequestDecoding
}

/** What the dispatch decodes request bodies with (`HttpDispatchOptions.decoding`). */
export interface RequestDecoding {
  readonly decoder: HttpDecoder | undefined
  readonly maxBody: number
}

const NO_OPTIONS: HttpDispatchOptions = Object.freeze({})

// The route's handler on the request with its body whole, once `body` has been read (a body
// that cannot be read is the client's fault, answered by `settleAnswer`).
const runWhole = (
  route: HttpRoute,
  http: HttpRequest,
  body: Promise<Uint8Array>,
  params: Params,
  ctx: HttpContext,
  options: HttpDispatchOptions,
  owner: ExchangeOwner | undefined,
  exchange: number,
  request: HttpRequest,
): Response | Promise<Response> =>
  // `headers` named: a request's may be a getter (compactRequest, toFetch's view), which a spread leaves behind.
  settleAnswer(body.then((bytes) => route.handler(makeRequest({ ...http, headers: http.headers, body: bytes }, params, owner, exchange, false), ctx)), options.onError, request)

const NO_PARAMS: Params = Object.freeze({})
const EMPTY_BODY = new Uint8Array(0)
const NO_CODINGS: readonly RequestCoding[] = Object.freeze([])

// The headers the handler of a decoded body sees: those of the representation it gets, which
// has no content coding and a length no header announced.
const decodedHeaders = (request: HttpRequest): HttpRequest['headers'] =>
  request.headers.filter(([name]) => {
    const lower = name.toLowerCase()
    return lower !== 'content-encoding' && lower !== 'content-length'
  })

// A body in content codings, decoded as the handler reads it (`decompress`, RFC 9110 §8.4):
// whole for a route that takes it whole, else as the stream the handler's request reads.
const runDecoded = (
  route: HttpRoute,
  request: HttpRequest,
  params: Params,
  ctx: HttpContext,
  options: HttpDispatchOptions,
  owner: ExchangeOwner | undefined,
  exchange: number,
  held: BodyStream | undefined,
  codings: readonly RequestCoding[],
): Response | Promise<Response> => {
  const decoding = options.decoding as RequestDecoding
  const source = held ?? bodyStreamOf([request.body], request.body.length)
  const body = decodeBody(source, codings, decoding.decoder as HttpDecoder, route.maxBody ?? decoding.maxBody)
  const http: HttpRequest = { ...request, headers: decodedHeaders(request), body: EMPTY_BODY }
  if (route.body !== 'stream') return runWhole(route, http, body.bytes(), params, ctx, options, owner, exchange, request)
  const decoded: ExchangeOwner = {
    signalOf: (n) => owner?.signalOf(n) ?? new AbortController().signal,
    bodyOf: () => body,
    remoteAddress: () => owner?.remoteAddress?.(),
    traceOf: (n) => owner?.traceOf?.(n),
  }
  return settleAnswer(route.handler(makeRequest(http, params, decoded, exchange, true), ctx), options.onError, request)
}

// The route's handler on its Request. A route that takes its body whole, on a server that held
// the body back from the middleware (it had not all arrived with the head, or a middleware
// runs), reads it now: the request got past the middleware and the router, so this is where
// the body is wanted (`Expect: 100-continue` is answered here). The handler gets the body
// whole, as if it had come with the head; a body that cannot be read is the client's fault
// (413 past the route's limit, 400 cut off), answered by `settleAnswer`.
const run = (
  route: HttpRoute,
  request: HttpRequest,
  params: Params,
  ctx: HttpContext,
  options: HttpDispatchOptions,
  owner: ExchangeOwner | undefined,
  exchange: number,
): Response | Promise<Response> => {
  const streamed = route.body === 'stream'
  const held = owner?.bodyOf(exchange)
  // Only a request with a body is looked at for a content coding (one header scan).
  if (held !== undefined || request.body.length > 0) {
    const plan = planDecoding(request.headers, route.decompress, options.decoding?.decoder?.codings ?? NO_CODINGS)
    if (plan._tag === 'Refuse') return httpErrorResponse(plan.error)
    if (plan._tag === 'Decode') return runDecoded(route, request, params, ctx, options, owner, exchange, held, plan.codings)
  }
  // A body is held only by an owner.
  if (!streamed && held !== undefined) return runWhole(route, request, held.bytes(), params, ctx, options, owner, exchange, request)
  return settleAnswer(route.handler(makeRequest(request, params, owner, exchange, streamed), ctx), options.onError, request)
}

// The innermost step: the preflight or the route. Errors become a reported 500 here, inside
// the middleware, so a middleware sees the 500 like any other answer.
const answer = (
  compiled: CompiledRoutes,
  request: HttpRequest,
  ctx: HttpContext,
  options: HttpDispatchOptions,
  memo: RouteMemo,
  owner: ExchangeOwner | undefined,
  exchange: number,
): Response | Promise<Response> => {
  try {
    const preflight = options.cors?.preflight(request)
    if (preflight !== undefined) return preflight
    // A static route, as the path came: found without a match record.
    const endpoint = matchStatic(compiled, request.method, request.path, memo)
    if (endpoint !== undefined) {
      owner?.routed?.(exchange, endpoint.route.path)
      return run(endpoint.route, request, NO_PARAMS, ctx, options, owner, exchange)
    }
    const match = matchRoute(compiled, request.method, request.path, memo)
    switch (match._tag) {
      case 'RouteNotFound':
        return errorResponse(404, 'not_found')
      case 'MethodNotAllowed':
        return withHeader(errorResponse(405, 'method_not_allowed'), 'Allow', match.allow.join(', '))
      case 'MalformedParam':
        return errorResponse(400, 'invalid_path_encoding')
      case 'RouteFound':
        owner?.routed?.(exchange, match.route.path)
        return run(match.route, request, match.params, ctx, options, owner, exchange)
    }
  } catch (error) {
    return failedAnswer(error, options.onError, request)
  }
}

const throughMiddleware = (
  compiled: CompiledRoutes,
  http: HttpRequest,
  ctx: HttpContext,
  options: HttpDispatchOptions,
  memo: RouteMemo,
  stack: HttpStack,
  owner: ExchangeOwner | undefined,
  exchange: number,
): Promise<Response> =>
  stack(http, ctx, (request, context) => answer(compiled, request, context, options, memo, owner, exchange)).then(undefined, (error: unknown) => {
    reportError(options.onError, error, http)
    return internalError()
  })

const withCors = (options: HttpDispatchOptions, http: HttpRequest, res: Response): Response => {
  const cors = options.cors
  if (cors === undefined) return res
  try {
    return cors.apply(http, res)
  } catch (error) {
    reportError(options.onError, error, http)
    return internalError()
  }
}

/**
 * Answers `http`. Inside the middleware: the CORS preflight (when `cors` is given and the
 * request is one), else the route: 404 `{"error":"not_found"}`, 405
 * `{"error":"method_not_allowed"}` with `Allow`, 400 `{"error":"invalid_path_encoding"}` for
 * a param that does not percent-decode (the codes serveStatic answers too), or the handler's answer (HEAD runs the GET route;
 * the serializer drops the body). Outside the middleware: `cors.apply` on every response.
 *
 * The answer comes back synchronously when every step gave it synchronously (no middleware
 * and a handler that returned a value), else as a promise that never rejects. A server
 * writes a synchronous answer in the same turn, with no promise or microtask per request.
 *
 * A server passes itself as `owner` with the exchange's number: the handler's Request then
 * reads the exchange's signal and streamed body from it.
 *
 * @example
 * const res = dispatchHttpNow(compiled, request, { cors, context, onError })
 * const answered = res instanceof Promise ? await res : res
 */
export const dispatchHttpNow = (
  compiled: CompiledRoutes,
  http: HttpRequest,
  options: HttpDispatchOptions = NO_OPTIONS,
  owner?: ExchangeOwner,
  exchange = 0,
): Response | Promise<Response> => {
  const ctx = options.context ?? inertHttpContext
  const memo = options.memo ?? createRouteMemo()
  const middleware = options.middleware
  const stack = options.stack ?? (middleware === undefined || middleware.length === 0 ? undefined : composeHttp(middleware))
  const res =
    stack === undefined ? answer(compiled, http, ctx, options, memo, owner, exchange) : throughMiddleware(compiled, http, ctx, options, memo, stack, owner, exchange)
  if (res instanceof Promise) return res.then((r: Response) => withCors(options, http, r))
  return withCors(options, http, res)
}

/**
 * `dispatchHttpNow`, always as a promise (which never rejects). In process, `exchangeOf({ body })`
 * as `owner` gives a route declared `{ body: 'stream' }` its body.
 *
 * @example
 * const res = await dispatchHttp(compiled, request, { middleware: [logRequests], cors, context, onError })
 */
export const dispatchHttp = (
  compiled: CompiledRoutes,
  http: HttpRequest,
  options: HttpDispatchOptions = NO_OPTIONS,
  owner?: ExchangeOwner,
  exchange = 0,
): Promise<Response> => {
  const res = dispatchHttpNow(compiled, http, options, owner, exchange)
  return res instanceof Promise ? res : Promise.resolve(res)
}
