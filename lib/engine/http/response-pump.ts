/**
 * `ResponsePump`: sends a streamed response body (`stream(...)`, DESIGN §8) on one
 * connection. It pulls the next piece from the source only once the socket has taken the last
 * (the send backlog at or under `HIGH_WATER`), frames it (chunked, by length, or until close),
 * and cancels the source (iterator `return()`, stream `cancel()`) when the exchange ends early:
 * the client went away, the stream stalled, or the server drains. A source that lends its
 * pieces (`LentSource`) gets each one back once the socket has taken it, when the sink can
 * tell (`releasesTaken`).
 *
 * Portable: no node:* imports, no Buffer, no timers (time-outs are checked by the
 * connection's sweep through `idleSince`).
 */
import { CHUNK_TAIL, chunkSizeLine, LAST_CHUNK } from '../../core/http/chunk-framing.js'
import type { StreamFraming } from '../../core/http/serialize-stream-head.js'
import type { BodySource } from '../../core/http/stream-body.js'
import { type Pull, pullOf } from '../../core/http/pull-source.js'
import { isLentSource, type LentSource } from '../../core/http/lent-source.js'

/** The send backlog in bytes under which the next piece is pulled. */
export const HIGH_WATER = 64 * 1024

/** Where the bytes go: the connection's socket. */
export interface PumpSink {
  write(bytes: Uint8Array): void
  /** Bytes written and not yet taken by the kernel. */
  buffered(): number
  /** Several writes as one (a chunk's size line, data and tail in one system call). */
  cork(): void
  uncork(): void
  /**
   * Bytes no longer counted by `buffered()` are no longer held by anyone (a socket's own
   * backlog: the kernel took them). Only then are a lent source's pieces given back.
   */
  readonly releasesTaken?: boolean
}

// A lent piece written, and where it ends in the pump's output (bytes written so far).
interface Held {
  readonly piece: Uint8Array
  readonly end: number
}

/** How a pump ended: the whole body sent, or why not. */
export type PumpOutcome =
  | { readonly _tag: 'Sent' }
  | { readonly _tag: 'Cancelled'; readonly reason: string }
  | { readonly _tag: 'Failed'; readonly error: unknown }

const encoder = new TextEncoder()

export class ResponsePump {
  private pull: Pull | undefined
  private stopped: PumpOutcome | undefined
  private wake: (() => void) | undefined
  private sent = 0
  // The size line of the last chunk, kept for the next one of the same size (a source most
  // often gives pieces of one size): no array made per piece.
  private lineFor = -1
  private line: Uint8Array = LAST_CHUNK
  // The source, when its pieces go back to it once the socket has taken them.
  private readonly lent: LentSource | undefined
  // Bytes this pump gave the sink (framing included), and the lent pieces among them not yet given back.
  private out = 0
  private readonly held: Held[] = []
  /** When the source last gave a piece (or the pump started), for the idle time-out. */
  idleSince: number
  /** When the pump started waiting for the socket to take its backlog, or -1. */
  blockedSince = -1

  constructor(
    private readonly source: BodySource,
    private readonly framing: StreamFraming,
    private readonly length: number | undefined,
    private readonly sink: PumpSink,
    private readonly now: () => number,
    private readonly done: (outcome: PumpOutcome) => void,
  ) {
    this.idleSince = now()
    this.lent = sink.releasesTaken === true && isLentSource(source) ? source : undefined
  }

  /** Starts pulling; `done` is called once, whatever happens. */
  start(): void {
    if (this.framing === 'none') {
      // HEAD, 204, 304: the source is never started, and is told so.
      this.pull = pullOf(this.source)
      this.pull.cancel('no body is sent for this response')
      return this.finish({ _tag: 'Sent' })
    }
    this.pull = pullOf(this.source)
    void this.run()
  }

  /** The socket took its backlog: pull again if waiting. */
  writable(): void {
    const wake = this.wake
    if (wake === undefined) return
    this.wake = undefined
    this.blockedSince = -1
    wake()
  }

  /** Stops early: the source is cancelled, nothing more is written. */
  cancel(reason: string): void {
    if (this.stopped !== undefined) return
    this.pull?.cancel(new Error(reason))
    this.finish({ _tag: 'Cancelled', reason })
    this.writable()
  }

  /** Whether the pump has ended. */
  get ended(): boolean {
    return this.stopped !== undefined
  }

  private finish(outcome: PumpOutcome): void {
    if (this.stopped !== undefined) return
    this.stopped = outcome
    this.done(outcome)
  }

  private async run(): Promise<void> {
    const pull = this.pull as Pull
    try {
      for (;;) {
        if (this.sink.buffered() > HIGH_WATER) {
          this.blockedSince = this.now()
          await new Promise<void>((resolve) => (this.wake = resolve))
        }
        if (this.stopped !== undefined) return
        if (this.held.length > 0) this.giveBack()
        const step = await pull.next()
        if (this.stopped !== undefined) return
        this.idleSince = this.now()
        if (step.done) break
        const value = step.value
        const bytes = typeof value === 'string' ? encoder.encode(value) : value
        if (!(bytes instanceof Uint8Array)) throw new TypeError('a streamed body gave a piece that is neither a Uint8Array nor a string')
        if (bytes.length === 0) continue
        this.write(bytes)
        if (this.lent !== undefined) this.held.push({ piece: bytes, end: this.out })
      }
      if (this.framing === 'length' && this.sent !== this.length) throw new Error(`a streamed body announced ${this.length} bytes and gave ${this.sent}`)
      if (this.framing === 'chunked') this.put(LAST_CHUNK)
      if (this.held.length > 0) this.giveBack()
      this.finish({ _tag: 'Sent' })
    } catch (error) {
      if (this.stopped !== undefined) return
      pull.cancel(error)
      this.finish({ _tag: 'Failed', error })
    }
  }

  // The lent pieces the socket has taken go back to their source. What the sink still holds is
  // the end of what this pump wrote (anything written before it only makes the count smaller),
  // so a piece ending at or before `out - buffered()` is out. Pieces still held when the
  // answer ends or is cut are left to the collector: giving them back could let the source
  // overwrite bytes a socket is still sending.
  private giveBack(): void {
    const lent = this.lent as LentSource
    const taken = this.out - this.sink.buffered()
    while (this.held.length > 0 && (this.held[0] as Held).end <= taken) lent.releasePiece((this.held.shift() as Held).piece)
  }

  private put(bytes: Uint8Array): void {
    this.out += bytes.length
    this.sink.write(bytes)
  }

  private write(bytes: Uint8Array): void {
    if (this.framing === 'length') {
      const room = (this.length as number) - this.sent
      if (bytes.length > room) throw new Error(`a streamed body gave more than the ${this.length} bytes it announced`)
      this.sent += bytes.length
      return this.put(bytes)
    }
    this.sent += bytes.length
    if (this.framing === 'close') return this.put(bytes)
    // One system call for the size line, the data (uncopied) and the tail.
    this.sink.cork()
    if (bytes.length !== this.lineFor) {
      this.line = chunkSizeLine(bytes.length)
      this.lineFor = bytes.length
    }
    this.put(this.line)
    this.put(bytes)
    this.put(CHUNK_TAIL)
    this.sink.uncork()
  }
}
