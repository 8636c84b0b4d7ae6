/**
 * `eventStream(options)`: the answer that makes a request's connection a Server-Sent Events
 * client of the server (DESIGN §8: a transport, not a feature beside the server). Like
 * `stream(...)` it is a value: the core only describes it (status, headers, the namespace and
 * rooms the client joins, the `retry:` it is told); the engine sends the head and hands the
 * socket to a client of its registry, reached by `send` and `broadcast` like a WebSocket
 * client. A handler may return it after its own checks (authentication, the rooms a user may
 * see); `sseRoute` is the route that always does.
 *
 * Pure and portable: no node:* imports.
 */
import { type HeaderInput, normalizeHeaders } from '../http/normalize-headers.js'
import { StreamBody } from '../http/stream-body.js'
import type { Header, Response } from '../http/types.js'
import { EVENT_STREAM_TYPE } from './sse-event.js'

/** What an event-stream client joins and is told when it opens. */
export interface EventStreamOptions {
  /** The namespace the client joins (`/` unless told otherwise). */
  readonly namespace?: string
  /** Rooms of that namespace it joins before its connect handlers run. */
  readonly rooms?: readonly string[]
  /** The reconnection time (ms) the browser is told (`retry:`), sent first. */
  readonly retry?: number
  /** More headers for the answer (a cookie, say); the framing and caching headers are the engine's. */
  readonly headers?: HeaderInput
}

// Nothing: an event stream's body comes from the registry, not from a source.
async function* nothing(): AsyncGenerator<Uint8Array> {}

/**
 * The body of an event-stream answer. A `StreamBody` whose own source is empty, so that code
 * that knows only streamed bodies (an in-process exchange) answers the head and an empty
 * stream; the engine recognises it and keeps the connection as a client.
 */
export class EventStreamBody extends StreamBody {
  constructor(readonly options: EventStreamOptions) {
    super(nothing(), undefined)
  }
}

/**
 * Whether a body is an {@link EventStreamBody}.
 *
 * @example
 * isEventStreamBody(eventStream().body) // true
 */
export const isEventStreamBody = (body: unknown): body is EventStreamBody => body instanceof EventStreamBody

// WHATWG §9.2.8 ("Authoring notes"), and proxies that buffer: no caching, no buffering (nginx
// reads `X-Accel-Buffering`).
const STREAM_HEADERS: readonly Header[] = Object.freeze([Object.freeze(['Cache-Control', 'no-cache'] as const), Object.freeze(['X-Accel-Buffering', 'no'] as const)])

/**
 * An answer that makes the connection an event-stream client (200, `text/event-stream;
 * charset=utf-8`, `Cache-Control: no-cache`, `X-Accel-Buffering: no`).
 *
 * @example
 * httpRoute('GET', '/feed', (req) => (isSignedIn(req) ? eventStream({ rooms: ['news'] }) : unauthorized()))
 */
export const eventStream = (options: EventStreamOptions = {}): Response => {
  const extra = normalizeHeaders(options.headers ?? {}).headers.filter(([name]) => {
    const lower = name.toLowerCase()
    return lower !== 'cache-control' && lower !== 'x-accel-buffering'
  })
  return {
    _tag: 'Response',
    status: 200,
    headers: extra.length === 0 ? STREAM_HEADERS : [...STREAM_HEADERS, ...extra],
    contentType: EVENT_STREAM_TYPE,
    body: new EventStreamBody(options),
  }
}
