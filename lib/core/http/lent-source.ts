/**
 * `LentSource`: a streamed body's source whose pieces are lent, not given: the consumer may hand
 * each piece back with `releasePiece` once nothing holds it any more, and the source may then
 * fill that memory again (a file reader reuses its read buffers instead of allocating 256 KiB
 * per read, which under load was a major garbage collection every few dozen large answers).
 * A consumer that never releases is always safe: the source then allocates as any other.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import type { BodySource } from './stream-body.js'

/** A source of bytes whose pieces may be given back. */
export interface LentSource extends AsyncIterable<Uint8Array> {
  /**
   * `piece` (one this source gave) is no longer read or kept by anyone: the source may write
   * into its memory again. A piece given back twice, or one it did not give, is ignored.
   */
  releasePiece(piece: Uint8Array): void
}

/**
 * Whether a body's source lends its pieces.
 *
 * @example
 * isLentSource(['a']) // false
 */
export const isLentSource = (source: BodySource): source is LentSource & BodySource =>
  typeof (source as Partial<LentSource>).releasePiece === 'function'
