/**
 * `SseConnection`: a Server-Sent Events client after its answer's head (docs/decisions.md
 * "Server-Sent Events"): a client of the registry like a WebSocket connection (its id, its
 * namespace and rooms, `send` and `broadcast` reach it through delivery, which writes each
 * broadcast's event-stream bytes, built once, to every such receiver, under the same
 * slow-consumer rule), with the event stream as its only direction. The client says nothing
 * after its request: bytes it sends are dropped; its FIN ends the stream. What it sends the
 * server comes in `POST`s (`ssePostRoute`, `receiveText`), dispatched as WebSocket messages are.
 *
 * Liveness: every heartbeat writes a comment (`:` and an empty line; for a session client the
 * `tp:heartbeat` event its client watches for), which keeps proxies from timing the stream out. A client gone without a FIN stops taking bytes: a backlog not
 * taken between two heartbeats (no `writable` in between) ends the connection, and with it
 * the request's signal. Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import { dispatchEvent } from '../../core/route/dispatch-event.js'
import type { SocketContext } from '../../core/route/socket-context.js'
import { decodeEnvelopes, encodeAck, encodeErrorEvent } from '../../core/ws/envelope.js'
import type { EventError, EventId, EventMessage } from '../../core/ws/event.js'
import { LAST_CHUNK } from '../../core/http/chunk-framing.js'
import type { SseFraming } from '../../core/sse/sse-wire.js'
import { type ClientSession, PENDING } from '../recovery/client-session.js'
import type { TimerId } from '../platform.js'
import type { SseShared } from './sse-shared.js'
import { reportOutcome, withTrace } from '../instrumentation/instrumentation.js'
import { pingSettled, stampPing } from './heartbeat-wheel.js'

// The bits of `SseConnection.flags` (the bits from 8 up hold the last heartbeat's tick, heartbeat-wheel.ts).
const SERVER_CLOSED = 1
const SHUT = 2
const STALLED = 4
const CLOSING = 8

export class SseConnection<S> {
  inFlight = 0
  /** The last sliced broadcast written to it (`Outlet.lastBroadcast`, delivery/broadcast-slices.ts). */
  lastBroadcast = 0
  /** The client's session, when recovery is on (numbered events, `Last-Event-ID`). */
  session: ClientSession | undefined = undefined
  private flags = 0
  private closeTimer: TimerId | undefined = undefined

  constructor(
    readonly ctx: SocketContext & { readonly socket: S },
    /** How the answer's body is delimited: chunks (HTTP/1.1), or the close (HTTP/1.0). */
    readonly eventStream: SseFraming,
    private readonly shared: SseShared<S>,
    /** The request's signal, when its handler asked for it: aborted when the client is gone. */
    private readonly signal: AbortController | undefined,
  ) {}

  /** The connection's socket (its client's). */
  get socket(): S {
    return this.ctx.socket
  }

  /** An event stream has no compression of its own (`Outlet`). */
  get deflate(): undefined {
    return undefined
  }

  /** An event stream has no close code: a link that just broke (for recovery). */
  get peerCloseCode(): undefined {
    return undefined
  }

  /** The server ended this connection on purpose (disconnectClient, shutdown, slow): no recovery. */
  get serverClosed(): boolean {
    return (this.flags & SERVER_CLOSED) !== 0
  }

  /** The stream's end is written: nothing may follow it (`Outlet`). */
  get shut(): boolean {
    return (this.flags & SHUT) !== 0
  }
  set shut(on: boolean) {
    this.flags = on ? this.flags | SHUT : this.flags & ~SHUT
  }

  /** A client sends nothing on an event stream after its request: dropped. */
  receive(_chunk: Uint8Array): void {}

  /** The client closed its side (`EventSource.close()`, a tab gone): ours ends too. */
  peerEnded(): void {
    this.flags |= CLOSING
    this.shared.io.end(this.socket)
  }

  /** The socket took its backlog: the client is reading. */
  writable(): void {
    this.flags &= ~STALLED
  }

  /** Writes a text of the event stream (an event, a comment), framed, under the slow-consumer rule. */
  sendText(text: string): void {
    this.shared.sendText(this, text)
  }

  /**
   * What the client posted (`eventPost`): its envelopes (one, or a batch separated by RS), each
   * dispatched as a WebSocket connection dispatches one: error events for bad ones, a retried
   * id answered once from the session, the acks numbered onto the stream.
   */
  receiveText(text: string): void {
    if ((this.flags & CLOSING) !== 0) return
    for (const envelope of decodeEnvelopes(text, true, this.shared.instrumentation.tracing)) this.onEnvelope(envelope)
  }

  private onEnvelope(envelope: E.Either<EventError, EventMessage>): void {
    const { shared } = this
    const clientId = this.ctx.clientId
    const instrumentation = shared.instrumentation
    if (E.isLeft(envelope)) {
      instrumentation.inputRejected(envelope.left.code)
      return shared.sendToSession(clientId, encodeErrorEvent(envelope.left))
    }
    const { event, id } = envelope.right
    // The answer to a server request: never dispatched.
    if ((event === 'ack' || event === 'error') && shared.answered(clientId, id, envelope.right.data, event === 'error')) return
    const session = id === undefined ? undefined : this.session
    if (session !== undefined) {
      const answer = session.answerOf(id as EventId)
      if (answer === PENDING) return
      if (answer !== undefined) return shared.sendToSession(clientId, answer)
      session.remember(id as EventId, PENDING)
    }
    const started = instrumentation.active ? instrumentation.eventStarted(event, envelope.right.trace) : 0
    const ctx = instrumentation.tracing ? withTrace(this.ctx, instrumentation.traceOf(started)) : this.ctx
    void dispatchEvent(shared.compiled, envelope.right, ctx, { middleware: shared.wsMiddleware, onError: shared.onError }).then((outcome) => {
      if (instrumentation.active) reportOutcome(instrumentation, event, outcome, started)
      const text = outcome._tag === 'Ack' ? this.ackText(outcome.id, outcome.value, event) : outcome._tag === 'Failed' ? encodeErrorEvent(outcome.error) : undefined
      if (session !== undefined) {
        if (text === undefined) session.forget(id as EventId)
        else session.remember(id as EventId, text)
      }
      if (text !== undefined) shared.sendToSession(this.ctx.clientId, text)
    })
  }

  // A return value JSON cannot hold is the handler's failure, not a crash.
  private ackText(id: EventId, value: unknown, event: string): string {
    try {
      return encodeAck(id, value)
    } catch (error) {
      this.shared.onError(error, { phase: 'event', clientId: this.ctx.clientId, event })
      return encodeErrorEvent({ code: 'handler_error', message: `the answer of "${event}" is not JSON`, id })
    }
  }

  /**
   * The heartbeat wheel's visit at tick `tick` (`Beating`): a heartbeat to keep the stream
   * alive; a backlog untaken since the last heartbeat, `settle` ticks ago or more, ends the connection.
   */
  heartbeat(tick: number, settle: number): void {
    const { io } = this.shared
    if ((this.flags & CLOSING) !== 0) return
    const waiting = io.buffered(this.socket)
    if ((this.flags & STALLED) !== 0 && waiting > 0) {
      // The last heartbeat is too recent to judge (the connection moved up the table).
      if (!pingSettled(this.flags, tick, settle)) return
      this.shared.debug('event-stream client stopped taking bytes', { clientId: this.ctx.clientId, waiting })
      io.destroy(this.socket)
      return
    }
    this.flags = stampPing(this.flags, tick)
    if (waiting > 0) this.flags |= STALLED
    this.shared.admit(this, this.shared.heartbeatOf(this.eventStream, this.session !== undefined))
  }

  /**
   * Ends the stream (disconnectClient, shutdown; `code` and `reason` are the WebSocket's and
   * have no place on an event stream): the last chunk, then the end. The browser reconnects
   * by itself unless the route answers its next request otherwise.
   */
  close(_code: number, _reason = ''): void {
    if ((this.flags & CLOSING) !== 0) return
    this.flags |= CLOSING | SERVER_CLOSED
    const { io } = this.shared
    if (!io.isClosed(this.socket) && this.eventStream === 'chunked' && !this.shut) io.write(this.socket, LAST_CHUNK)
    this.shut = true
    io.end(this.socket)
    this.destroyLater()
  }

  /** Slow consumer (delivery decided): nothing more is written; the stream is cut. */
  dropSlow(): void {
    if ((this.flags & CLOSING) !== 0) return
    this.flags |= CLOSING | SERVER_CLOSED | SHUT
    this.shared.io.end(this.socket)
    this.destroyLater()
  }

  /** The socket is gone: the request's signal aborts, the close timer stops. */
  closed(): void {
    if (this.closeTimer !== undefined) this.shared.timers.clearTimeout(this.closeTimer)
    this.signal?.abort(new Error('the client went away'))
  }

  private destroyLater(): void {
    if (this.closeTimer !== undefined) return
    const { socket, shared } = this
    this.closeTimer = shared.timers.setTimeout(() => shared.io.destroy(socket), shared.closeTimeoutMs)
  }
}
