/**
 * An HTTP/1.1 connection: feeds the socket's bytes to the pure request parser, answers
 * pipelined requests in order (RFC 9112 §9.3.2), sends `100 Continue` when asked, honours
 * `Connection: close`, hands a valid WebSocket upgrade to the server, and enforces the
 * head, request and keep-alive time-outs (checked by the server's periodic sweep).
 *
 * Longer than the engine's other files on purpose: it is one state machine (the slots of
 * pipelined requests answered in order, a request half read, an upgrade waiting for its
 * decision, the answers gathered for one write), which reads best whole.
 * Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { BodyStream, ExchangeOwner } from '../../core/http/body-stream.js'
import type { TraceContext } from '../../core/trace/trace-context.js'
import { bodyIncomplete, bodyTooLarge, type HttpError } from '../../core/http/http-error.js'
import { bodyStreamOf } from '../../core/http/in-process-exchange.js'
import { httpErrorResponse } from '../../core/http/http-error-response.js'
import type { Head } from '../../core/http/parse-head.js'
import { type HttpNeedMore, parseHttpRequest } from '../../core/http/parse-http-request.js'
import { startBody } from '../../core/http/read-body-piece.js'
import { errorResponse } from '../../core/http/response.js'
import { readRequest } from '../../core/http/read-request.js'
import { requestOfHead } from '../../core/http/request-of-head.js'
import { serializeAnswer, serializeResponse } from '../../core/http/serialize-response.js'
import { serializeStreamHead } from '../../core/http/serialize-stream-head.js'
import { isStreamBody, type StreamBody } from '../../core/http/stream-body.js'
import { type EventStreamOptions, isEventStreamBody } from '../../core/sse/event-stream.js'
import type { SseFraming } from '../../core/sse/sse-wire.js'
import type { HttpLimits } from '../../core/http/http-limits.js'
import type { Header, HttpRequest, Response } from '../../core/http/types.js'
import { isWebSocketUpgrade } from '../../core/ws/validate-upgrade.js'
import { BodyIntake } from '../http/body-intake.js'
import { RequestBody } from '../http/request-body.js'
import { type PumpOutcome, ResponsePump } from '../http/response-pump.js'
import { SocketSink } from '../http/socket-sink.js'
import { ByteQueue } from './byte-queue.js'
import { httpDate } from './http-date.js'
import type { HttpShared } from './http-shared.js'
import type { UpgradeDecision } from './upgrade-decision.js'

// One response owed, in request order; `bytes` is set when it is ready. An upgrade
// request waits for its decision: a refusal to send, or the hand-over.
interface Slot {
  bytes: Uint8Array | undefined
  close: boolean
  readonly upgrade: HttpRequest | undefined
  decision?: UpgradeDecision
  /** The exchange's number on the connection (0 for answers of the connection's own). */
  exchange?: number
  /** A streamed answer: `bytes` is its head, and the body comes from here once the head is out. */
  stream?: { readonly body: StreamBody; readonly framing: ReturnType<typeof serializeStreamHead>['framing']; readonly length: number | undefined; readonly request: HttpRequest }
  /** The answer was given by the connection (a 413 mid-body): the handler's, when it comes, is dropped. */
  settled?: boolean
  /** An `eventStream` answer: `bytes` is its head; at its turn the socket becomes an event-stream client. */
  sse?: { readonly options: EventStreamOptions; readonly framing: SseFraming; readonly request: HttpRequest }
}

// A settled promise to queue a microtask on (cheaper than queueMicrotask, which sets up an
// async resource per call).
const RESOLVED = Promise.resolve()

// Responses written together are joined in a shared output pool (as the serializer's pool:
// a region is handed out once and never written again), up to this many bytes per write;
// a larger answer leaves on its own, uncopied.
const POOL_SIZE = 64 * 1024
const RUN_MAX = 16 * 1024
let pool: Uint8Array | undefined
let used = 0

// Room for `size` bytes at `used` in the output pool (a new pool when the last is full).
const reserve = (size: number, allocate: (size: number) => Uint8Array): Uint8Array => {
  if (pool === undefined || used + size > POOL_SIZE) {
    // From the adapter (on Node a Buffer, which the socket takes without a wrapper).
    pool = allocate(POOL_SIZE)
    used = 0
  }
  return pool
}

// An immutable answer given again and again (a constant response: its serializer keeps its
// bytes) comes back as the same array. Several copies of it in one write are joined once,
// and the join is kept for the next write of as many copies: one entry, the last made.
let repeatedOf: Uint8Array | undefined
let repeatedCount = 0
let repeatedBytes: Uint8Array | undefined

