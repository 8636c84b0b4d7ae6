/**
 * A WebSocket connection after the handshake: feeds the socket's bytes to the pure frame
 * decoder and message assembler, performs what they return (dispatch, pong, close), and
 * owns the close handshake (RFC 6455 §7). Holds no protocol knowledge of its own.
 *
 * A class on purpose: a server holds tens of thousands of these, so the state is a few
 * fields and the behaviour lives once on the prototype; what every connection shares (limits,
 * routes, hooks) is one `WsShared` record per server. Eight fields: five yes-or-no facts
 * are bits of one, and what few connections use (a client session, batching, fragments, the
 * close) is one record behind accessors, made when first needed (docs/decisions.md).
 *
 * Small whole frames (the most common: one masked text or binary frame of at most 125 bytes)
 * are read without a value per frame, unmasked into one output buffer per chunk as the frames
 * that answer them (lib/core/ws/unmask-small-run.ts), and the texts of a run of ASCII frames
 * are slices of one string read for the whole run; a text an `onMessage` route answers
 * with itself (an echo) stays where it is, and the echoes of a chunk leave in one write,
 * released early when anything else is written to the connection (`release`). Every other
 * frame goes through the general decoder and assembler, which give every error answer.
 *
 * With permessage-deflate negotiated, `deflate` holds the connection's compression
 * (lib/engine/deflate/ws-deflate.ts): frames leave through its ordered queue, a compressed message
 * is inflated before it is dispatched (the bytes after it wait), and the end of the
 * connection waits for the frames sent before it.
 *
 * Longer than the engine's other files on purpose: it is one state machine (RFC 6455 §7's
 * open, closing and closed, the fragments of a message, an inflate in flight) whose
 * transitions read each other's flags; cut in two, each half would need the other's private
 * state. Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import { dispatchEvent } from '../../core/route/dispatch-event.js'
import { dispatchRawNow, type RawOutcome } from '../../core/route/dispatch-raw.js'
import type { RawMessage } from '../../core/route/raw-message.js'
import type { SocketContext } from '../../core/route/socket-context.js'
import { type AssemblyState, assembleMessage, type Compressed, type Incoming, initialAssembly } from '../../core/ws/assemble-message.js'
import { continuePartialText, type PartialText, startPartialText } from '../../core/ws/check-partial-text.js'
import { CLOSE_CODE } from '../../core/ws/close-code.js'
import { decodeFrame } from '../../core/ws/decode-frame.js'
import { isAsciiRange, isBinaryRunFrame, readSmallRun, runFrameSize, smallRunSize, unmaskSmallRun } from '../../core/ws/unmask-small-run.js'
import { decodeUtf8 } from '../../core/ws/utf8.js'
import { encodeFrameBytes } from '../../core/ws/encode-frame.js'
import { decodeEnvelope, decodeEnvelopes, encodeAck, encodeErrorEvent } from '../../core/ws/envelope.js'
import type { EventError, EventId, EventMessage } from '../../core/ws/event.js'
import { OPCODE } from '../../core/ws/frame.js'
import { maskedFrameSize } from '../../core/ws/frame-header.js'
import { closeFrame, pingFrame, pongFrame } from '../../core/ws/out-frame.js'
import { pingSettled, stampPing } from './heartbeat-wheel.js'
import { ByteQueue } from './byte-queue.js'
import { type ClientSession, PENDING } from '../recovery/client-session.js'
import type { Outlet } from '../delivery/delivery.js'
import { textArrived, textDispatched } from '../delivery/outgoing.js'
import type { TimerId } from '../platform.js'
import type { DeflateHost, Inflated, WsDeflate } from '../deflate/ws-deflate.js'
import type { WsShared } from './ws-shared.js'
import { reportOutcome, withTrace } from '../instrumentation/instrumentation.js'
import type { TraceContext } from '../../core/trace/trace-context.js'
import { upgradeTrace } from '../../core/http/upgrade-trace.js'

type DataMessage = Incoming & { readonly _tag: 'Text' | 'Binary' }
type TextMessage = RawMessage & { readonly _tag: 'Text' }

const NOTHING: Uint8Array = new Uint8Array(0)

// `bytes[at..]` as a plain Uint8Array. An adapter may hand a connection the runtime's own array
// (a Node Buffer): the small-frame path only reads it, and what waits in the queue is joined
// into a new array or viewed here before use, but whatever goes to the general decoder or the
// partial-text check is a plain view, so that the views and copies taken from it are plain
// arrays (a Buffer's `subarray` is slower, its `slice` is not a copy, and handlers would get
// Buffers).
const plainFrom = (bytes: Uint8Array, at: number): Uint8Array =>
  bytes.constructor === Uint8Array ? (at === 0 ? bytes : bytes.subarray(at)) : new Uint8Array(bytes.buffer, bytes.byteOffset + at, bytes.length - at)

// `bytes[from, to)` as a plain Uint8Array: what a handler gets as a binary message, when the
// bytes are the runtime's own (a Node or Bun scratch array from `allocate`, zlib's output).
const plainView = (bytes: Uint8Array, from: number, to: number): Uint8Array =>
  bytes.constructor === Uint8Array ? bytes.subarray(from, to) : new Uint8Array(bytes.buffer, bytes.byteOffset + from, to - from)

// The most bytes of frames out one scratch array takes: below 4 KiB, Node serves it from its
// buffer pool; a chunk of more small frames than that takes a few.
const OUT_SIZE = 4095
// The largest run read as one text: a message's text is a slice of its run's (in V8, from 13
// characters on), which a handler that keeps the message keeps alive, so a run's text is
// kept small; a longer run's messages are read one by one.
const RUN_TEXT_MAX = 1024

// The echoes framed in place and not written yet: `out[heldFrom, heldTo)`, held by the one
// connection whose chunk is being decoded (`holder`). Module state, not fields, so that an
// idle connection carries nothing for it.
let holder: { admit(frame: Uint8Array): void } | undefined
let heldOut: Uint8Array = NOTHING
let heldFrom = 0
let heldTo = 0

// Writes the held run (before anything else reaches its connection) and forgets it.
const releaseHeld = (): void => {
  const connection = holder
  const out = heldOut
  const run = heldTo === heldFrom ? undefined : heldFrom === 0 && heldTo === out.length ? out : out.subarray(heldFrom, heldTo)
  holder = undefined
  heldOut = NOTHING
  heldFrom = heldTo = 0
  if (run !== undefined) connection?.admit(run)
}

// The ping every heartbeat sends, built once and shared by every connection (never written into).
const PING = encodeFrameBytes(pingFrame())

// The bits of `WsConnection.flags` (the bits from 8 up hold the last ping's tick, heartbeat-wheel.ts).
const CLOSING = 1
const ALIVE = 2
const WAITING = 4
const SERVER_CLOSED = 8
const SHUT = 16

// What few connections need: a client session, batching, a message arriving in fragments, the end
// of the connection. Made the first time one of them is set to something else than it starts
// as, so that an idle plain connection (most of a server's) carries none.
interface Rare {
  session: ClientSession | undefined
  batch: number
  outbox: string[] | undefined
  assembly: AssemblyState
  peerCloseCode: number | undefined
  closeTimer: TimerId | undefined
  // The trace the connection was opened in (its upgrade's): `undefined` until read, `null` for none.
  linkTrace: TraceContext | null | undefined
}
const rare = (): Rare => ({ session: undefined, batch: 0, outbox: undefined, assembly: initialAssembly, peerCloseCode: undefined, closeTimer: undefined, linkTrace: undefined })

export abstract class WsConnection<S> implements Outlet<S>, DeflateHost {
  inFlight = 0
  /** The last sliced broadcast written to it (`Outlet.lastBroadcast`, delivery/broadcast-slices.ts). */
  lastBroadcast = 0
  /** permessage-deflate, when the handshake agreed on it (set right after construction). */
  deflate: WsDeflate | undefined = undefined
  // Bytes no frame has consumed yet; made when a chunk ends inside a frame and dropped once
  // it is consumed, so an idle connection (most of a server's) carries none.
  private queue: ByteQueue | undefined = undefined
  private partial: PartialText | undefined = undefined // a text frame still arriving, checked so far
  // The five yes-or-no facts below (`closing`, `alive`, `waiting`, `serverClosed`, `shut`) as
  // bits of one number: a server holds tens of thousands of connections, and each boolean was a field.
  private flags = ALIVE
  // The fields few connections use, in a record of their own (`Rare`), behind accessors.
  private more: Rare | undefined = undefined

  /** The client as its handlers see it: the connection itself (`ClientContext` extends this class). */
  abstract get ctx(): SocketContext & { readonly socket: S }

  /** The connection's socket (a field of the client). */
  abstract readonly socket: S

  /** What every connection of the server shares: on the prototype of the server's class (`clientContexts`). */
  protected abstract get shared(): WsShared<S>

  /** A WebSocket connection is no event stream (`Outlet`). */
  get eventStream(): undefined {
    return undefined
  }

  /** The client's session, when it asked for one (numbered messages, recovery, answers kept). */
  get session(): ClientSession | undefined {
    return this.more?.session
  }
  set session(session: ClientSession | undefined) {
    if (session !== undefined || this.more !== undefined) (this.more ??= rare()).session = session
  }

  /** The client batches (docs/protocol.md, "Batches"): the largest batch it reads, in bytes; 0 for none. */
  get batch(): number {
    return this.more === undefined ? 0 : this.more.batch
  }
  set batch(bytes: number) {
    if (bytes !== 0 || this.more !== undefined) (this.more ??= rare()).batch = bytes
  }

  /** Numbered envelopes waiting for the end of the turn (delivery's, when `batch` is set). */
  get outbox(): string[] | undefined {
    return this.more?.outbox
  }
  set outbox(outbox: string[] | undefined) {
    if (outbox !== undefined || this.more !== undefined) (this.more ??= rare()).outbox = outbox
  }

  // The message whose fragments are arriving (`initialAssembly` between messages).
  private get assembly(): AssemblyState {
    return this.more === undefined ? initialAssembly : this.more.assembly
  }
  private set assembly(state: AssemblyState) {
    if (state !== initialAssembly || this.more !== undefined) (this.more ??= rare()).assembly = state
  }

  /** The close code the peer sent, if it sent one; `undefined` for a link that just broke. */
  get peerCloseCode(): number | undefined {
    return this.more?.peerCloseCode
  }
  set peerCloseCode(code: number | undefined) {
    if (code !== undefined || this.more !== undefined) (this.more ??= rare()).peerCloseCode = code
  }

  // The timer that destroys the socket if the peer does not close in time.
  private get closeTimer(): TimerId | undefined {
    return this.more?.closeTimer
  }
  private set closeTimer(timer: TimerId | undefined) {
    if (timer !== undefined || this.more !== undefined) (this.more ??= rare()).closeTimer = timer
  }

  /** The server ended this connection on purpose (disconnectClient, shutdown): no recovery. */
  get serverClosed(): boolean {
    return (this.flags & SERVER_CLOSED) !== 0
  }
  set serverClosed(on: boolean) {
    this.flags = on ? this.flags | SERVER_CLOSED : this.flags & ~SERVER_CLOSED
  }

  /** Our close frame is written: nothing may follow it (`Outlet`, set by delivery's `admit`). */
  get shut(): boolean {
    return (this.flags & SHUT) !== 0
  }
  set shut(on: boolean) {
    this.flags = on ? this.flags | SHUT : this.flags & ~SHUT
  }

  // The close handshake started (or the connection failed): data is no longer dispatched.
  private get closing(): boolean {
    return (this.flags & CLOSING) !== 0
  }
  private set closing(on: boolean) {
    this.flags = on ? this.flags | CLOSING : this.flags & ~CLOSING
  }

  // The client has been heard from since the last heartbeat.
  private get alive(): boolean {
    return (this.flags & ALIVE) !== 0
  }
  private set alive(on: boolean) {
    this.flags = on ? this.flags | ALIVE : this.flags & ~ALIVE
  }

  // A dispatch of the current chunk answers later.
  private get waiting(): boolean {
    return (this.flags & WAITING) !== 0
  }
  private set waiting(on: boolean) {
    this.flags = on ? this.flags | WAITING : this.flags & ~WAITING
  }

  /**
   * Feeds bytes read from the socket: any Uint8Array (a Node Buffer too), read in place
   * and not kept (what is kept is a plain view of it).
   */
  receive(chunk: Uint8Array): void {
    this.alive = true
    const { socket, shared } = this
    const io = shared.io
    if (io.isEnded(socket)) return
    const queue = this.queue
    // While a compressed message inflates, what follows waits in the queue. As it is: queued
    // bytes reach a decoder only through `decode`, which views them plainly (or a join copies them).
    if (this.deflate?.inflating === true) {
      ;(this.queue ??= new ByteQueue()).push(chunk)
      return
    }
    if (queue === undefined) {
      if (chunk.length > 0) this.process(undefined, chunk)
      return
    }
    if (!queue.push(chunk)) {
      // Not a whole frame yet; text is checked as it comes, to fail at the first bad byte. A plain
      // view: the check's masked copy is its source's `slice` (mask-js.ts), a view on a Buffer.
      if (this.partial !== undefined) this.checkPartial(plainFrom(chunk, 0))
      return
    }
    this.process(undefined, queue.bytes())
  }

  // Dispatches `inflated` (a compressed message, now inflated), then decodes what is queued.
  // Replies given in this turn leave together in one write; replies that wait on a promise
  // are held until the batch of this event-loop turn is flushed.
  private process(inflated: DataMessage | undefined, bytes: Uint8Array): void {
    const { socket, shared } = this
    const io = shared.io
    this.waiting = false
    io.cork(socket)
    if (inflated !== undefined && !this.closing) this.onData(inflated)
    this.drain(bytes)
    io.uncork(socket)
    if (this.waiting) shared.hold(socket)
  }

  /** The peer ended its side: end ours too. */
  peerEnded(): void {
    this.shared.io.end(this.socket)
  }

  /** The socket is gone: stop the close timer, free the compression state. */
  closed(): void {
    if (this.closeTimer !== undefined) this.shared.timers.clearTimeout(this.closeTimer)
    this.deflate?.close()
  }

  /** A finished frame (compressed or not) for the socket: `DeflateHost`. */
  admit(frame: Uint8Array): void {
    this.shared.admit(this, frame)
  }

  /** Writes the echoes held back for one write, if this connection holds any: `Outlet`. */
  release(): void {
    if (holder === this) releaseHeld()
  }

  /** Corks the socket until the batch is flushed: `DeflateHost`. */
  hold(): void {
    this.shared.hold(this.socket)
  }

  /**
   * zlib failed (`DeflateHost`): the frames queued behind cannot leave in order, so the
   * connection closes with 1011 (RFC 6455 §7.4.1: "an unexpected condition").
   */
  compressionFailed(error: unknown): void {
    this.shared.exception(error, { phase: 'permessage-deflate', clientId: this.ctx.clientId })
    if (!this.closing) this.admit(encodeFrameBytes(closeFrame(CLOSE_CODE.INTERNAL_ERROR, 'compression failed')))
    this.closing = true
    this.queue = undefined
    this.shared.io.end(this.socket)
    this.destroyLater()
  }

  /** Starts the close handshake with `code` (RFC 6455 §7.1.2); data is no longer dispatched. */
  close(code: number, reason = ''): void {
    if (this.closing || this.shared.io.isClosed(this.socket)) return
    this.shared.flushOut(this)
    this.closing = true
    this.serverClosed = true
    this.write(encodeFrameBytes(closeFrame(code, reason)))
    // The client answers with its own close frame; then the server closes TCP first (§7.1.1).
    this.destroyLater()
  }

  /**
   * Slow consumer (delivery decided): say why behind the backlog (1008), send nothing more,
   * and drop the connection if the client has not read up by the close time-out.
   */
  dropSlow(): void {
    if (this.closing) return
    this.closing = true
    this.serverClosed = true
    this.queue = undefined
    const { io } = this.shared
    io.write(this.socket, encodeFrameBytes(closeFrame(CLOSE_CODE.POLICY_VIOLATION, 'slow consumer')))
    io.end(this.socket)
    this.destroyLater()
  }

  /**
   * The heartbeat wheel's visit at tick `tick` (`Beating`): sends a ping when the client
   * answered the last one, or ends it when it did not in `settle` ticks.
   */
  heartbeat(tick: number, settle: number): void {
    if (!this.alive) {
      // Pinged too recently to judge (it moved up the table): judged at its next visit.
      if (!pingSettled(this.flags, tick, settle)) return
      this.shared.debug('websocket client missed a heartbeat', { clientId: this.ctx.clientId })
      this.shared.io.destroy(this.socket)
      return
    }
    this.flags = stampPing(this.flags & ~ALIVE, tick)
    if (this.closing) return
    this.write(PING)
    // Browsers cannot see pings: a session client watches for this event instead.
    if (this.session !== undefined) this.write(this.shared.heartbeatFrame)
  }

  private write(bytes: Uint8Array): void {
    this.shared.write(this, bytes)
  }

  private destroyLater(): void {
    if (this.closeTimer !== undefined) return
    const { socket, shared } = this
    this.closeTimer = shared.timers.setTimeout(() => shared.io.destroy(socket), shared.limits.closeTimeoutMs)
  }

  // Ends our side once the frames sent before (a close frame among them) are written.
  private endSoon(): void {
    this.release()
    this.closing = true
    this.queue = undefined
    const { socket, shared } = this
    if (this.deflate === undefined) shared.io.end(socket)
    else this.deflate.whenSent(() => shared.io.end(socket))
    this.destroyLater()
  }

  // A protocol violation: say why, then close the TCP connection without waiting (§7.1.7).
  private fail(error: { readonly closeCode: number; readonly reason: string; readonly _tag: string }): void {
    this.shared.abuse?.note('websocket protocol error', { closeCode: error.closeCode, tag: error._tag })
    this.shared.debug('websocket connection failed', { clientId: this.ctx.clientId, closeCode: error.closeCode, reason: error.reason, tag: error._tag })
    this.shared.flushOut(this)
    if (!this.closing) this.write(encodeFrameBytes(closeFrame(error.closeCode, error.reason)))
    this.serverClosed = true
    this.endSoon()
  }

  private checkPartial(chunk: Uint8Array): void {
    const partial = this.partial as PartialText
    const checked = continuePartialText(partial, chunk.length > partial.remaining ? chunk.subarray(0, partial.remaining) : chunk, this.shared.masker)
    if (E.isLeft(checked)) return this.fail(checked.left)
    this.partial = checked.right
  }

  private drain(from: Uint8Array): void {
    this.partial = undefined
    try {
      this.decode(from)
    } finally {
      if (holder === this) releaseHeld()
    }
  }

  private decode(bytes: Uint8Array): void {
    const { messageLimits, io } = this.shared
    const frameLimits = this.deflate?.frameLimits ?? this.shared.frameLimits
    const end = bytes.length
    let at = 0
    while (at < end && !io.isClosed(this.socket)) {
      // A whole empty pong (the answer to the heartbeat's ping, RFC 6455 §5.5.3: FIN, opcode
      // 0xA, masked, no payload): `receive` already marked the client alive; nothing to decode.
      if (bytes[at] === 0x8a && bytes[at + 1] === 0x80 && end - at >= 6) {
        at += 6
        continue
      }
      if (this.shared.smallFrames && this.deflate === undefined && !this.closing && this.assembly === initialAssembly) {
        at = this.decodeSmall(bytes, at, Math.min(frameLimits.maxPayload, messageLimits.maxMessage))
        if (io.isEnded(this.socket)) {
          this.queue = undefined
          return
        }
        if (at === end || io.isClosed(this.socket)) break
      }
      const rest = plainFrom(bytes, at)
      const step = decodeFrame(rest, frameLimits, this.shared.masker)
      if (E.isLeft(step)) return this.fail(step.left)
      if (step.right._tag === 'NeedMore') {
        const partial = startPartialText(rest, this.assembly, this.shared.masker)
        if (partial !== undefined && E.isLeft(partial)) return this.fail(partial.left)
        this.partial = partial?.right
        this.keep(rest)
        this.queue?.waitFor(step.right.atLeast)
        return
      }
      at = end - step.right.rest.length
      const assembled = assembleMessage(this.assembly, step.right.value, messageLimits)
      if (E.isLeft(assembled)) return this.fail(assembled.left)
      this.assembly = assembled.right.state
      const output = assembled.right.output
      if (output?._tag === 'Compressed') {
        if (this.closing) continue // data is no longer dispatched
        return this.inflate(output, step.right.rest)
      }
      if (output?._tag === 'Text' && step.right.value.opcode === OPCODE.TEXT) {
        // One text frame: its payload is the message's UTF-8, which an echo sends back as it is.
        textArrived(output, step.right.value.payload)
        this.onIncoming(output)
        textDispatched()
      } else if (output !== undefined) this.onIncoming(output)
      if (io.isEnded(this.socket)) {
        this.queue = undefined
        return
      }
    }
    // Used up, or the socket closed (the loop stops short only then, and nothing more is
    // decoded): nothing to keep, not even an empty view.
    this.queue = undefined
  }

  // The run of small whole frames from `bytes[at]` (unmaskSmallFrame), each unmasked into a
  // scratch array as the frame that answers it, and dispatched. Answers where it stopped: at
  // the end, at a frame for the general decoder (which also fails a text that is not UTF-8,
  // with its 1007), or after a message that closed or ended the connection.
  private decodeSmall(bytes: Uint8Array, from: number, maxLength: number): number {
    const { shared, socket } = this
    const io = shared.io
    const raw = shared.compiled.raw !== undefined
    const end = bytes.length
    let at = from
    let out = NOTHING
    let outAt = 0
    let ascii = false // every payload of the run in `out` is ASCII
    let run: string | undefined // that run read as one text, when it is and holds several frames
    while (at < end) {
      if (outAt === out.length) {
        // The frames out of the small frames ahead (up to OUT_SIZE), unmasked at once.
        const size = smallRunSize(bytes, at, end, maxLength, OUT_SIZE)
        if (size === 0) return at
        out = shared.allocate(size)
        outAt = 0
        ascii = unmaskSmallRun(bytes, at, out, size) === 0
        run = ascii && size <= RUN_TEXT_MAX && runFrameSize(out, 0) < size ? readSmallRun(out, size, shared.decodeAscii) : undefined
      }
      const size = runFrameSize(out, outAt)
      const payload = outAt + 2
      if (isBinaryRunFrame(out, outAt)) this.onData({ _tag: 'Binary', data: plainView(out, payload, outAt + size) })
      else {
        const text =
          run !== undefined ? run.substring(payload, outAt + size)
          : ascii || isAsciiRange(out, payload, outAt + size) ? shared.decodeAscii(out, payload, outAt + size)
          : decodeUtf8(out.subarray(payload, outAt + size))
        if (text === undefined) return at
        // A plain record like any other message: handlers may spread, clone or keep it.
        const message: TextMessage = { _tag: 'Text', text }
        if (raw) this.echo(message, out, outAt, size)
        else this.onData(message)
      }
      at += maskedFrameSize(size) // the client's frame had a masking key, the server's has none
      outAt += size
      if (this.closing || io.isEnded(socket) || io.isClosed(socket)) return at
    }
    return at
  }

  // A text read from its small frame, to the raw route: answered with itself (an echo), its
  // frame, already in `out[outAt, outAt + size)`, joins the run held for one write.
  private echo(message: TextMessage, out: Uint8Array, outAt: number, size: number): void {
    if (holder !== this || heldOut !== out || heldTo !== outAt) {
      if (holder !== undefined) releaseHeld()
      holder = this
      heldOut = out
      heldFrom = heldTo = outAt
    }
    const { compiled, onError } = this.shared
    // Not `textArrived`: a reply or broadcast of this message during the dispatch is framed
    // from its text (at most 125 bytes, as cheap as a copy of its bytes), and the echo of
    // every message pays no module-state stores for it.
    const outcome = dispatchRawNow(compiled, message, this.ctx, onError)
    if (outcome instanceof Promise) {
      this.waiting = true
      void outcome.then((settled) => this.afterRaw(settled))
      return
    }
    if (outcome._tag !== 'Reply' || outcome.message !== message) return this.afterRaw(outcome)
    if (holder === this && heldOut === out && heldTo === outAt) {
      heldTo = outAt + size
      return
    }
    // Something was written to the connection meanwhile (the run went out before it): a new run.
    if (holder !== undefined) releaseHeld()
    holder = this
    heldOut = out
    heldFrom = outAt
    heldTo = outAt + size
  }

  // Keeps what a decoder left for the next chunk (in a queue made for it when there is any).
  private keep(rest: Uint8Array): void {
    if (rest.length === 0) this.queue = undefined
    else (this.queue ??= new ByteQueue()).keep(rest)
  }

  // A compressed message (RFC 7692 §6): inflated first, the bytes after it kept for later.
  private inflate(message: Compressed, rest: Uint8Array): void {
    this.keep(rest)
    const deflate = this.deflate as WsDeflate
    void deflate.inflate(message, this.shared.messageLimits.maxMessage).then(
      (inflated) => this.inflated(inflated),
      (error: unknown) => this.compressionFailed(error),
    )
  }

  private inflated(inflated: Inflated): void {
    const io = this.shared.io
    if (io.isClosed(this.socket) || io.isEnded(this.socket)) return
    // 1009 as soon as the output passed the limit, 1007 for bad DEFLATE or bad UTF-8.
    if (E.isLeft(inflated)) return this.fail(inflated.left)
    const message = inflated.right
    const plain = message._tag === 'Binary' && message.data.constructor !== Uint8Array ? { _tag: 'Binary' as const, data: plainView(message.data, 0, message.data.length) } : message
    this.process(plain, this.queue?.bytes() ?? NOTHING)
  }

  private onIncoming(incoming: Exclude<Incoming, Compressed>): void {
    switch (incoming._tag) {
      case 'Text':
      case 'Binary':
        if (!this.closing) this.onData(incoming)
        return
      case 'Ping':
        if (!this.closing) this.write(encodeFrameBytes(pongFrame(incoming.payload)))
        return
      case 'Pong':
        return
      case 'Close':
        this.peerCloseCode = incoming.code ?? CLOSE_CODE.NO_STATUS
        this.shared.flushOut(this)
        // Echo the code when we did not start the close (§5.5.1), then close TCP.
        if (!this.closing) this.write(encodeFrameBytes(closeFrame(incoming.code ?? CLOSE_CODE.NORMAL, '')))
        this.endSoon()
        return
    }
  }

  private onData(message: DataMessage): void {
    const { compiled, onError } = this.shared
    const ctx = this.ctx
    if (compiled.raw !== undefined || message._tag === 'Binary') {
      const outcome = dispatchRawNow(compiled, message, ctx, onError)
      if (!(outcome instanceof Promise)) return this.afterRaw(outcome)
      this.waiting = true
      void outcome.then((settled) => this.afterRaw(settled))
      return
    }
    // A batch (only from a client that negotiated them) is its envelopes, one after the other.
    const traced = this.shared.ops.instrumentation.tracing
    if (this.batch === 0) return this.onEnvelope(decodeEnvelope(message.text, traced))
    for (const envelope of decodeEnvelopes(message.text, true, traced)) this.onEnvelope(envelope)
  }

  // One envelope, as if it had come alone: answered at once (an error, a retried id), or
  // dispatched (with a session, its id remembered until it is answered).
  private onEnvelope(envelope: E.Either<EventError, EventMessage>): void {
    const instrumentation = this.shared.ops.instrumentation
    if (E.isLeft(envelope)) {
      instrumentation.inputRejected(envelope.left.code)
      return this.sendText(encodeErrorEvent(envelope.left))
    }
    const { compiled, onError } = this.shared
    const { event, id } = envelope.right
    // The answer to a server request (docs/protocol.md, "Server requests"): never dispatched.
    if ((event === 'ack' || event === 'error') && this.shared.ops.requests.answered(this.ctx.clientId, id, envelope.right.data, event === 'error')) return
    const session = id === undefined ? undefined : this.session
    if (session !== undefined) {
      // A request retried after a reconnect (same id, same session): answered once.
      const answer = session.answerOf(id as EventId)
      if (answer === PENDING) return
      if (answer !== undefined) return this.sendText(answer)
      session.remember(id as EventId, PENDING)
    }
    this.waiting = true
    // An event without a trace of its own continues the connection's (its upgrade's), when tracing.
    const parent = instrumentation.tracing ? (envelope.right.trace ?? this.linkTrace()) : undefined
    const started = instrumentation.active ? instrumentation.eventStarted(event, parent) : 0
    const ctx = instrumentation.tracing ? withTrace(this.ctx, instrumentation.traceOf(started)) : this.ctx
    void dispatchEvent(compiled, envelope.right, ctx, { middleware: this.shared.wsMiddleware, onError }).then((outcome) => {
      if (instrumentation.active) reportOutcome(instrumentation, event, outcome, started)
      const text = outcome._tag === 'Ack' ? this.ackText(outcome.id, outcome.value, event) : outcome._tag === 'Failed' ? encodeErrorEvent(outcome.error) : undefined
      if (session !== undefined) {
        if (text === undefined) session.forget(id as EventId)
        else session.remember(id as EventId, text)
      }
      if (text !== undefined) this.sendText(text)
    })
  }

  // The trace of the upgrade request (headers, else the query: a browser's), read once.
  private linkTrace(): TraceContext | undefined {
    const more = (this.more ??= rare())
    if (more.linkTrace === undefined) more.linkTrace = upgradeTrace(this.ctx.request) ?? null
    return more.linkTrace ?? undefined
  }

  private afterRaw(outcome: RawOutcome): void {
    if (outcome._tag === 'Reply') this.shared.sendRaw(this.ctx.clientId, outcome.message)
    else if (outcome._tag === 'NoRawRoute') this.close(outcome.closeCode, 'binary messages are not supported')
  }

  // An envelope to this client; with a session, to whichever connection holds it by then.
  private sendText(text: string): void {
    if (this.session === undefined) this.write(this.shared.frames.text(text))
    else this.shared.sendToSession(this.session.clientId, text)
  }

  // A return value JSON cannot hold (a cycle, a BigInt) is the handler's failure, not a crash.
  private ackText(id: EventId, value: unknown, event: string): string {
    try {
      return encodeAck(id, value)
    } catch (error) {
      this.shared.onError(error, { phase: 'event', clientId: this.ctx.clientId, event })
      return encodeErrorEvent({ code: 'handler_error', message: `the answer of "${event}" is not JSON`, id })
    }
  }
}
