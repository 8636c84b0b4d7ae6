/**
 * `toFetch(options)`: a route table's HTTP side as a web-standard fetch handler,
 * `(request: Request) => Promise<Response>`, for every host that speaks it: `Bun.serve`,
 * `Deno.serve`, Cloudflare Workers, a Hono app (DESIGN §8). It is the engine's own dispatch
 * (`EmbeddedHttp`), reached without a socket: the same routes, middleware, CORS, body limits
 * (a route's `maxBody` too; 413 past them) and error answers as `runServer`. A route declared
 * `{ body: 'stream' }` reads `request.body` as it arrives; a `stream(...)` answer becomes the
 * Response's `ReadableStream`, its source cancelled when the consumer cancels; `req.signal`
 * follows `request.signal` (and the stream's cancellation). No timer is started at creation.
 * WebSocket upgrades are not served here (501): `runServer` serves them (docs/decisions.md).
 *
 * Portable: no node:* imports, no Buffer, no process (it runs in Workers).
 */
import type { BodyStream, ExchangeOwner } from '../core/http/body-stream.js'
import { httpErrorResponse } from '../core/http/http-error-response.js'
import { errorResponse } from '../core/http/response.js'
import { createEngine } from '../engine/create-engine.js'
import { bodyTooLarge } from '../core/http/http-error.js'
import { hostBodyStream, type HostBody } from '../engine/http/host-body.js'
import type { ServerOptions } from '../engine/options/server-options.js'
import type { ServerHandle } from '../engine/server-handle.js'
import { fetchPlatform } from './fetch-platform.js'
import { httpRequestOfWeb, piecesOf, targetOf } from './web-request.js'
import { webResponseOf } from './web-response.js'

/** The options of `toFetch`: the server's options (the host owns `host`, `port` and `tls`), and where other requests go. */
export interface FetchOptions extends Omit<ServerOptions, 'host' | 'port' | 'tls'> {
  /**
   * Answers the requests the route table does not (no route for the method and path, and not
   * a preflight to one of its paths), e.g. the rest of a Hono app. Absent: they get the
   * table's 404, or 405 with `Allow`, as from `runServer` (the HTTP middleware runs for those).
   */
  readonly fallback?: (request: Request) => Response | Promise<Response>
}

/**
 * A fetch handler: call it with a `Request`, get the `Response`. It also carries the
 * `ServerHandle` operations of its app (what HTTP handlers reach through their context;
 * with a `cluster` adapter, a broadcast reaches the WebSocket clients of the other nodes).
 */
export interface FetchHandler extends Omit<ServerHandle, 'address' | 'setSecureContext'> {
  (request: Request): Promise<Response>
  /** Stops the app: requests after it get 503; the cluster adapter, if any, is left. */
  close(): Promise<void>
}

const EMPTY = new Uint8Array(0)
const NO_PIECES: HostBody = { [Symbol.asyncIterator]: async function* () {} }

const declaredLength = (headers: Headers): number | undefined => {
  const value = headers.get('content-length')
  if (value === null || headers.has('transfer-encoding')) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

const isWebSocketUpgrade = (headers: Headers): boolean => headers.get('upgrade')?.toLowerCase() === 'websocket'

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
 * The fetch handler of `options`. Throws an Error naming every bad option or route-table
 * problem, as `runServer` rejects.
 *
 * @example
 * const app = toFetch({ routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
 * Bun.serve({ fetch: app })            // or Deno.serve(app), or export default { fetch: app } on Workers
 * const res = await app(new Request('http://localhost/hello')) // 200 {"hello":"world"}
 */
export const toFetch = (options: FetchOptions = {}): FetchHandler => {
  const { fallback, ...serverOptions } = options
  if (fallback !== undefined && typeof fallback !== 'function') throw new Error('toFetch: invalid options\n  fallback: expected a function')
  const engine = createEngine(serverOptions, fetchPlatform)
  const { embedded } = engine
  const now = fetchPlatform.timers.now

  const fetch = async (request: Request): Promise<Response> => {
    const method = request.method
    const target = targetOf(request.url)
    if (embedded.draining()) return webResponseOf(errorResponse(503, 'Service Unavailable'), httpRequestOfWeb(request, target, EMPTY), embedded, now, () => undefined)
    if (fallback !== undefined && !embedded.claims(method, target.path)) return fallback(request)
    if (isWebSocketUpgrade(request.headers)) {
      return webResponseOf(errorResponse(501, 'websocket_not_served'), httpRequestOfWeb(request, target, EMPTY), embedded, now, () => undefined)
    }
    const plan = embedded.planOf(method, target.path)
    const length = declaredLength(request.headers)
    const http = httpRequestOfWeb(request, target, EMPTY)
    // A GET or HEAD has no body (the Fetch standard refuses one); not asking spares hosts whose
    // Request is lazy (@hono/node-server) from building the real one for nothing.
    const source = method === 'GET' || method === 'HEAD' ? null : request.body
    // Refused by its Content-Length before anything runs (as runServer): the host is told the body is not wanted.
    if (source !== null && length !== undefined && length > plan.maxBody) {
      void source.cancel().catch(() => undefined)
      return webResponseOf(httpErrorResponse(bodyTooLarge(plan.maxBody)), http, embedded, now, () => undefined)
    }
    // As runServer: the middleware and the router run on the head; the body is read when the
    // route asks for it (whole for a route that takes it whole, through the dispatch).
    const stream = plan.stream || source !== null ? hostBodyStream(source === null ? NO_PIECES : piecesOf(source), plan.maxBody, length) : undefined
    const exchange = new Exchange(request, stream)
    const answer = await embedded.respond(http, exchange)
    // Refused before its body was read: the host is told it is not wanted.
    if (!plan.stream && source !== null && !source.locked && !request.bodyUsed) void source.cancel().catch(() => undefined)
    return webResponseOf(answer, http, embedded, now, exchange.cancelled)
  }

  return Object.assign(fetch, { ...engine.handle, close: () => engine.handle.close() })
}