const repeated = (bytes: Uint8Array, count: number, allocate: (size: number) => Uint8Array): Uint8Array => {
  if (bytes === repeatedOf && count === repeatedCount) return repeatedBytes as Uint8Array
  const size = bytes.length * count
  const into = reserve(size, allocate)
  const at = used
  for (let i = 0; i < count; i++) into.set(bytes, at + i * bytes.length)
  used += size
  const joined = into.subarray(at, at + size)
  repeatedOf = bytes
  repeatedCount = count
  repeatedBytes = joined
  return joined
}

// Whether any header is named `Upgrade` (any case): only then can the request be a WebSocket
// handshake, so the full check is skipped for every other request.
const mayUpgrade = (headers: readonly Header[]): boolean => {
  for (let i = 0; i < headers.length; i++) {
    const name = (headers[i] as Header)[0]
    if (name.length === 7 && name.toLowerCase() === 'upgrade') return true
  }
  return false
}

// Whether every byte is CR or LF: what a client may leave after its last request.
const onlyLineEnds = (bytes: Uint8Array): boolean => {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0x0d && bytes[i] !== 0x0a) return false
  return true
}

const EMPTY = new Uint8Array(0)
const EMPTY_BODY = new Uint8Array(0)
const NO_TRAILERS: readonly Header[] = []
const CONTINUE = new TextEncoder().encode('HTTP/1.1 100 Continue\r\n\r\n')

/**
 * A class, not a closure record, on purpose: a server holds one per connection, and a
 * WebSocket client's HTTP connection is garbage after the upgrade. A dozen closures per connection
 * would be a dozen objects for the old generation to collect; here the behaviour lives once
 * on the prototype, and the per-connection state is the fields below.
 */
export class HttpConnection<S> implements ExchangeOwner {
  private readonly queue = new ByteQueue()
  private readonly slots: Slot[] = []
  private resume: HttpNeedMore | undefined = undefined
  private stopped = false // no more requests are read: close, error, upgrade, or shutdown
  private continued = false // 100 Continue sent for the request in progress
  private firstRequest = true
  private finishing = false // end the connection once every owed response is written
  private flushQueued = false
  private requestStartedAt = 0
  // When the connection last became idle; -1 until the first sweep after its accept (below).
  private idleSince = -1
  // Responses ready together leave in one write. The first is kept as it is (a lone answer
  // is written uncopied), and so are the answers that are the same array again (`repeats`
  // copies of `out`); from the first other one on they are copied, one after another, into a
  // run of the output pool (`runPool[runStart, runStart + runSize)`).
  private out: Uint8Array | undefined = undefined
  private repeats = 0
  private runPool: Uint8Array | undefined = undefined
  private runStart = 0
  private runSize = 0
  // Exchanges (requests) are numbered from 1 on the connection; what a request reads of its
  // exchange (its signal, its streamed body) is kept only while the exchange runs, and only once asked.
  private exchanges = 0
  private signals: Map<number, AbortController> | undefined = undefined
  private bodies: Map<number, BodyStream> | undefined = undefined
  // The route template of the exchange being dispatched now (`routed`), and of exchanges
  // routed later (an asynchronous middleware): what the metrics label a request with.
  private routing = 0
  private route: string | undefined = undefined
  private lateRoutes: Map<number, string> | undefined = undefined
  // The span of each exchange being answered, when the server traces (`req.trace`).
  private traces: Map<number, TraceContext> | undefined = undefined
  // A streamed request body being read off the socket, and a streamed answer being sent.
  private intake: BodyIntake | undefined = undefined
  private pump: ResponsePump | undefined = undefined
  private paused = false
  private wantContinue = false
  private gone = false
  // The limits a buffered body of a route with its own `maxBody` is read with.
  private bodyLimits: HttpLimits | undefined = undefined

  /** The peer's address, for the request's `remoteAddress` (rate limits by address). */
  remoteAddress(): string | undefined {
    return this.shared.io.remoteAddress?.(this.socket)
  }

  constructor(
    readonly socket: S,
    private readonly shared: HttpShared<S>,
    /** The id of the connection's client (the engine's record of it; it stays until an upgrade). */
    readonly clientId: number,
  ) {
  }

