/**
 * permessage-deflate on one WebSocket connection (RFC 7692), the engine's half: which of the
 * frames the server sends are compressed, the order they leave in, and the inflation of the
 * compressed messages that arrive. The DEFLATE itself is the runtime's (a `DeflateCodec`).
 *
 * Compression is asynchronous, so frames wait in an ordered queue while a compression ahead
 * of them is pending: whatever was sent first (an event, an ack, a pong, a broadcast, a
 * close frame) is written first. Nothing is queued while nothing is pending, so a connection
 * that sends only small messages writes them at once, as without the extension.
 *
 * A class, one per compressing connection, with its state in a few fields; the compressor
 * and the inflater are asked for on first use, so an idle connection holds no more than
 * this object. What every connection of a server shares is one `DeflateShared` record.
 * Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Binary, Compressed, Text } from '../../core/ws/assemble-message.js'
import type { DeflateParams } from '../../core/ws/extensions/deflate-params.js'
import { inflatedMessage } from '../../core/ws/extensions/inflated-message.js'
import type { MessageCompressor, MessageDecompressor } from '../../core/ws/extensions/message-codec.js'
import { type FrameLimits, OPCODE } from '../../core/ws/frame.js'
import { frameOpcode, payloadOffset } from '../../core/ws/frame-header.js'
import type { WsError } from '../../core/ws/ws-error.js'
import { compressFrame } from './compress-frame.js'
import type { FrameQueue } from '../delivery/delivery.js'

/** What a connection's compression needs of the WebSocket connection it serves. */
export interface DeflateHost {
  /** Writes a finished frame to the socket (through the slow-consumer rule). */
  admit(frame: Uint8Array): void
  /** Corks the socket until the current batch of writes is flushed. */
  hold(): void
  /** The runtime's zlib failed: the connection closes with 1011. */
  compressionFailed(error: unknown): void
}

/** What every compressing connection of one server shares. */
export interface DeflateShared {
  /** Messages with fewer payload bytes are sent as they are. */
  readonly threshold: number
  /** The frame limits with RSV1 allowed on the first frame of a data message (RFC 7692 §6). */
  readonly frameLimits: FrameLimits
  /** The compressor of a connection that agreed on `params` (the shared one without context takeover). */
  compressor(params: DeflateParams): MessageCompressor
  /** The inflater of a connection that agreed on `params`. */
  decompressor(params: DeflateParams): MessageDecompressor
  /**
   * The compressed frame of a broadcast for every receiver that agreed on
   * `server_no_context_takeover` with this window: compressed once, the same bytes for all.
   */
  broadcastFrame(frame: Uint8Array, payloadAt: number, windowBits: number): Promise<Uint8Array>
}

/** A message inflated, or why the connection fails (1009 past the limit, 1007 bad data or text). */
export type Inflated = E.Either<WsError, Text | Binary>

// One frame in the queue: ready once its compression settled (or at once for a plain
// frame); `after` marks a place in the queue where something runs instead (the end of
// the connection once everything before it is written).
class Slot {
  failure: unknown = undefined
  constructor(
    public frame: Uint8Array | undefined,
    public ready: boolean,
    readonly after: (() => void) | undefined,
  ) {}
}

export class WsDeflate implements FrameQueue {
  /** A compressed message is being inflated: the messages behind it wait (set by `inflate`). */
  inflating = false
  // Frames behind a pending compression, oldest first; `undefined` when none waits.
  private slots: Slot[] | undefined = undefined
  // A close frame is queued: nothing may follow it (RFC 6455 §5.5.1).
  private shut = false
  private compressor: MessageCompressor | undefined = undefined
  private decompressor: MessageDecompressor | undefined = undefined

  constructor(
    private readonly host: DeflateHost,
    /** What the handshake agreed on. */
    readonly params: DeflateParams,
    private readonly shared: DeflateShared,
  ) {}

  /** The frame limits of this connection: RSV1 allowed. */
  get frameLimits(): FrameLimits {
    return this.shared.frameLimits
  }

  /**
   * Sends a whole frame the server wrote (unmasked, FIN set): a text or binary message of
   * `threshold` bytes or more goes out compressed, anything else as it is, all in the order
   * of the calls. `broadcast`: the same frame goes to many receivers now, so with
   * `server_no_context_takeover` its compression is shared.
   */
  send(frame: Uint8Array, broadcast = false): void {
    if (this.shut) return
    const opcode = frameOpcode(frame)
    if (opcode === OPCODE.CLOSE) this.shut = true
    const at = payloadOffset(frame)
    if ((opcode !== OPCODE.TEXT && opcode !== OPCODE.BINARY) || frame.length - at < this.shared.threshold) {
      if (this.slots === undefined) this.host.admit(frame)
      else this.slots.push(new Slot(frame, true, undefined))
      return
    }
    const slot = new Slot(undefined, false, undefined)
    ;(this.slots ??= []).push(slot)
    const { params } = this
    const compressed =
      broadcast && params.serverNoContextTakeover
        ? this.shared.broadcastFrame(frame, at, params.serverMaxWindowBits)
        : compressFrame((this.compressor ??= this.shared.compressor(params)), frame, at)
    compressed.then(
      (bytes) => {
        slot.frame = bytes
        slot.ready = true
        this.flush()
      },
      (error: unknown) => {
        slot.failure = error ?? new Error('compression failed')
        slot.ready = true
        this.flush()
      },
    )
  }

  /** Runs `action` once every frame sent so far is written (at once when none waits). */
  whenSent(action: () => void): void {
    if (this.slots === undefined) action()
    else this.slots.push(new Slot(undefined, true, action))
  }

  /**
   * Inflates a compressed message (RFC 7692 §7.2.2) within `maxMessage` bytes and checks its
   * text. `inflating` holds while it runs, so the connection keeps later messages waiting.
   */
  async inflate(message: Compressed, maxMessage: number): Promise<Inflated> {
    this.inflating = true
    try {
      this.decompressor ??= this.shared.decompressor(this.params)
      const inflated = await this.decompressor.decompress(message.data, maxMessage)
      return E.isLeft(inflated) ? inflated : inflatedMessage(message, inflated.right)
    } finally {
      this.inflating = false
    }
  }

  /** The connection is gone: frees its zlib state once the jobs it started have settled. */
  close(): void {
    this.shut = true
    this.compressor?.close()
    this.decompressor?.close()
  }

  // Writes the frames at the front of the queue whose turn has come.
  private flush(): void {
    const slots = this.slots
    if (slots === undefined) return
    // More than one frame ready: let them leave in one write.
    if (slots.length > 1 && slots[1]!.ready) this.host.hold()
    while (slots.length > 0 && slots[0]!.ready) {
      const slot = slots.shift()!
      if (slot.failure !== undefined) {
        // zlib failed: what was queued behind cannot be sent in order; the connection closes.
        this.slots = undefined
        this.shut = true
        this.host.compressionFailed(slot.failure)
        return
      }
      if (slot.frame !== undefined) this.host.admit(slot.frame)
      else slot.after?.()
    }
    if (slots.length === 0 && this.slots === slots) this.slots = undefined
  }
}
