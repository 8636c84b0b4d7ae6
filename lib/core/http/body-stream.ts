/**
 * `BodyStream`: a request body taken as it arrives, by a route declared with
 * `{ body: 'stream' }` (DESIGN §8). The core only describes it; the engine implements it over
 * the connection, reading from the socket only while the handler consumes (socket reads are
 * paused otherwise), so memory stays bounded whatever the upload's size.
 *
 * Types and one error class; pure and portable: no node:* imports.
 */
import type { HttpError } from './http-error.js'
import type { TraceContext } from '../trace/trace-context.js'

/** A request body read as it arrives. Read it once, one way. */
export interface BodyStream extends AsyncIterable<Uint8Array> {
  /** The announced `Content-Length`, or `undefined` for a chunked body. */
  readonly length: number | undefined
  /** The body as a web `ReadableStream` (for libraries of the web-streams world). */
  stream(): ReadableStream<Uint8Array>
  /** The whole body in one array (bounded by the route's `maxBody`). */
  bytes(): Promise<Uint8Array>
  /** The whole body as UTF-8 text (bounded likewise). */
  text(): Promise<string>
}

/**
 * What reading a `BodyStream` throws when the body cannot be read: past the route's limit
 * (413), badly framed (400), or cut off (the client went away: 400 `body_incomplete`). The
 * server has answered it already; `error` is the tagged value.
 */
export class BodyStreamError extends Error {
  constructor(readonly error: HttpError) {
    super(`request body: ${error.reason}`)
    this.name = 'BodyStreamError'
  }
}

/**
 * What a request knows of the exchange it belongs to, given by the server that reads it: the
 * exchange's cancellation signal and the body still to be read (streamed, or held back from the middleware). A server
 * passes itself and the exchange's number, so a request costs no object of its own for this.
 */
export interface ExchangeOwner {
  /** Aborted when the client goes away, the exchange times out, or the server drains. */
  signalOf(exchange: number): AbortSignal
  /**
   * The body of the exchange still to be read: for a route that streams its body, that body;
   * for a route that takes it whole, the body the server held back from the middleware (the
   * dispatch reads it once the middleware and the router let the request through, and gives the
   * handler a request carrying it). `undefined` when the request carries its body itself.
   */
  bodyOf(exchange: number): BodyStream | undefined
  /**
   * Told which route took the exchange (its path template, `/users/{id}`), as the router finds
   * it; a server's metrics label the request with it (never with the raw path).
   */
  routed?(exchange: number, route: string): void
  /** The peer's address as the socket saw it, when the server knows it. */
  remoteAddress?(): string | undefined
  /** The span of the exchange as W3C Trace Context, when the server traces it. */
  traceOf?(exchange: number): TraceContext | undefined
}