  /** Feeds bytes read from the socket. */
  receive(chunk: Uint8Array): void {
    if (this.intake !== undefined) return this.receiveBody(chunk)
    if (this.stopped) {
      // Bytes after an upgrade request belong to the WebSocket: keep them for it.
      if (this.slots.some((s) => s.upgrade !== undefined)) this.queue.push(chunk)
      return
    }
    // One clock read per chunk serves the time-outs, the Date header and the idle mark.
    const now = this.shared.timers.now()
    if (this.queue.length === 0) this.requestStartedAt = now
    if (!this.queue.push(chunk)) return
    this.parse(now)
    // What was answered synchronously leaves now, in one write.
    if (this.gathered() || (this.slots.length > 0 && (this.slots[0] as Slot).bytes !== undefined)) this.flush(now)
    this.shared.instrumentation.settle()
  }

  /** The peer ended its side: answer what is owed, then close. */
  peerEnded(): void {
    const intake = this.intake
    if (intake !== undefined) this.bodyFailed(bodyIncomplete(intake.body.received))
    this.finish()
  }

  /** The socket took its backlog: a streamed answer sends its next piece. */
  writable(): void {
    this.pump?.writable()
  }

  /** The connection is gone: every exchange still running is cancelled. */
  closed(): void {
    if (this.gone) return
    this.gone = true
    this.stopped = true
    const intake = this.intake
    this.intake = undefined
    intake?.cut(bodyIncomplete(intake.body.received))
    this.pump?.cancel('the client went away')
    this.abortAll('the client went away')
  }

  /** The signal of exchange `exchange`: aborted when it cannot complete. */
  signalOf(exchange: number): AbortSignal {
    const signals = (this.signals ??= new Map())
    let controller = signals.get(exchange)
    if (controller === undefined) {
      controller = new AbortController()
      if (this.gone) controller.abort(new Error('the client went away'))
      signals.set(exchange, controller)
    }
    return controller.signal
  }

  /** The streamed body of exchange `exchange`, for a route that streams its body. */
  bodyOf(exchange: number): BodyStream | undefined {
    return this.bodies?.get(exchange)
  }

  /** The span of exchange `exchange` while it is answered, when the server traces. */
  traceOf(exchange: number): TraceContext | undefined {
    return this.traces?.get(exchange)
  }

  /** The router found the route of exchange `exchange` (its path template). */
  routed(exchange: number, route: string): void {
    if (exchange === this.routing) this.route = route
    else if (this.shared.instrumentation.active) (this.lateRoutes ??= new Map()).set(exchange, route)
  }

  /**
   * Enforces the time-outs at time `now` (milliseconds). `stalled`: the sweep comes late, after
   * a stall of the server's own (a long synchronous task), so nothing is judged this time:
   * bytes that arrived meanwhile are read first (the sweep runs before the reads of its turn).
   */
  sweep(now: number, stalled = false): void {
    const { socket, queue, shared } = this
    if (shared.io.isClosed(socket) || shared.io.isEnded(socket)) return
    // The idle clock of a fresh connection starts here, not at its accept: its request could
    // not have been read before (a connection accepted just before a stall is not cut at once).
    if (this.idleSince < 0) this.idleSince = now
    if (stalled) return
    const pump = this.pump
    if (pump !== undefined) {
      // A socket that took nothing for a heartbeat is a client gone without a FIN (or one
      // that stopped reading); a source that gave nothing for streamIdleMs is stuck.
      if (pump.blockedSince >= 0 && now - pump.blockedSince > shared.limits.heartbeatIntervalMs) pump.cancel('the client stopped taking the answer')
      else if (pump.blockedSince < 0 && now - pump.idleSince > shared.limits.streamIdleMs) pump.cancel('the streamed answer gave nothing for streamIdleMs')
      return
    }
    const intake = this.intake
    if (intake !== undefined) {
      // Paused by us (the handler is behind) is no silence of the client's. A body read whole
      // is also held to the request time-out, as when it was read with its head.
      const idle = !this.paused && now - intake.lastAt > shared.limits.streamIdleMs
      if (idle || (intake.whole && now - this.requestStartedAt > shared.limits.requestTimeoutMs)) {
        shared.debug('request body time-out', { received: intake.body.received })
        this.bodyFailed(bodyIncomplete(intake.body.received))
      }
      return
    }
    // Empty lines left after the last request (RFC 9112 §2.2) are no request in progress.
    if (!this.stopped && queue.length > 0 && !onlyLineEnds(queue.bytes())) {
      const headMissing = this.resume === undefined || this.resume.resume._tag === 'Head'
      const allowed = headMissing ? shared.limits.headerTimeoutMs : shared.limits.requestTimeoutMs
      if (now - this.requestStartedAt > allowed) {
        shared.debug('request time-out', { headMissing })
        queue.clear()
        this.answerNow(errorResponse(408, 'request_timeout'), true)
      }
      return
    }
    if (this.slots.length === 0 && now - this.idleSince > shared.limits.keepAliveTimeoutMs) shared.io.end(socket)
  }

