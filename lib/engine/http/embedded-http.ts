/**
 * `EmbeddedHttp`: a server's HTTP side for a host that owns the HTTP layer itself (DESIGN §8:
 * `attach` to a Node server, `toFetch`): which requests the route table takes, how a route
 * takes its body, and the answer, through the same compiled routes, middleware, CORS and
 * error answers as the standalone server's connections (`dispatchHttp`). Nothing here is a
 * second router: it is the engine's own dispatch, reached without a socket. A post to an event
 * stream's session (`ssePostRoute`) goes where the standalone server sends it: to the stream
 * that holds the session, on another node through the cluster adapter when none here does; an
 * event-stream answer passes the origin check and the upgrade guards of its path, then becomes
 * a client of the registry whose events the host's streamed answer pulls (embedded-event-streams.ts).
 * Each request is told to the server's instrumentation as a connection's are (its metrics,
 * its span with the `traceparent` it carried, `req.trace`).
 *
 * Portable: no node:* imports, no Buffer.
 */
import type { ExchangeOwner } from '../../core/http/body-stream.js'
import type { HttpRequest, Response } from '../../core/http/types.js'
import type { Logger } from '../../core/log/logger.js'
import type { CompiledRoutes } from '../../core/route/compiled-routes.js'
import { dispatchHttpNow, type HttpDispatchOptions } from '../../core/route/dispatch-http.js'
import { createRouteMemo, matchRoute, matchStatic } from '../../core/route/match-route.js'
import { type EventPostBody, isEventPost } from '../../core/sse/event-post.js'
import type { TraceContext } from '../../core/trace/trace-context.js'
import { isEventStreamBody } from '../../core/sse/event-stream.js'
import { type Instrumentation, NO_INSTRUMENTATION } from '../instrumentation/instrumentation.js'
import type { OpenEventStream } from './embedded-event-streams.js'

/** How a route takes its body: streamed or read whole, within which limit. */
export interface EmbeddedBodyPlan {
  readonly stream: boolean
  readonly maxBody: number
}

/** A server's HTTP side without a socket. */
export interface EmbeddedHttp {
  /**
   * Whether the route table answers `method` on `path` (still percent-encoded): a route for
   * it (HEAD by a GET route), or an `OPTIONS` request to a path the table has (the CORS
   * preflight, or 405 with `Allow`). Every other request is the host's.
   */
  claims(method: string, path: string): boolean
  /** How the route of `method` and `path` takes its body. */
  planOf(method: string, path: string): EmbeddedBodyPlan
  /**
   * The answer: middleware, CORS, route; never rejects (a thrown error is a logged 500). A post
   * to an event stream's session is delivered before it is answered (202; 404 when no stream of
   * the cluster holds the session; 403 for an origin the server refuses), as by `runServer`.
   */
  respond(request: HttpRequest, owner: ExchangeOwner): Promise<Response>
  /**
   * `respond`, with the answer given synchronously when every step gave it synchronously (no
   * middleware, a handler that returned a value), as a connection writes it: no promise per
   * request for a host that can take the answer now (`toFetch`). A promise never rejects.
   */
  respondNow(request: HttpRequest, owner: ExchangeOwner): Response | Promise<Response>
  /** An answer's JSON body could not be encoded (500 `unserializable_body` went out): logged with the route. */
  onUnserializable(request: HttpRequest, error: unknown): void
  /** A streamed answer failed mid-body (its source threw): logged with the route. */
  onStreamFailed(request: HttpRequest, error: unknown): void
  /** Whether the server is shutting down (answers then ask the host to close the connection). */
  draining(): boolean
}

export interface EmbeddedHttpDeps {
  readonly compiled: CompiledRoutes
  readonly dispatch: HttpDispatchOptions
  /** The server's body plans (`undefined`: no route has body options). */
  readonly planOf: (method: string, path: string) => EmbeddedBodyPlan | undefined
  readonly maxBody: number
  readonly logger: Logger
  readonly draining: () => boolean
  /** Delivers a post to an event stream's session (`SseShared.post`): here, or through the cluster. */
  readonly post: (body: EventPostBody) => Response | Promise<Response>
  /**
   * Opens an event stream (`embeddedEventStreams`): its origin and upgrade guards checked as
   * `runServer` checks them, then a client of the registry whose bytes the host's answer pulls.
   */
  readonly openStream: OpenEventStream
  /** The server's instrumentation (metrics, tracer); absent: none. */
  readonly instrumentation?: Instrumentation
  /** The engine's clock (ms): a request's start and end for the metrics. */
  readonly now?: () => number
}

