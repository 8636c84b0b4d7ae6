/**
 * `otelContext`: a twinport `TraceContext` (a handler's `req.trace` / `ctx.trace`, or one that
 * came in a message) as an OpenTelemetry `Context`, so that the spans a handler starts nest
 * under the request's or the event's span. Imports `@opentelemetry/api` (an optional peer
 * dependency) and the core; never `node:*`.
 */
import { type Context, context, createTraceState, trace } from '@opentelemetry/api'
import { parseTraceparent, type TraceContext } from '../core/trace/trace-context.js'

/**
 * `base` (the active context by default) with `parent` as its span; `base` itself when there
 * is no parent or it does not parse.
 *
 * @example
 * httpRoute('GET', '/report', (req) => tracer.startActiveSpan('build report', {}, otelContext(req.trace), (span) => { ...; span.end() }))
 */
export const otelContext = (parent: TraceContext | undefined, base: Context = context.active()): Context => {
  if (parent === undefined) return base
  const parsed = parseTraceparent(parent.traceparent)
  if (parsed === undefined) return base
  return trace.setSpanContext(base, {
    traceId: parsed.traceId,
    spanId: parsed.spanId,
    traceFlags: parsed.flags,
    isRemote: false,
    ...(parent.tracestate === undefined ? {} : { traceState: createTraceState(parent.tracestate) }),
  })
}
