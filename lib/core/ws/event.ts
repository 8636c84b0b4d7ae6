/**
 * The event envelope of DESIGN §3 as types: what a client sends and what the server
 * sends back, including the error events. Pure and portable.
 */
import type { TraceContext } from '../trace/trace-context.js'

/** An acknowledgement id chosen by the client. */
export type EventId = string | number

/** One named event: `{"event": name, "data": ..., "id"?: ...}` on the wire. */
export interface EventMessage {
  readonly event: string
  readonly data: unknown
  readonly id?: EventId
  /**
   * The sender's trace (the envelope's optional `traceparent` and `tracestate` fields,
   * docs/protocol.md "Trace context"), read only by a server that traces.
   */
  readonly trace?: TraceContext
}

/** The codes of the error events the server sends (stable: never renamed). */
export type EventErrorCode = 'invalid_json' | 'invalid_message' | 'unknown_event' | 'invalid_payload' | 'handler_error' | 'rate_limited'

/** An error answered to the client as `{"event":"error","data":{"error":code,"message":...}}`. */
export interface EventError {
  readonly code: EventErrorCode
  readonly message: string
  /** The id of the request that failed, when it had one. */
  readonly id?: EventId
  /** Extra facts, e.g. the io-ts paths that failed for `invalid_payload`. */
  readonly details?: unknown
}
