/**
 * `upgradeTrace`: the trace context a WebSocket connection was opened in, read from its upgrade
 * request: the `traceparent` / `tracestate` headers, else the query parameters of the same names
 * (a browser's WebSocket cannot send headers: the twinport client's `traceparent` option puts
 * them in the URL, docs/protocol.md "Trace context"). Pure and portable: no node:* imports.
 */
import { parseQuery } from './parse-query.js'
import { type TraceContext, traceContextOf, traceContextOfHeaders } from '../trace/trace-context.js'

/** What `upgradeTrace` reads of a request. */
export interface UpgradeTraceSource {
  readonly headers: readonly (readonly [string, string])[]
  readonly rawQuery: string
}

/**
 * The upgrade's trace context, or `undefined` when it carries none (or an invalid one).
 *
 * @example
 * upgradeTrace({ headers: [], rawQuery: 'traceparent=00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' })
 * // { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }
 */
export const upgradeTrace = (request: UpgradeTraceSource): TraceContext | undefined => {
  const fromHeaders = traceContextOfHeaders(request.headers)
  if (fromHeaders !== undefined || !request.rawQuery.includes('traceparent=')) return fromHeaders
  const query = parseQuery(request.rawQuery)
  return traceContextOf(query['traceparent'], query['tracestate'])
}
