/**
 * One `node:zlib` raw inflate stream that restores whole WebSocket messages for
 * permessage-deflate (RFC 7692 §7.2.2): the payload is written with `00 00 ff ff` after it,
 * in one write with a sync flush (the stream's default), so one zlib job gives the
 * message: a write each for the payload and the tail, then a `flush()`, would be three
 * round trips to the thread pool. The output is counted as zlib hands it over (16 KiB
 * at a time): once it passes the limit the stream is destroyed and the rest of the payload
 * is never inflated, so a few kilobytes that would inflate to gigabytes cost at most one
 * chunk past the limit.
 *
 * One job at a time (the stream pool sees to it). The window carries over from one message
 * to the next until `reset()`: that is context takeover.
 *
 * Part of the shared runtime layer (lib/runtime/), as permessage-deflate.ts: imports the core, the engine and
 * `node:*`, never an adapter.
 */
import * as E from 'fp-ts/lib/Either.js'
import { constants, createInflateRaw, type InflateRaw } from 'node:zlib'
import { DEFLATE_TAIL } from '../../core/ws/extensions/deflate-tail.js'
import { invalidCompressedData, messageTooBig, type WsError } from '../../core/ws/ws-error.js'
import type { PoolStream } from '../../engine/deflate/stream-pool.js'

type Outcome = E.Either<WsError, Uint8Array>

// The job in progress: where its outcome goes, and the limit its output must stay within.
interface Job {
  readonly limit: number
  readonly settle: (outcome: Outcome) => void
}

/**
 * A raw inflate stream for whole messages.
 *
 * @example
 * const inflater = new Inflater(15)
 * await inflater.decompress(Uint8Array.of(0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00), 1024) // Right('Hello' as bytes)
 */
export class Inflater implements PoolStream {
  private readonly stream: InflateRaw
  private chunks: Buffer[] = []
  private size = 0
  private job: Job | undefined = undefined

  /** `windowBits`: the window (8–15) the peer compresses with. */
  constructor(windowBits: number) {
    this.stream = createInflateRaw({ windowBits, flush: constants.Z_SYNC_FLUSH })
    this.stream.on('data', (chunk: Buffer) => this.take(chunk))
    // Bytes that are not DEFLATE (zlib destroys the stream itself).
    this.stream.on('error', () => this.finish(E.left(invalidCompressedData())))
  }

  /**
   * Cannot take another message: destroyed (bad data, or cut short at the limit), or ended
   * by a DEFLATE block with BFINAL set (RFC 7692 §7.2.3.4), after which zlib inflates nothing.
   */
  get broken(): boolean {
    return this.stream.destroyed || this.stream.readableEnded
  }

  decompress(payload: Uint8Array, maxMessage: number): Promise<Outcome> {
    return new Promise((resolve) => {
      this.job = { limit: maxMessage, settle: resolve }
      const input = new Uint8Array(payload.length + DEFLATE_TAIL.length)
      input.set(payload)
      input.set(DEFLATE_TAIL, payload.length)
      // Called once zlib has handed over all the output of this write.
      this.stream.write(input, () => {
        // Deno's node:zlib calls back after destroying the stream on bad data (Node never
        // calls back then, and reports the error alone).
        if (this.stream.destroyed) return this.finish(E.left(invalidCompressedData()))
        const { chunks, size } = this
        this.finish(E.right(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)))
      })
    })
  }

  private take(chunk: Buffer): void {
    const job = this.job
    if (job === undefined) return
    this.size += chunk.length
    if (this.size > job.limit) {
      this.finish(E.left(messageTooBig(this.size, job.limit)))
      // Stops zlib: a destroyed stream processes no further input.
      this.stream.destroy()
      return
    }
    this.chunks.push(chunk)
  }

  private finish(outcome: Outcome): void {
    const job = this.job
    if (job === undefined) return
    this.job = undefined
    this.chunks = []
    this.size = 0
    job.settle(outcome)
  }

  /** Forgets the window: the next message stands alone (no context takeover). */
  reset(): void {
    this.stream.reset()
  }

  close(): void {
    this.stream.close()
  }
}
