/**
 * The interface between the portable engine and a runtime's DEFLATE (RFC 7692 §7.2): the
 * engine decides what to compress and frames it; an adapter (`node:zlib` in
 * `lib/runtime/deflate/permessage-deflate.ts`) does the compressing, injected as a `DeflateCodec`.
 *
 * Types only. Pure and portable: no node:* imports, no Buffer.
 */
import type { Either } from 'fp-ts/lib/Either.js'
import type { WsError } from '../ws-error.js'
import type { DeflateParams } from './deflate-params.js'

/**
 * Compresses whole messages for one direction of one connection (or, shared, for many).
 * Promises settle in the order of the calls, so frames written as they settle stay in order.
 */
export interface MessageCompressor {
  /**
   * The payload of a compressed message (RSV1 set on its first frame): DEFLATE with the
   * trailing `00 00 ff ff` of the final sync flush removed (RFC 7692 §7.2.1). Rejects only
   * when the runtime's zlib fails (the engine closes with 1011).
   */
  compress(message: Uint8Array): Promise<Uint8Array>
  /**
   * Frees the zlib state once the calls already made have settled. A shared compressor
   * belongs to the codec: closing it through one connection does nothing.
   */
  close(): void
}

/** Inflates the compressed messages one connection receives, in order. */
export interface MessageDecompressor {
  /**
   * The message a compressed payload holds (RFC 7692 §7.2.2: `00 00 ff ff` appended, then
   * inflated), or `Left`: `MessageTooBig` (1009) as soon as the output passes `maxMessage`,
   * the rest left uninflated; `InvalidCompressedData` (1007) for bytes that are not DEFLATE.
   * After a `Left` the connection is failed; the decompressor must not be used again.
   */
  decompress(payload: Uint8Array, maxMessage: number): Promise<Either<WsError, Uint8Array>>
  /** Frees the zlib state once the calls already made have settled. */
  close(): void
}

/**
 * A runtime's permessage-deflate, made once per server from its `DeflateConfig`.
 *
 * @example
 * const codec = createPerMessageDeflate(config)         // lib/node
 * const out = codec.createCompressor(agreement.params)   // per connection
 * const shared = codec.sharedCompressor(15)              // one compression for a broadcast
 */
export interface DeflateCodec {
  /**
   * The compressor for the messages the server sends on one connection. With
   * `serverNoContextTakeover` it is `sharedCompressor(params.serverMaxWindowBits)` itself,
   * costing the connection nothing; otherwise a compressor of its own, made on first use.
   */
  createCompressor(params: DeflateParams): MessageCompressor
  /**
   * The inflater for one connection, made on first use; with `clientNoContextTakeover` it
   * keeps no window between messages (and needs no zlib state of its own between them).
   */
  createDecompressor(params: DeflateParams): MessageDecompressor
  /**
   * The one compressor shared by every connection that agreed on `serverNoContextTakeover`
   * with this window (8–15): the same instance on every call. Its output is valid for any
   * of those connections, so a broadcast is compressed once and the same frame bytes go to all.
   */
  sharedCompressor(windowBits: number): MessageCompressor
  /** Frees every zlib stream the codec holds, once their pending jobs have settled. */
  close(): void
}
