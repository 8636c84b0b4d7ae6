/**
 * `TraceContext`: a span's identity as W3C Trace Context writes it (the `traceparent` and
 * `tracestate` header values), the one shape a trace travels in: in HTTP headers, in an event
 * envelope's optional fields (docs/protocol.md, "Trace context"), in a request between nodes,
 * and to handlers (`req.trace`, `ctx.trace`) so their own spans nest. No tracing library is
 * imported: `twinport/otel` turns it into an OpenTelemetry context. Pure and portable: no
 * node:* imports.
 */

/** A span's context as W3C Trace Context text. */
export interface TraceContext {
  /** `00-<trace id: 32 hex>-<parent id: 16 hex>-<flags: 2 hex>` (W3C Trace Context §3.2). */
  readonly traceparent: string
  /** Vendor entries, `key=value` pairs separated by commas (W3C Trace Context §3.3), when any. */
  readonly tracestate?: string
}

/** The fields of a `traceparent` value. */
export interface TraceParent {
  /** 32 lower-case hex digits, not all zero. */
  readonly traceId: string
  /** 16 lower-case hex digits, not all zero. */
  readonly spanId: string
  /** The trace flags (bit 0: sampled). */
  readonly flags: number
}

// W3C Trace Context §3.2.2: version 00 is exactly 55 characters; a higher version may append
// `-…` fields we do not know, and version ff is invalid.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/
const ZERO_TRACE = '00000000000000000000000000000000'
const ZERO_SPAN = '0000000000000000'
// A tracestate longer than the specification's 32 entries of 256 characters is not ours to keep.
const MAX_TRACESTATE = 8192

/**
 * Reads a `traceparent` value; `undefined` for anything W3C Trace Context says to ignore
 * (a bad shape, version `ff`, an all-zero id, fields after version 00's four).
 *
 * @example
 * parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')
 * // { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', flags: 1 }
 * parseTraceparent('00-00000000000000000000000000000000-00f067aa0ba902b7-01') // undefined
 */
export const parseTraceparent = (value: string): TraceParent | undefined => {
  const m = TRACEPARENT.exec(value.trim())
  if (m === null) return undefined
  const [, version, traceId, spanId, flags, more] = m as unknown as [string, string, string, string, string, string | undefined]
  if (version === 'ff' || (version === '00' && more !== undefined)) return undefined
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined
  return { traceId, spanId, flags: parseInt(flags, 16) }
}

/**
 * The `traceparent` text of a span (version 00).
 *
 * @example
 * formatTraceparent({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', flags: 1 })
 * // '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
 */
export const formatTraceparent = (parent: TraceParent): string =>
  `00-${parent.traceId}-${parent.spanId}-${(parent.flags & 0xff).toString(16).padStart(2, '0')}`

/**
 * A trace context from untrusted values (a header, an envelope's fields): `undefined` unless
 * `traceparent` is a string `parseTraceparent` takes; a `tracestate` that is not a string, or
 * too long, is dropped (W3C Trace Context §3.3.1.1: the parent stands without it).
 *
 * @example
 * traceContextOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'congo=t61rcWkgMzE')
 * // { traceparent: '00-4bf92f…-01', tracestate: 'congo=t61rcWkgMzE' }
 * traceContextOf(42, undefined) // undefined
 */
export const traceContextOf = (traceparent: unknown, tracestate: unknown): TraceContext | undefined => {
  if (typeof traceparent !== 'string' || parseTraceparent(traceparent) === undefined) return undefined
  const parent = traceparent.trim()
  return typeof tracestate === 'string' && tracestate !== '' && tracestate.length <= MAX_TRACESTATE ? { traceparent: parent, tracestate } : { traceparent: parent }
}

/**
 * The trace context of an HTTP request's headers (`traceparent`, `tracestate`; names in any
 * case; repeated `tracestate` lines joined with commas, as RFC 9110 §5.3 combines them).
 *
 * @example
 * traceContextOfHeaders([['Traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01']])
 * // { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }
 */
export const traceContextOfHeaders = (headers: readonly (readonly [string, string])[]): TraceContext | undefined => {
  let parent: string | undefined
  let state: string | undefined
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i] as readonly [string, string]
    // Both names are 10 and 11 characters long: the length tells most headers apart first.
    if (name.length === 11 && name.toLowerCase() === 'traceparent') {
      // Two traceparent lines: W3C Trace Context §3.2 says to ignore both.
      if (parent !== undefined) return undefined
      parent = value
    } else if (name.length === 10 && name.toLowerCase() === 'tracestate') state = state === undefined ? value : `${state},${value}`
  }
  return parent === undefined ? undefined : traceContextOf(parent, state)
}