  /** Closes the connection once the responses owed are sent (graceful shutdown, or the peer ended its side). */
  finish(): void {
    this.stopped = true
    this.finishing = true
    // A server that drains cancels what streams: an endless answer would hold it open.
    if (this.shared.draining()) {
      this.pump?.cancel('the server is closing')
      this.abortAll('the server is closing')
    }
    if (this.slots.length === 0) this.shared.io.end(this.socket)
  }

  private gather(bytes: Uint8Array): void {
    const run = this.runPool
    if (run === undefined) {
      const first = this.out
      if (first === undefined) {
        this.out = bytes
        this.repeats = 1
        return
      }
      const repeats = this.repeats
      if (bytes === first && (repeats + 1) * first.length <= RUN_MAX) {
        this.repeats = repeats + 1
        return
      }
      const total = first.length * repeats + bytes.length
      if (total > RUN_MAX) {
        this.send()
        this.out = bytes
        this.repeats = 1
        return
      }
      // The run starts: the first answer (as many times as it came) and this one.
      const into = reserve(total, this.shared.allocate)
      const at = used
      for (let i = 0; i < repeats; i++) into.set(first, at + i * first.length)
      into.set(bytes, at + repeats * first.length)
      this.out = undefined
      this.repeats = 0
      this.runPool = into
      this.runStart = at
      this.runSize = total
      used += total
      return
    }
    // The run grows while it is the last thing in the pool and stays small; else it leaves
    // now, and this answer starts the next write.
    if (run !== pool || this.runStart + this.runSize !== used || used + bytes.length > POOL_SIZE || this.runSize + bytes.length > RUN_MAX) {
      this.send()
      this.out = bytes
      this.repeats = 1
      return
    }
    run.set(bytes, used)
    this.runSize += bytes.length
    used += bytes.length
  }

  // Whether answers are gathered and not yet written.
  private gathered(): boolean {
    return this.out !== undefined || this.runPool !== undefined
  }

  private send(): void {
    const { socket, shared } = this
    const first = this.out
    if (first !== undefined) {
      const repeats = this.repeats
      this.out = undefined
      this.repeats = 0
      return shared.io.write(socket, repeats === 1 ? first : repeated(first, repeats, shared.allocate))
    }
    const run = this.runPool
    if (run === undefined) return
    this.runPool = undefined
    shared.io.write(socket, run.subarray(this.runStart, this.runStart + this.runSize))
  }

  private flush(now = this.shared.timers.now()): void {
    const { slots, socket } = this
    const io = this.shared.io
    while (slots.length > 0) {
      const head = slots[0] as Slot
      if (head.upgrade !== undefined) {
        if (head.decision === undefined) return this.send()
        this.send()
        slots.shift()
        const rest = this.queue.bytes()
        this.queue.clear()
        if (head.decision._tag === 'Accepted') return this.shared.takeOver(this, head.upgrade, head.decision, rest)
        io.end(socket, serializeResponse(head.decision.response, { keepAlive: false, date: httpDate(now) }, this.shared.answers))
        return
      }
      if (head.bytes === undefined) {
        this.send()
        return this.maybeContinue()
      }
      if (head.sse !== undefined) {
        slots.shift()
        this.gather(head.bytes)
        this.send()
        this.queue.clear()
        return this.openEventStream(head)
      }
      if (head.stream !== undefined) {
        if (this.pump === undefined) this.startPump(head)
        return
      }
      slots.shift()
      this.gather(head.bytes)
      if (head.exchange !== undefined) this.endExchange(head.exchange)
      if (this.unreadBody(head.exchange)) head.close = true
      if (head.close) {
        this.send()
        io.end(socket)
        return
      }
    }
    this.send()
    this.idleSince = now
    if (this.finishing && !io.isEnded(socket)) io.end(socket)
  }

  private answerNow(res: Response, close: boolean): void {
    this.stopped = true
    this.slots.push({ bytes: serializeResponse(res, { keepAlive: !close, date: httpDate(this.shared.timers.now()) }, this.shared.answers), close, upgrade: undefined })
    this.flush()
  }

