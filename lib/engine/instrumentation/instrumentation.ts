/**
 * `Instrumentation`: the one interface through which the engine tells what happens in it, at
 * the points where it happens (an HTTP request read and answered, an event dispatched and
 * settled, an error event sent, a slow consumer dropped, a session resumed or not, a frame
 * published to or received from the cluster). Metrics (`metricsInstrumentation`) implement it
 * and a tracer (`otelInstrumentation` in `twinport/otel`, or any implementation the `instrumentation`
 * option gets) implement the same points; `combineInstrumentation` runs two. Calls carry only
 * values the engine already holds (no object per call), and a `started` token the
 * implementation chose (a time for metrics, a span slot for a tracer). The default,
 * `NO_INSTRUMENTATION`, does nothing. Must not import `node:*`, Buffer or process.
 */
import type { HttpRequest } from '../../core/http/types.js'
import type { MetricsRegistry } from '../../core/metrics/metrics-registry.js'
import type { EventOutcome } from '../../core/route/event-outcome.js'
import type { TraceContext } from '../../core/trace/trace-context.js'

/** Why a session resume asked for at an upgrade ended as it did. */
export type ResumeOutcome = 'resumed' | 'gap' | 'unknown_session' | 'other'

/** How an event dispatch ended: an acknowledgement, nothing to answer, or an error event. */
export type EventEnd = 'ack' | 'no_reply' | 'error'

/** What a server tells its instrumentation once, when it starts (`bind`). */
export interface InstrumentedServer {
  /** The server's metrics registry; `undefined` with `metrics: false`. */
  readonly registry: MetricsRegistry | undefined
  /** This node's id in its cluster (`local` alone). */
  readonly node: string
}

export interface Instrumentation {
  /** Whether the engine should call anything at all (`false`: the no-op; hot paths skip even the calls). */
  readonly active: boolean
  /**
   * Whether this implementation makes spans: the engine then reads the trace context of what
   * comes in (the `traceparent` field of envelopes) and hands handlers their span (`traceOf`).
   */
  readonly tracing: boolean
  /** Called once by the server that uses it, when it starts (a tracer exports the registry's instruments from here). */
  bind?(server: InstrumentedServer): void
  /**
   * An HTTP request was read and is being dispatched; `now` is the engine's clock (ms) when its
   * bytes came, already read for the time-outs (a clock read costs as much as a small request
   * on some hosts); `request` is the parsed request (a tracer reads `traceparent` from its
   * headers). Answers the token given to `requestAnswered`.
   */
  requestStarted(method: string, now: number, request: HttpRequest): number
  /**
   * The request's answer is ready to leave (its head, for a streamed answer): `route` is the
   * matched route's path template (`/users/{id}`), `undefined` when no route matched. `ended`
   * is the engine's clock then (ms); absent for an answer given while its chunk is handled:
   * its end is the end of the I/O turn that saw the next `settle` (an implementation may take it there).
   */
  requestAnswered(method: string, route: string | undefined, status: number, started: number, ended?: number): void
  /**
   * The chunk is handled: the answers given without an end time are out. The metrics time them
   * at the end of the I/O turn (one clock read for every connection's answers of the turn).
   */
  settle(): void
  /**
   * An event envelope from a WebSocket or event-stream client is dispatched to its route;
   * `parent` is the envelope's trace context (read only when `tracing`). Answers a token.
   */
  eventStarted(event: string, parent: TraceContext | undefined): number
  /** The event's dispatch settled: `code` is the error event's code when `end` is `'error'`. */
  eventSettled(event: string, end: EventEnd, code: string | undefined, started: number): void
  /** A message came without a route to take it (bad JSON, a bad envelope), answered with error `code`. */
  inputRejected(code: string): void
  /** An event was sent by the server (`send`, `broadcast`: once per call, whatever the receivers). */
  eventSent(event: string): void
  /** A client was disconnected because its send buffer passed `maxSendBuffer`. */
  slowConsumer(): void
  /** A client asked to resume a session; how it ended. */
  sessionResume(outcome: ResumeOutcome): void
  /** A broadcast was handed to the cluster. */
  clusterPublished(): void
  /** Frames from another node were delivered here (a broadcast, or one client's). */
  clusterReceived(): void
  /**
   * The span of the request, event or cluster call of token `started` as W3C Trace Context
   * (what a handler gets as `req.trace` / `ctx.trace`, and what a cluster request carries);
   * `undefined` without tracing. Asked only when `tracing`.
   */
  traceOf(started: number): TraceContext | undefined
  /**
   * This node asks the others (`server.cluster`: `query` is the request's kind, `event` for
   * `emit`); `parent` is the caller's trace (`{ trace }` in the query's options). Answers a token.
   */
  clusterRequestStarted(query: string, parent: TraceContext | undefined): number
  /** The cluster request settled: how many nodes answered and how many live ones did not. */
  clusterRequestEnded(answered: number, missing: number, started: number): void
  /** Another node's request (`from`) is answered here; `parent` is the trace it carried. Answers a token. */
  clusterAnswerStarted(query: string, from: string, parent: TraceContext | undefined): number
  /** The answer is ready; `error` names why the handler gave none (`no_handler`, `handler_error`…). */
  clusterAnswerEnded(error: string | undefined, started: number): void
}

const zero = (): number => 0
const nothing = (): void => undefined

/** Does nothing; the engine's default. */
export const NO_INSTRUMENTATION: Instrumentation = Object.freeze({
  active: false,
  tracing: false,
  requestStarted: zero,
  requestAnswered: nothing,
  settle: nothing,
  eventStarted: zero,
  eventSettled: nothing,
  inputRejected: nothing,
  eventSent: nothing,
  slowConsumer: nothing,
  sessionResume: nothing,
  clusterPublished: nothing,
  clusterReceived: nothing,
  traceOf: (): undefined => undefined,
  clusterRequestStarted: zero,
  clusterRequestEnded: nothing,
  clusterAnswerStarted: zero,
  clusterAnswerEnded: nothing,
})

/** Tells `instrumentation` how an event dispatch settled (what `WsConnection` and `SseConnection` both call). */
export const reportOutcome = (instrumentation: Instrumentation, event: string, outcome: EventOutcome, started: number): void => {
  if (outcome._tag === 'Ack') instrumentation.eventSettled(event, 'ack', undefined, started)
  else if (outcome._tag === 'Failed') instrumentation.eventSettled(event, 'error', outcome.error.code, started)
  else instrumentation.eventSettled(event, 'no_reply', undefined, started)
}

/**
 * The context one event's handlers get when the server traces: the connection's context with
 * `trace` (the event's span) on top. Concurrent events of one connection each see their own,
 * after an `await` too; the operations are the connection's (read through the prototype).
 */
export const withTrace = <C extends object>(ctx: C, trace: TraceContext | undefined): C =>
  trace === undefined ? ctx : (Object.create(ctx, { trace: { value: trace, enumerable: true } }) as C)
