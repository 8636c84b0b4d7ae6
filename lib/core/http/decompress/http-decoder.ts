/**
 * The interface between the core's request decompression and a runtime's decoders: the core
 * decides whether and how a request body is decoded (`planDecoding`) and counts what comes out
 * (`decodeBody`); a runtime (`node:zlib` in `lib/runtime/compress/`, the web
 * `DecompressionStream` in the engine) does the inflating, injected through the Platform's
 * optional `decompression`.
 *
 * Types only. Pure and portable: no node:* imports, no Buffer.
 */

/**
 * A content coding a request body may arrive in and a runtime may decode (RFC 9110 §8.4.1:
 * `gzip`, `deflate` (the zlib format, RFC 1950); `br`: RFC 7932; `zstd`: RFC 8878).
 */
export type RequestCoding = 'gzip' | 'deflate' | 'br' | 'zstd'

/** A runtime's decoders for request bodies. */
export interface HttpDecoder {
  /** The codings this runtime decodes (zstd only where its zlib has it). */
  readonly codings: readonly RequestCoding[]
  /**
   * `source` decoded, pulled: the decoder reads a piece of `source` only when it needs more
   * input for the piece asked of it, so a small input that inflates to much is never inflated
   * past what the reader takes (the reader stops it with `return()`, which also stops
   * `source`). Throws what `source` throws; a body that does not decode throws anything else.
   */
  decode(coding: RequestCoding, source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array>
}
