/**
 * One `node:zlib` raw DEFLATE stream that compresses whole WebSocket messages for
 * permessage-deflate (RFC 7692 §7.2.1): the message is written with a sync flush, which
 * ends it on a byte boundary, and the flush's trailing `00 00 ff ff` is left off.
 *
 * The stream's default flush is `Z_SYNC_FLUSH`, so one `write` is one zlib job: the data
 * and its flush go to the thread pool together, where a write then a `flush()` would be two
 * round trips (each a thread hand-off and back, which costs more than compressing 4 KiB).
 *
 * One job at a time (the stream pool sees to it). The LZ77 window carries over from one
 * message to the next until `reset()`: that is context takeover.
 *
 * Part of the shared runtime layer (lib/runtime/), as permessage-deflate.ts: imports the core, the engine and
 * `node:*`, never an adapter.
 */
import { constants, createDeflateRaw, type DeflateRaw } from 'node:zlib'
import { stripDeflateTail } from '../../core/ws/extensions/deflate-tail.js'
import type { PoolStream } from '../../engine/deflate/stream-pool.js'

/** The zlib settings of a compressor. */
export interface DeflaterOptions {
  /** The LZ77 window the peer agreed to (8–15); 8 runs as 9, see below. */
  readonly windowBits: number
  readonly level: number
  readonly memLevel: number
}

/**
 * A raw DEFLATE stream for whole messages.
 *
 * @example
 * const deflater = new Deflater({ windowBits: 15, level: 6, memLevel: 8 })
 * await deflater.compress(new TextEncoder().encode('Hello')) // f2 48 cd c9 c9 07 00
 */
export class Deflater implements PoolStream {
  private readonly stream: DeflateRaw
  private chunks: Buffer[] = []
  private size = 0
  private failed: ((error: Error) => void) | undefined = undefined

  constructor(options: DeflaterOptions) {
    this.stream = createDeflateRaw({
      // zlib refuses a raw window of 8 bits (it had a bug there) and compresses with 9
      // instead; a 9-bit zlib window never reaches back more than 512 - 262 = 250 bytes
      // (MAX_DIST), so its output is valid for a peer that asked for 8 (256 bytes).
      windowBits: Math.max(9, options.windowBits),
      level: options.level,
      memLevel: options.memLevel,
      flush: constants.Z_SYNC_FLUSH,
    })
    this.stream.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk)
      this.size += chunk.length
    })
    this.stream.on('error', (error: Error) => this.failed?.(error))
  }

  /** The stream can take no further message. */
  get broken(): boolean {
    return this.stream.destroyed
  }

  /** The compressed payload for one message, tail removed (a view of zlib's output). */
  compress(message: Uint8Array): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      this.failed = reject
      // Called once zlib has handed over all the output of this write.
      this.stream.write(message, () => {
        this.failed = undefined
        if (this.stream.destroyed) return reject(new Error('permessage-deflate: the zlib stream failed'))
        const { chunks, size } = this
        this.chunks = []
        this.size = 0
        resolve(stripDeflateTail(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)))
      })
    })
  }

  /** Forgets the window: the next message is compressed on its own (no context takeover). */
  reset(): void {
    this.stream.reset()
  }

  close(): void {
    this.stream.close()
  }
}
