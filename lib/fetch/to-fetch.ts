/**
 * `toFetch(options)`: a route table's HTTP side as a web-standard fetch handler,
 * `(request: Request) => Response | Promise<Response>`, for every host that speaks it: `Bun.serve`,
 * `Deno.serve`, Cloudflare Workers, a Hono app (DESIGN §8). It is the engine's own dispatch
 * (`EmbeddedHttp`), reached without a socket: the same routes, middleware, CORS, body limits
 * (a route's `maxBody` too; 413 past them) and error answers as `runServer`. A route declared
 * `{ body: 'stream' }` reads `request.body` as it arrives; a `stream(...)` answer becomes the
 * Response's `ReadableStream`, its source cancelled when the consumer cancels; `req.signal`
 * follows `request.signal` (and the stream's cancellation). An event stream (`sseRoute`) is a
 * client of the registry whose events the Response's stream carries (`withPullOutlets`). No
 * timer is started at creation.
 * WebSocket upgrades are not served here: one to a path no route answers gets 501 (`runServer`
 * serves them); a routed request is answered by its route, its `Upgrade` ignored (docs/decisions.md).
 *
 * Portable: no node:* imports, no Buffer, no process (it runs in Workers).
 */
import type { BodyStream, ExchangeOwner } from '../core/http/body-stream.js'
import type { HeaderLookup } from '../core/http/request-header.js'
import type { StaticFiles } from '../core/http/static/static-files.js'
import type { HttpRequest } from '../core/http/types.js'
import { httpErrorResponse } from '../core/http/http-error-response.js'
import { errorResponse } from '../core/http/response.js'
import { createEngine } from '../engine/create-engine.js'
import { withPullOutlets } from '../engine/http/pull-outlet.js'
import { bodyTooLarge } from '../core/http/http-error.js'
import { hostBodyStream, type HostBody } from '../engine/http/host-body.js'
import type { ServerOptions } from '../engine/options/server-options.js'
import type { ServerHandle } from '../engine/server-handle.js'
import { fetchPlatform } from './fetch-platform.js'
import { httpRequestOfWeb, piecesOf, type Target, targetOf } from './web-request.js'
import { type HostKind, hostKindOf, textResponder } from './text-responder.js'
import { type ResponseContext, webResponseOf } from './web-response.js'

/** The options of `toFetch`: the server's options (the host owns `host`, `port` and `tls`), and where other requests go. */
export interface FetchOptions extends Omit<ServerOptions, 'host' | 'port' | 'tls'> {
  /**
   * Answers the requests the route table does not (no route for the method and path, and not
   * a preflight to one of its paths), e.g. the rest of a Hono app. Absent: they get the
   * table's 404, or 405 with `Allow`, as from `runServer` (the HTTP middleware runs for those).
   */
  readonly fallback?: (request: Request) => Response | Promise<Response>
  /**
   * How `serveStatic` reads files: the host brings no file system of its own, so without this
   * option every `serveStatic` request is answered 500 `static_files_unavailable`. Under
   * `Bun.serve` and `Deno.serve`, `nodeFiles` (from `twinport`, `twinport/bun` or `twinport/deno`).
   */
  readonly files?: StaticFiles
}

/**
 * A fetch handler: call it with a `Request`, get the `Response`. It also carries the
 * `ServerHandle` operations of its app (what HTTP handlers reach through their context;
 * with a `cluster` adapter, a broadcast reaches the WebSocket clients of the other nodes).
 */
export interface FetchHandler extends Omit<ServerHandle, 'address' | 'setSecureContext'> {
  /** The Response, at once when every step gave it at once (no middleware, a handler that returned a value), else a promise. */
  (request: Request): Response | Promise<Response>
  /** Stops the app: requests after it get 503; the cluster adapter, if any, is left. */
  close(): Promise<void>
}

const EMPTY = new Uint8Array(0)
const NO_PIECES: HostBody = { [Symbol.asyncIterator]: async function* () {} }

// The body's length as its `Content-Length` announces it (none with a `Transfer-Encoding`).
const declaredLength = (http: HeaderLookup): number | undefined => {
  const value = http.headerOf('content-length')
  if (value === undefined || http.headerOf('transfer-encoding') !== undefined) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

// One `get` on the host's headers, asked only of a request no route answers (RFC 9110 §7.8 lets
// a server ignore `Upgrade`; a routed request is answered by its route whatever it asks).
const isWebSocketUpgrade = (request: Request): boolean => request.headers.get('upgrade')?.toLowerCase() === 'websocket'

// One exchange's signal, made only when a handler reads `req.signal`: it follows the host's
// `request.signal`, and is aborted when the consumer cancels the streamed answer.
class Exchange implements ExchangeOwner {
  private controller: AbortController | undefined
  private reason: string | undefined

  constructor(
    private readonly request: Request,
    private readonly body: BodyStream | undefined,
  ) {}

  signalOf(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController()
      this.controller = controller
      if (this.reason !== undefined) controller.abort(new Error(this.reason))
      else {
        const host = this.request.signal
        if (host.aborted) controller.abort(host.reason)
        else host.addEventListener('abort', () => controller.abort(host.reason), { once: true })
      }
    }
    return this.controller.signal
  }

  bodyOf(): BodyStream | undefined {
    return this.body
  }

  readonly cancelled = (reason: string): void => {
    this.reason ??= reason
    this.controller?.abort(new Error(reason))
  }
}

