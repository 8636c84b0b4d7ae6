/**
 * `HttpShared`: what every HTTP connection of one server shares, one object per server (a
 * connection holds it as `shared`): the platform's I/O, timers and scratch, the limits, and
 * the server's side of a request: answering it (middleware, routes, CORS: the core's
 * `dispatchHttpNow`), deciding and taking over an upgrade (upgrades.ts). A class so that each
 * of those is a method defined here. Must not import `node:*`, Buffer or process.
 */
import type { ExchangeOwner } from '../../core/http/body-stream.js'
import type { HeadScratch } from '../../core/http/head-scratch.js'
import type { HttpLimits } from '../../core/http/http-limits.js'
import type { SerializeCache } from '../../core/http/serialize-response.js'
import type { HttpRequest, Response } from '../../core/http/types.js'
import type { AbuseLog } from '../limit/abuse-log.js'
import type { Logger } from '../../core/log/logger.js'
import type { CompiledRoutes } from '../../core/route/compiled-routes.js'
import { dispatchHttpNow, type HttpDispatchOptions } from '../../core/route/dispatch-http.js'
import type { ClientTable } from '../registry/client-table.js'
import type { FlushBatcher } from '../delivery/flush-batcher.js'
import type { HttpConnection } from './http-connection.js'
import type { Limits } from '../options/limits.js'
import type { Platform, SocketIo, Timers } from '../platform.js'
import type { UpgradeAccepted, UpgradeDecision } from './upgrade-decision.js'
import type { Upgrades } from './upgrades.js'
import type { EventStreamOptions } from '../../core/sse/event-stream.js'
import type { SseFraming } from '../../core/sse/sse-wire.js'
import type { SseShared } from './sse-shared.js'
import { isEventPost } from '../../core/sse/event-post.js'
import { isEventStreamBody } from '../../core/sse/event-stream.js'
import { type BodyPlan, type BodyPlans, bodyPlans } from '../http/body-plans.js'
import type { HttpCompression } from '../http/http-compression.js'
import { type Instrumentation, NO_INSTRUMENTATION } from '../instrumentation/instrumentation.js'

export class HttpShared<S> {
  readonly io: SocketIo<S>
  readonly timers: Timers
  /** The clock, as one function per server (a streamed answer's pump calls it for every piece). */
  readonly now: () => number
  /** A scratch array to join small answers into. */
  readonly allocate: (size: number) => Uint8Array
  /** The limits requests are parsed with: the largest body any route takes (`maxBody` per route). */
  readonly httpLimits: HttpLimits
  private readonly plans: BodyPlans
  /** The smallest body limit of any route: a whole body under it is dispatched without a look at its route. */
  readonly smallestMaxBody: number
  /** How a route without body options takes its body: whole, within the server's `limits.maxBody`. */
  readonly wholePlan: BodyPlan
  /** Whether HTTP middleware runs: a body is then held back from it (it sees the head). */
  readonly hasMiddleware: boolean

  constructor(
    platform: Platform<S>,
    readonly limits: Limits,
    /** The server's scratch for reading heads (the parser's record and memos). */
    readonly heads: HeadScratch,
    /** The server's serialiser pool, caches and last-answer memo. */
    readonly answers: SerializeCache,
    private readonly compiled: CompiledRoutes,
    private readonly dispatch: HttpDispatchOptions,
    private readonly upgrades: Upgrades<S>,
    private readonly eventStreams: SseShared<S>,
    private readonly table: ClientTable<S>,
    private readonly batcher: FlushBatcher<S>,
    private readonly logger: Logger,
    private readonly debugOn: boolean,
    /** On-the-fly compression of answers (the `compress` option); `undefined` when off. */
    private readonly compression: HttpCompression | undefined = undefined,
    /** Where bad requests are counted, logged once per window (`AbuseLog`). */
    readonly abuse: AbuseLog | undefined = undefined,
    /** Where requests are reported (`Instrumentation`); the no-op by default. */
    readonly instrumentation: Instrumentation = NO_INSTRUMENTATION,
  ) {
    this.io = platform.io
    this.timers = platform.timers
    const timers = platform.timers
    this.now = () => timers.now()
    this.allocate = platform.allocate
    this.plans = bodyPlans(compiled, { maxRequestLine: limits.maxRequestLine, maxHeaderBytes: limits.maxHeaderBytes, maxHeaders: limits.maxHeaders, maxBody: limits.maxBody })
    this.httpLimits = this.plans.parseLimits
    this.smallestMaxBody = this.plans.smallestMaxBody
    this.wholePlan = { stream: false, maxBody: limits.maxBody, limits: this.plans.parseLimits.maxBody === limits.maxBody ? this.plans.parseLimits : { ...this.plans.parseLimits, maxBody: limits.maxBody } }
    this.hasMiddleware = dispatch.stack !== undefined || (dispatch.middleware !== undefined && dispatch.middleware.length > 0)
  }

