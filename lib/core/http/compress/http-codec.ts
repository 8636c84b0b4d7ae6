/**
 * The interface between the portable engine and a runtime's HTTP compression (gzip, br,
 * zstd): the engine decides what to compress (`planCompression`) and sends it; an adapter
 * (`node:zlib` in `lib/runtime/compress/`) does the compressing, injected through the
 * Platform's optional `compression`.
 *
 * Types only. Pure and portable: no node:* imports, no Buffer.
 */
import type { ContentCoding } from './compress-config.js'

/**
 * One compressed body produced piece by piece (a streamed answer). Calls are made one at a
 * time: the next after the last settled.
 */
export interface CodingStream {
  /**
   * Compresses one piece; resolves with the output ready so far (maybe empty: the coder
   * keeps input to compress it better). A stream made with `flushEach` flushes after every
   * piece (a sync flush: the peer can decode all of it now), as a Server-Sent Event needs.
   */
  write(piece: Uint8Array): Promise<Uint8Array>
  /** Ends the body: the rest of the output, with the coding's trailer. */
  end(): Promise<Uint8Array>
  /** Drops the stream (the answer was cut); never throws. */
  abort(): void
}

/** A runtime's compressors for HTTP bodies. */
export interface HttpCodec {
  /** The codings this runtime can produce (zstd only where its zlib has it). */
  readonly codings: readonly ContentCoding[]
  /** A whole body, compressed (one job of the codec's limiter). */
  compress(coding: ContentCoding, body: Uint8Array): Promise<Uint8Array>
  /** A body compressed as it is produced; `flushEach`: every piece is flushed as it is written. */
  stream(coding: ContentCoding, flushEach: boolean): CodingStream
}