  // An answer given synchronously is serialized at once and written when the chunk is parsed
  // (straight into the outgoing bytes when no earlier answer is owed); an asynchronous one
  // corks the socket, so answers settling in the same turn leave together.
  private dispatch(request: HttpRequest, date: string, body?: BodyStream): void {
    let keepAlive = request.keepAlive && !this.shared.draining()
    if (!keepAlive) this.stopped = true
    const exchange = ++this.exchanges
    if (body !== undefined) (this.bodies ??= new Map()).set(exchange, body)
    const instrumentation = this.shared.instrumentation
    const started = instrumentation.active ? instrumentation.requestStarted(request.method, this.requestStartedAt, request) : 0
    if (instrumentation.tracing) this.traced(exchange, instrumentation.traceOf(started))
    this.routing = exchange
    this.route = undefined
    const answer = this.shared.respond(request, this, exchange)
    this.routing = 0
    if (!(answer instanceof Promise)) {
      if (instrumentation.active) {
        instrumentation.requestAnswered(request.method, this.route, answer.status, started)
        if (this.traces !== undefined) this.traces.delete(exchange)
      }
      // Answered before its body arrived (a 404, a refusal): nothing can follow it.
      if (this.intake !== undefined && this.intake.exchange === exchange) {
        keepAlive = false
        this.stopped = true
      }
      if (isStreamBody(answer.body)) {
        this.slots.push(this.streamSlot(answer, request, keepAlive, date, exchange))
        return
      }
      const bytes = this.serialize(answer, request, keepAlive, date)
      if (keepAlive && this.slots.length === 0 && body === undefined) {
        this.gather(bytes)
        if (this.signals !== undefined) this.endExchange(exchange)
      } else this.slots.push({ bytes, close: !keepAlive, upgrade: undefined, exchange })
      return
    }
    const slot: Slot = { bytes: undefined, close: !keepAlive, upgrade: undefined, exchange }
    this.slots.push(slot)
    this.shared.hold(this.socket)
    const early = this.route
    void answer.then((res) => {
      // One clock read for the answer's Date header and its end (the metrics).
      const now = this.shared.timers.now()
      if (instrumentation.active) {
        const late = this.lateRoutes?.get(exchange)
        if (late !== undefined) this.lateRoutes?.delete(exchange)
        instrumentation.requestAnswered(request.method, early ?? late, res.status, started, now)
        if (this.traces !== undefined) this.traces.delete(exchange)
      }
      // Answered by the connection already (413 mid-body), or the client is gone.
      if (slot.settled === true || this.gone) return
      // Answered before its body's end (a middleware's 401, a handler that did not read it):
      // the answer says the connection closes, and it does once the answer is out.
      const keep = keepAlive && (this.intake === undefined || this.intake.exchange !== exchange)
      if (!keep) {
        slot.close = true
        this.stopped = true
      }
      if (isStreamBody(res.body)) Object.assign(slot, this.streamSlot(res, request, keep, httpDate(now), exchange))
      else slot.bytes = this.serialize(res, request, keep, httpDate(now))
      // Flushed once after every answer settled in this turn, so pipelined answers leave together.
      if (this.slots[0] === slot && !this.flushQueued) {
        this.flushQueued = true
        void RESOLVED.then(() => {
          this.flushQueued = false
          this.flush()
        })
      }
    })
  }

  private traced(exchange: number, trace: TraceContext | undefined): void {
    if (trace !== undefined) (this.traces ??= new Map()).set(exchange, trace)
  }

  // The bytes of an answer; a JSON body that cannot be encoded is serialized again with the
  // hook that reports it (only then is a closure made).
  private serialize(res: Response, request: HttpRequest, keepAlive: boolean, date: string): Uint8Array {
    const head = request.method === 'HEAD'
    const answers = this.shared.answers
    return (
      serializeAnswer(res, keepAlive, head, date, request.protocol, answers) ??
      serializeResponse(res, {
        keepAlive,
        head,
        date,
        protocol: request.protocol,
        onUnserializable: (error) => this.shared.onUnserializable(request, error),
      }, answers)
    )
  }

  private upgrade(request: HttpRequest, rest: Uint8Array): void {
    this.stopped = true
    this.queue.keep(rest)
    const slot: Slot = { bytes: undefined, close: false, upgrade: request }
    this.slots.push(slot)
    const decide = (decision: UpgradeDecision): void => {
      slot.decision = decision
      if (this.slots[0] === slot) this.flush()
    }
    const decided = this.shared.decideUpgrade(this, request)
    if (decided instanceof Promise) void decided.then(decide)
    else decide(decided)
  }