// The host's owner of one exchange, also keeping its route (the metrics' label) and its span.
class Instrumented implements ExchangeOwner {
  route: string | undefined = undefined
  constructor(
    private readonly owner: ExchangeOwner,
    private readonly trace: TraceContext | undefined,
  ) {}
  signalOf(exchange: number): AbortSignal {
    return this.owner.signalOf(exchange)
  }
  bodyOf(exchange: number): ReturnType<ExchangeOwner['bodyOf']> {
    return this.owner.bodyOf(exchange)
  }
  routed(exchange: number, route: string): void {
    this.route = route
    this.owner.routed?.(exchange, route)
  }
  remoteAddress(): string | undefined {
    return this.owner.remoteAddress?.()
  }
  traceOf(exchange: number): TraceContext | undefined {
    return this.trace ?? this.owner.traceOf?.(exchange)
  }
}

/**
 * @example
 * const http = createEmbeddedHttp({ compiled, dispatch, planOf, maxBody, logger, draining, post, openStream })
 * if (http.claims('GET', '/hello')) await http.respond(request, owner)
 */
export const createEmbeddedHttp = (deps: EmbeddedHttpDeps): EmbeddedHttp => {
  const { compiled, dispatch, logger, post, openStream } = deps
  const instrumentation = deps.instrumentation ?? NO_INSTRUMENTATION
  const now = deps.now ?? ((): number => 0)
  // A post to an event stream's session is delivered to where that session is; an event
  // stream becomes a client of the registry whose bytes the host's answer pulls (`openStream`).
  const delivered = (request: HttpRequest, answer: Response, owner: ExchangeOwner): Response | Promise<Response> =>
    isEventPost(answer.body) ? post(answer.body) : isEventStreamBody(answer.body) ? openStream(request, answer, owner) : answer
  // The answer: synchronous when the dispatch's is, else a promise that never rejects.
  const answerOf = (request: HttpRequest, owner: ExchangeOwner): Response | Promise<Response> => {
    const answer = dispatchHttpNow(compiled, request, dispatch, owner, 0)
    return answer instanceof Promise ? answer.then((res) => delivered(request, res, owner)) : delivered(request, answer, owner)
  }
  const respondNow = (request: HttpRequest, owner: ExchangeOwner): Response | Promise<Response> => {
    if (!instrumentation.active) return answerOf(request, owner)
    const started = instrumentation.requestStarted(request.method, now(), request)
    const tracked = new Instrumented(owner, instrumentation.tracing ? instrumentation.traceOf(started) : undefined)
    const answered = (answer: Response): Response => {
      instrumentation.requestAnswered(request.method, tracked.route, answer.status, started, now())
      return answer
    }
    const answer = answerOf(request, tracked)
    return answer instanceof Promise ? answer.then(answered) : answered(answer)
  }
  // Its own memo: the host's requests are matched here, then dispatched with the server's.
  const memo = createRouteMemo()
  const whole: EmbeddedBodyPlan = { stream: false, maxBody: deps.maxBody }
  return {
    claims: (method, path) => {
      // A static route as the path came (the common request): one lookup, nothing made.
      if (matchStatic(compiled, method, path, memo) !== undefined) return true
      const match = matchRoute(compiled, method, path, memo)
      return match._tag === 'RouteFound' || match._tag === 'MalformedParam' || (match._tag === 'MethodNotAllowed' && method === 'OPTIONS')
    },
    planOf: (method, path) => deps.planOf(method, path) ?? whole,
    respond: (request, owner) => {
      const answer = respondNow(request, owner)
      return answer instanceof Promise ? answer : Promise.resolve(answer)
    },
    respondNow,
    onUnserializable: (request, error) =>
      logger.error('the answer to {method} {path} is not JSON: {reason}', { method: request.method, path: request.path, reason: error instanceof Error ? error.message : String(error) }),
    onStreamFailed: (request, error) => logger.exception(error, { method: request.method, path: request.path, phase: 'streamed answer' }),
    draining: deps.draining,
  }
}
