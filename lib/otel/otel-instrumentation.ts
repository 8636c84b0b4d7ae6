/**
 * `otelInstrumentation`: the engine's `Instrumentation` as OpenTelemetry. Spans: one per HTTP
 * request (SERVER, `GET /users/{id}`, its parent the `traceparent` header), one per event
 * dispatched (CONSUMER, `process chat`, its parent the envelope's `traceparent`), one per
 * cluster query this node makes (CLIENT) and answers (SERVER, its parent the asking node's
 * query, carried in the request across the cluster adapter). Handlers get their span as
 * `req.trace` / `ctx.trace`. Metrics: the server's registry exported through the Meter API
 * (`exportRegistry`) when the server starts (`bind`). Imports `@opentelemetry/api` (an
 * optional peer dependency), the core and the engine's types; never `node:*`.
 */
import {
  type Attributes,
  type Context,
  createTraceState,
  isSpanContextValid,
  type MeterProvider,
  metrics,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api'
import type { HttpRequest } from '../core/http/types.js'
import { formatTraceparent, parseTraceparent, type TraceContext, traceContextOfHeaders } from '../core/trace/trace-context.js'
import type { EventEnd, Instrumentation, InstrumentedServer } from '../engine/instrumentation/instrumentation.js'
import { exportRegistry } from './export-registry.js'
import { SpanSlots } from './span-slots.js'

/** What `otelInstrumentation` reports to. */
export interface OtelOptions {
  /** Where spans go (the global provider, `trace.getTracerProvider()`, when absent). */
  readonly tracerProvider?: TracerProvider
  /** Where the metrics go (the global provider when absent); `false`: spans only. */
  readonly meterProvider?: MeterProvider | false
  /** The instrumentation scope's name (default `twinport`). */
  readonly name?: string
}

/** The `Instrumentation` an `otelInstrumentation` call answers, with the spans it has open (for tests). */
export interface OtelInstrumentation extends Instrumentation {
  /** Spans started and not ended yet. */
  readonly openSpans: () => number
}

const SCOPE_VERSION = '0.1.0'

// A remote parent (what came in a header, an envelope or a cluster request) as a context.
const parentContext = (parent: TraceContext | undefined): Context => {
  if (parent === undefined) return ROOT_CONTEXT
  const parsed = parseTraceparent(parent.traceparent)
  if (parsed === undefined) return ROOT_CONTEXT
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parsed.traceId,
    spanId: parsed.spanId,
    traceFlags: parsed.flags,
    isRemote: true,
    ...(parent.tracestate === undefined ? {} : { traceState: createTraceState(parent.tracestate) }),
  })
}

const END_ERRORS: ReadonlySet<string> = new Set(['handler_error'])

/**
 * The instrumentation of the `instrumentation` server option, reporting to OpenTelemetry.
 * Give each server its own (its spans carry that server's node).
 *
 * @example
 * const server = await runServer({ routes, instrumentation: otelInstrumentation({ tracerProvider, meterProvider }) })
 */
export const otelInstrumentation = (options: OtelOptions = {}): OtelInstrumentation => {
  const name = options.name ?? 'twinport'
  const tracer: Tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(name, SCOPE_VERSION)
  const slots = new SpanSlots()
  // The node is set on each span after it starts: no attributes object is copied per span.
  let node = ''
  const start = (spanName: string, kind: SpanKind, parent: TraceContext | undefined, attributes: Attributes): number => {
    const span = tracer.startSpan(spanName, { kind, attributes }, parentContext(parent))
    if (node !== '') span.setAttribute('twinport.node', node)
    return slots.open(span)
  }
  const end = (slot: number, set: (span: Span) => void): void => {
    const span = slots.close(slot)
    if (span === undefined) return
    set(span)
    span.end()
  }
  const nothing = (): void => undefined
  return {
    active: true,
    tracing: true,
    openSpans: () => slots.size,
    bind: (server: InstrumentedServer) => {
      node = server.node
      const provider = options.meterProvider === undefined ? metrics.getMeterProvider() : options.meterProvider
      if (provider !== false && server.registry !== undefined) exportRegistry(server.registry, provider.getMeter(name, SCOPE_VERSION))
    },
    requestStarted: (method: string, _now: number, request: HttpRequest) =>
      start(method, SpanKind.SERVER, traceContextOfHeaders(request.headers), {
        'http.request.method': method,
        'url.path': request.path,
        'url.scheme': 'http',
        'network.protocol.version': request.protocol === 'HTTP/1.0' ? '1.0' : '1.1',
      }),
    requestAnswered: (method, route, status, slot) =>
      end(slot, (span) => {
        if (route !== undefined) {
          span.updateName(`${method} ${route}`)
          span.setAttribute('http.route', route)
        }
        span.setAttribute('http.response.status_code', status)
        if (status >= 500) {
          span.setAttribute('error.type', String(status))
          span.setStatus({ code: SpanStatusCode.ERROR })
        }
      }),
    settle: nothing,
    eventStarted: (event, parent) =>
      start(`process ${event}`, SpanKind.CONSUMER, parent, {
        'messaging.system': 'twinport',
        'messaging.operation.name': 'process',
        'messaging.operation.type': 'process',
        'messaging.destination.name': event,
      }),
    eventSettled: (_event: string, outcome: EventEnd, code, slot) =>
      end(slot, (span) => {
        span.setAttribute('twinport.event.outcome', outcome)
        if (code === undefined) return
        span.setAttribute('error.type', code)
        if (END_ERRORS.has(code)) span.setStatus({ code: SpanStatusCode.ERROR, message: code })
      }),
    inputRejected: nothing,
    eventSent: nothing,
    slowConsumer: nothing,
    sessionResume: nothing,
    clusterPublished: nothing,
    clusterReceived: nothing,
    traceOf: (slot) => {
      const context = slots.get(slot)?.spanContext()
      if (context === undefined || !isSpanContextValid(context)) return undefined
      const traceparent = formatTraceparent({ traceId: context.traceId, spanId: context.spanId, flags: context.traceFlags })
      const state = context.traceState?.serialize()
      return state === undefined || state === '' ? { traceparent } : { traceparent, tracestate: state }
    },
    clusterRequestStarted: (query, parent) => start(`cluster ${query}`, SpanKind.CLIENT, parent, { 'twinport.cluster.query': query }),
    clusterRequestEnded: (answered, missing, slot) =>
      end(slot, (span) => {
        span.setAttribute('twinport.cluster.answered', answered)
        span.setAttribute('twinport.cluster.missing', missing)
      }),
    clusterAnswerStarted: (query, from, parent) =>
      start(`cluster ${query}`, SpanKind.SERVER, parent, { 'twinport.cluster.query': query, 'twinport.cluster.from_node': from }),
    clusterAnswerEnded: (error, slot) =>
      end(slot, (span) => {
        if (error === undefined) return
        span.setAttribute('error.type', error)
        if (error === 'handler_error') span.setStatus({ code: SpanStatusCode.ERROR, message: error })
      }),
  }
}