  // A request read whole: dispatched as it is, unless its route holds it to a smaller limit
  // (only a body past the smallest limit of any route is looked at here) or a middleware runs.
  // (A route that streams its body reads a whole one as a stream of one piece.)
  private dispatchWhole(request: HttpRequest, date: string): void {
    const size = request.body.length
    if (size === 0) return this.dispatch(request, date)
    if (size > this.shared.smallestMaxBody) {
      const plan = this.shared.bodyPlan(request.method, request.path)
      if (plan !== undefined && size > plan.maxBody) return this.answerNow(httpErrorResponse(bodyTooLarge(plan.maxBody)), true)
    }
    // The middleware sees the head alone, as when the body comes after it (however the bytes
    // were cut): the body waits beside the request, and the dispatch gives it to the route.
    if (this.shared.hasMiddleware) return this.dispatch({ ...request, body: EMPTY_BODY }, date, bodyStreamOf([request.body], size))
    this.dispatch(request, date)
  }

  // The head of a request whose body is still arriving. Answers whether the connection took
  // the request over; otherwise (a handshake with a body) parsing goes on. The middleware and
  // the router run on the head now; the body is read beside them, held (reading paused past
  // `HIGH_WATER`) until the route asks for it: `req.body` of a route that streams it, or the
  // dispatch for a route that takes it whole (then the handler gets it in one piece). A
  // refusal is answered before any byte of it is wanted, so `Expect: 100-continue` never is.
  private headArrived(head: Head, view: Uint8Array, date: string, now: number): boolean {
    const plan = this.shared.bodyPlan(head.method, head.path) ?? this.shared.wholePlan
    if (head.framing._tag === 'Length' && head.framing.length > plan.maxBody) {
      this.queue.clear()
      this.answerNow(httpErrorResponse(bodyTooLarge(plan.maxBody)), true)
      return true
    }
    // A WebSocket handshake with a body (no client sends one) is read whole, then decided.
    if (mayUpgrade(head.headers)) {
      this.bodyLimits = plan.limits
      return false
    }
    const reader = startBody(head.framing, plan.maxBody)
    if (E.isLeft(reader)) {
      this.queue.clear()
      this.answerNow(httpErrorResponse(reader.left), true)
      return true
    }
    this.queue.clear()
    this.resume = undefined
    this.firstRequest = false
    this.continued = false
    const length = head.framing._tag === 'Length' ? head.framing.length : undefined
    const body = new RequestBody(length, this.bodyControl(head.expectContinue))
    const intake = new BodyIntake(this.exchanges + 1, body, reader.right, { maxBody: plan.maxBody, maxHeaderBytes: this.shared.httpLimits.maxHeaderBytes }, now, !plan.stream)
    this.intake = intake
    this.wantContinue = false
    this.dispatch(requestOfHead(head, EMPTY_BODY, NO_TRAILERS), date, body)
    this.maybeContinue()
    this.receiveBody(view.subarray(head.end))
    return true
  }

  // What the socket brings while a streamed body is read; after its end, the next requests.
  private receiveBody(chunk: Uint8Array): void {
    const intake = this.intake as BodyIntake
    const now = this.shared.timers.now()
    const step = intake.feed(chunk, now)
    if (step._tag === 'More') return
    if (step._tag === 'Failed') return this.bodyFailed(step.error)
    this.intake = undefined
    if (this.paused) {
      this.paused = false
      this.shared.io.resume(this.socket)
    }
    if (step.rest.length === 0 || this.stopped) return
    this.requestStartedAt = now
    if (this.queue.push(step.rest)) this.parse(now)
    if (this.gathered() || (this.slots.length > 0 && (this.slots[0] as Slot).bytes !== undefined)) this.flush(now)
    this.shared.instrumentation.settle()
  }

  // The streamed body cannot be read to its end: its exchange is answered with the error
  // (unless its answer has begun: then the connection is cut), and the connection closes.
  private bodyFailed(error: HttpError): void {
    const intake = this.intake
    this.intake = undefined
    this.stopped = true
    if (intake === undefined) return
    intake.cut(error)
    this.abort(intake.exchange, `request body: ${error.reason}`)
    const slot = this.slots.find((s) => s.exchange === intake.exchange)
    if (slot === undefined || this.pump !== undefined || slot.stream !== undefined) {
      // Answered and sent already, or streaming its answer: nothing more can be said.
      if (slot !== undefined && slot.bytes !== undefined && this.pump === undefined && slot.stream === undefined) slot.close = true
      else this.shared.io.destroy(this.socket)
      return
    }
    slot.settled = true
    slot.close = true
    slot.stream = undefined
    slot.bytes = serializeResponse(httpErrorResponse(error), { keepAlive: false, date: httpDate(this.shared.timers.now()) })
    if (this.slots[0] === slot) this.flush()
  }