/**
 * What the runtime hosting a `toFetch` handler allows (set by twinport's own wrappers, not an
 * application option): `eventStreams: false` where one process does not keep the requests it
 * answers (Workers: a stream would live in one isolate, out of reach of the hubs' broadcasts),
 * so an admitted event stream is answered 501 instead of held.
 */
export interface FetchHost {
  readonly eventStreams?: boolean
  /** How the common answer is built (`textResponder`): by default the runtime's own way (`hostKindOf`). */
  readonly responses?: HostKind
}

/**
 * The fetch handler of `options`. Throws an Error naming every bad option or route-table
 * problem, as `runServer` rejects.
 *
 * @example
 * const app = toFetch({ routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
 * Bun.serve({ fetch: app })            // or Deno.serve(app), or export default { fetch: app } on Workers
 * const res = await app(new Request('http://localhost/hello')) // 200 {"hello":"world"}
 */
export const toFetch = (options: FetchOptions = {}, host: FetchHost = {}): FetchHandler => {
  const { fallback, files, ...serverOptions } = options
  if (fallback !== undefined && typeof fallback !== 'function') throw new Error('toFetch: invalid options\n  fallback: expected a function')
  if (files !== undefined && (typeof files?.stat !== 'function' || typeof files?.read !== 'function')) throw new Error('toFetch: invalid options\n  files: expected { stat, read } (nodeFiles)')
  // Event streams are clients of the registry whose bytes the Response's stream pulls
  // (pull-outlet.ts), where the host keeps its requests in one process.
  const platform = files === undefined ? fetchPlatform : { ...fetchPlatform, files }
  const engine = createEngine(serverOptions, host.eventStreams === false ? platform : withPullOutlets(platform))
  const { embedded } = engine
  // The dispatch, the clock, and how this host's Response is built cheapest (one per app).
  const app: ResponseContext = { embedded, now: fetchPlatform.timers.now, text: textResponder(host.responses ?? hostKindOf()) }
  // Application middleware may copy the request with a spread: its headers must then be an own property.
  const spreadable = (serverOptions.httpMiddleware?.length ?? 0) > 0
  const httpOf = (request: Request, target: Target): HttpRequest & HeaderLookup => httpRequestOfWeb(request, target, EMPTY, spreadable)

  // The answer to `request`: synchronous when the dispatch's is (no middleware, a handler that
  // returned a value), else a promise; a throw is the caller's to turn into a rejection.
  const answerOf = (request: Request): Response | Promise<Response> => {
    const method = request.method
    const target = targetOf(request.url)
    if (embedded.draining()) return webResponseOf(errorResponse(503, 'unavailable'), httpOf(request, target), app, () => undefined)
    // What no route answers goes to the fallback; without one, a WebSocket upgrade among it is
    // told 501 (the WebSocket path: toFetch cannot upgrade), the rest gets the table's 404/405.
    // A routed request reads no header here (docs/decisions.md, "Upgrade is read only where no route answers").
    if (!embedded.claims(method, target.path)) {
      if (fallback !== undefined) return fallback(request)
      if (isWebSocketUpgrade(request)) return webResponseOf(errorResponse(501, 'websocket_not_served'), httpOf(request, target), app, () => undefined)
    }
    // The request's headers stay in the host's `Headers`: read by name when a step asks for one.
    const http = httpOf(request, target)
    // A GET or HEAD has no body (the Fetch standard refuses one); not asking spares hosts whose
    // Request is lazy (@hono/node-server) from building the real one for nothing.
    if (method === 'GET' || method === 'HEAD') {
      const plan = embedded.planOf(method, target.path)
      const exchange = new Exchange(request, plan.stream ? hostBodyStream(NO_PIECES, plan.maxBody, declaredLength(http)) : undefined)
      const answer = embedded.respondNow(http, exchange)
      return answer instanceof Promise ? answer.then((a) => webResponseOf(a, http, app, exchange.cancelled)) : webResponseOf(answer, http, app, exchange.cancelled)
    }
    return answerWithBody(request, http)
  }

  const answerWithBody = async (request: Request, http: HttpRequest & HeaderLookup): Promise<Response> => {
    const plan = embedded.planOf(http.method, http.path)
    const length = declaredLength(http)
    const source = request.body
    // Refused by its Content-Length before anything runs (as runServer): the host is told the body is not wanted.
    if (source !== null && length !== undefined && length > plan.maxBody) {
      void source.cancel().catch(() => undefined)
      return webResponseOf(httpErrorResponse(bodyTooLarge(plan.maxBody)), http, app, () => undefined)
    }
    // As runServer: the middleware and the router run on the head; the body is read when the
    // route asks for it (whole for a route that takes it whole, through the dispatch).
    const stream = plan.stream || source !== null ? hostBodyStream(source === null ? NO_PIECES : piecesOf(source), plan.maxBody, length) : undefined
    const exchange = new Exchange(request, stream)
    const answer = await embedded.respondNow(http, exchange)
    // Refused before its body was read: the host is told it is not wanted.
    if (!plan.stream && source !== null && !source.locked && !request.bodyUsed) void source.cancel().catch(() => undefined)
    return webResponseOf(answer, http, app, exchange.cancelled)
  }

  // The Response itself when it is ready (as Hono's `app.fetch`): a promise per request costs
  // Bun.serve and Deno.serve a turn of their own.
  const fetch = (request: Request): Response | Promise<Response> => {
    try {
      return answerOf(request)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  return Object.assign(fetch, { ...engine.handle, close: () => engine.handle.close() })
}