  /**
   * Answers one request (middleware, routes, CORS): synchronously when it can; never rejects.
   * The connection passes itself as the owner of exchange `exchange` (its signal, its body).
   */
  respond(request: HttpRequest, owner: ExchangeOwner & { readonly clientId: number }, exchange: number): Response | Promise<Response> {
    const answer = dispatchHttpNow(this.compiled, request, this.dispatch, owner, exchange)
    // A post to an event stream's session (`eventPost`) is delivered now and answered for it;
    // an event stream (`eventStream`) opens only for an origin the upgrade would take, and past
    // the upgrade guards of its path.
    const posted = answer instanceof Promise ? answer.then((res) => this.eventAnswer(request, res, owner.clientId)) : this.eventAnswer(request, answer, owner.clientId)
    const compression = this.compression
    // Off: one field read, nothing else on the hot path.
    if (compression === undefined) return posted
    return posted instanceof Promise ? posted.then((res) => compression.apply(request, res)) : compression.apply(request, posted)
  }

  private eventAnswer(request: HttpRequest, answer: Response, clientId: number): Response | Promise<Response> {
    const body = answer.body
    return isEventPost(body) ? this.eventStreams.post(body) : isEventStreamBody(body) ? this.eventStreams.admitStream(request, answer, clientId) : answer
  }

  /**
   * How the route of `method` and `path` takes its body; `undefined` when no route of the
   * server has body options (the server's limits then hold for every request, at no cost).
   */
  bodyPlan(method: string, path: string): BodyPlan | undefined {
    return this.plans.planOf(method, path)
  }

  /** A streamed answer failed mid-body (its source threw): logged like a handler error, with the route. */
  onStreamFailed(request: HttpRequest, error: unknown): void {
    this.logger.exception(error, { method: request.method, path: request.path, phase: 'streamed answer' })
  }

  /** Decides a WebSocket upgrade request (a connection's id is its client's: `accept` registers both before the first byte is read). */
  decideUpgrade(connection: HttpConnection<S>, request: HttpRequest): UpgradeDecision | Promise<UpgradeDecision> {
    return this.upgrades.decide(connection.clientId, request)
  }

  /** Hands the socket to the WebSocket side, with `rest` as its first bytes. */
  takeOver(connection: HttpConnection<S>, request: HttpRequest, decision: UpgradeAccepted, rest: Uint8Array): void {
    const client = this.table.all.get(connection.clientId)
    // Gone while a middleware decided (its socket closed): there is nothing to take over.
    if (client === undefined) return this.io.destroy(connection.socket)
    this.upgrades.takeOver(client, request, decision, rest)
  }

  /**
   * The head of an `eventStream` answer is written: the socket becomes a Server-Sent Events
   * client (sse-shared.ts), with the request's signal when its handler asked for it.
   */
  openEventStream(connection: HttpConnection<S>, request: HttpRequest, options: EventStreamOptions, framing: SseFraming, signal: AbortController | undefined): void {
    const client = this.table.all.get(connection.clientId)
    if (client === undefined) return this.io.destroy(connection.socket)
    this.eventStreams.open(client, request, options, framing, signal)
  }

  /** Corks the socket until the current batch of work is flushed (asynchronous answers only). */
  hold(socket: S): void {
    this.batcher.hold(socket)
  }

  /** An answer whose JSON body could not be encoded went out as 500 `unserializable_body`: logged like a handler error, with the route. */
  onUnserializable(request: HttpRequest, error: unknown): void {
    this.logger.error('the answer to {method} {path} is not JSON: {reason}', { method: request.method, path: request.path, reason: error instanceof Error ? error.message : String(error) })
  }

  /** Whether the server is shutting down: no more keep-alive. */
  draining(): boolean {
    return this.table.draining
  }

  debug(message: string, context: Readonly<Record<string, unknown>>): void {
    if (this.debugOn) this.logger.debug(message, context)
  }
}