  // The control a streamed body has over this connection.
  private bodyControl(expectContinue = false): { pause(): void; resume(): void; started(): void; abandoned(): void } {
    return {
      pause: () => {
        if (this.paused || this.intake === undefined) return
        this.paused = true
        this.shared.io.pause(this.socket)
      },
      resume: () => {
        if (!this.paused) return
        this.paused = false
        this.shared.io.resume(this.socket)
      },
      // RFC 9110 §10.1.1: 100 Continue once the server means to read the body, and only
      // before its answer (an answer given first makes the client send nothing more).
      started: () => {
        if (!expectContinue) return
        this.wantContinue = true
        this.maybeContinue()
      },
      // The handler will not read the rest: the connection closes after the answer.
      abandoned: () => {
        const intake = this.intake
        if (intake === undefined) return
        this.stopped = true
        if (this.paused) {
          this.paused = false
          this.shared.io.resume(this.socket)
        }
      },
    }
  }

  // `100 Continue` for the streamed body being read, once the answers owed before it are out
  // (RFC 9112 §9.3.2: in order) and while its own answer has not been given.
  private maybeContinue(): void {
    const intake = this.intake
    if (!this.wantContinue || this.continued || intake === undefined) return
    const head = this.slots[0]
    if (head !== undefined && (head.exchange !== intake.exchange || head.bytes !== undefined)) return
    this.continued = true
    this.wantContinue = false
    this.send()
    this.shared.io.write(this.socket, CONTINUE)
  }

  // Whether exchange `exchange` streams a body not read to its end: its connection cannot
  // carry another request. The rest of the body is then read and dropped (not held: reading
  // resumes), so the client can finish sending and read the answer, until the connection closes.
  private unreadBody(exchange: number | undefined): boolean {
    const intake = this.intake
    if (exchange === undefined || intake?.exchange !== exchange) return false
    this.stopped = true
    this.intake = undefined
    intake.cut(bodyIncomplete(intake.body.received))
    if (this.paused) {
      this.paused = false
      this.shared.io.resume(this.socket)
    }
    return true
  }

  // The slot of a streamed answer: its head now, its body from the pump once the head is out.
  private streamSlot(res: Response, request: HttpRequest, keepAlive: boolean, date: string, exchange: number): Slot {
    // An event stream (not for HEAD, which gets the head alone): nothing follows it on this connection.
    if (isEventStreamBody(res.body) && request.method !== 'HEAD' && res.status === 200) {
      this.stopped = true
      const head = serializeStreamHead(res, { keepAlive: false, date, protocol: request.protocol })
      const framing: SseFraming = head.framing === 'chunked' ? 'chunked' : 'close'
      return { bytes: head.bytes, close: true, upgrade: undefined, exchange, sse: { options: res.body.options, framing, request } }
    }
    const head = serializeStreamHead(res, { keepAlive, head: request.method === 'HEAD', date, protocol: request.protocol })
    if (!head.keepAlive) this.stopped = true
    return {
      bytes: head.bytes,
      close: !head.keepAlive,
      upgrade: undefined,
      exchange,
      stream: { body: res.body as StreamBody, framing: head.framing, length: head.length, request },
    }
  }

  // The event stream's head is out: the socket is handed to an event-stream client, with the
  // request's signal (aborted when that client is gone).
  private openEventStream(slot: Slot): void {
    const sse = slot.sse as NonNullable<Slot['sse']>
    const exchange = slot.exchange ?? 0
    const signal = this.signals?.get(exchange)
    this.signals?.delete(exchange)
    this.bodies?.delete(exchange)
    this.shared.openEventStream(this, sse.request, sse.options, sse.framing, signal)
  }

  private startPump(slot: Slot): void {
    const stream = slot.stream as NonNullable<Slot['stream']>
    const { io } = this.shared
    const socket = this.socket
    this.gather(slot.bytes as Uint8Array)
    this.send()
    const pump = new ResponsePump(stream.body.source, stream.framing, stream.length, new SocketSink(io, socket), this.shared.now, (outcome) => this.pumpEnded(slot, outcome))
    this.pump = pump
    pump.start()
  }

  private pumpEnded(slot: Slot, outcome: PumpOutcome): void {
    this.pump = undefined
    const stream = slot.stream as NonNullable<Slot['stream']>
    if (this.slots[0] === slot) this.slots.shift()
    if (slot.exchange !== undefined) this.endExchange(slot.exchange, outcome._tag === 'Sent' ? undefined : 'the streamed answer was cut')
    const { io } = this.shared
    if (outcome._tag === 'Failed') this.shared.onStreamFailed(stream.request, outcome.error)
    else if (outcome._tag === 'Cancelled') this.shared.debug('streamed answer cancelled', { reason: outcome.reason })
    if (outcome._tag !== 'Sent' || this.gone) {
      this.stopped = true
      // A chunked body is left without its last chunk, a sized one short: the client sees it
      // cut. A body delimited by the close would look complete on a FIN: that one is reset.
      if (stream.framing === 'close' || outcome._tag === 'Cancelled') io.destroy(this.socket)
      else io.end(this.socket)
      return
    }
    if (slot.close || this.unreadBody(slot.exchange)) return io.end(this.socket)
    this.flush()
  }

  // The exchange is over: what it held is let go (its signal aborted when it did not complete).
  private endExchange(exchange: number, abortedBecause?: string): void {
    if (abortedBecause !== undefined) this.abort(exchange, abortedBecause)
    this.signals?.delete(exchange)
    this.bodies?.delete(exchange)
  }

  private abort(exchange: number, reason: string): void {
    this.signals?.get(exchange)?.abort(new Error(reason))
  }

  private abortAll(reason: string): void {
    const signals = this.signals
    if (signals === undefined) return
    for (const controller of signals.values()) controller.abort(new Error(reason))
  }

  private parse(now: number): void {
    const { queue, shared } = this
    let bytes = queue.bytes()
    // Requests are read at an offset of `bytes`; a view of the rest is made only for the
    // general parser and for what is kept.
    let at = 0
    const date = httpDate(now)
    while (at < bytes.length && !this.stopped) {
      if (this.resume === undefined) {
        const heads = shared.heads
        const request = readRequest(bytes, at, shared.httpLimits, heads)
        if (request !== undefined) {
          this.continued = false
          this.firstRequest = false
          at = heads.end
          // The scan saw whether a field is named Upgrade: no walk over the headers for it.
          if (heads.upgrade && isWebSocketUpgrade(request)) return this.upgrade(request, bytes.subarray(at))
          this.dispatchWhole(request, date)
          continue
        }
      }
      const view = at === 0 ? bytes : bytes.subarray(at)
      const step = parseHttpRequest(view, (this.resume !== undefined && this.bodyLimits) || shared.httpLimits, this.resume, shared.heads)
      if (E.isLeft(step)) {
        queue.clear()
        this.resume = undefined
        // Not HTTP at all (a TLS hello on the plain port, say): nothing useful to answer.
        // A first byte that is visible ASCII is a malformed request and gets its 400.
        const first = view[0] ?? 0
        if (this.firstRequest && step.left._tag === 'InvalidMethod' && step.left.offset === 0 && (first < 0x21 || first > 0x7e)) {
          shared.debug('connection closed: not HTTP', { firstByte: view[0] })
          this.stopped = true
          shared.io.destroy(this.socket)
          return
        }
        shared.abuse?.note('bad request', { tag: step.left._tag, status: step.left.status })
        shared.debug('bad request', { tag: step.left._tag, status: step.left.status })
        return this.answerNow(httpErrorResponse(step.left), true)
      }
      const result = step.right
      if (result._tag === 'NeedMore') {
        if (this.resume === undefined) this.requestStartedAt = now
        // The head is in, the body is not: the route says how it takes it.
        if (result.resume._tag !== 'Head' && (this.resume === undefined || this.resume.resume._tag === 'Head')) {
          queue.keep(view)
          if (this.headArrived(result.resume.head, view, date, now)) return
        }
        this.resume = result
        if (!this.continued && result.resume._tag !== 'Head' && result.resume.head.expectContinue && this.slots.length === 0) {
          this.continued = true
          // After the answers to the requests before it (RFC 9112 §9.3.2: in order).
          this.send()
          shared.io.write(this.socket, CONTINUE)
        }
        queue.keep(view)
        queue.waitFor(result.atLeast)
        return
      }
      this.resume = undefined
      this.bodyLimits = undefined
      this.continued = false
      this.firstRequest = false
      bytes = result.rest
      at = 0
      const request = result.value
      if (mayUpgrade(request.headers) && isWebSocketUpgrade(request)) return this.upgrade(request, bytes)
      this.dispatchWhole(request, date)
    }
    queue.keep(this.stopped || at === bytes.length ? EMPTY : at === 0 ? bytes : bytes.subarray(at))
  }
}
