/**
 * The server's permessage-deflate settings (RFC 7692 §7) as a value: what it offers in
 * negotiation and how its compressor runs. Defaults are chosen so one idle connection costs
 * no zlib memory at all: `serverNoContextTakeover` lets one shared compressor serve every
 * connection (and a broadcast is compressed once), and inflaters are made on first use.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/** The settings, every field set (see `resolveDeflateConfig` for options with defaults). */
export interface DeflateConfig {
  /** Negotiate permessage-deflate at all. When `false`, offers are ignored. */
  readonly enabled: boolean
  /**
   * Always answer `server_no_context_takeover` (RFC 7692 §7.1.1.1): the server compresses each
   * message on its own, so no connection keeps a compressor (about 256 KiB of zlib state at
   * the default window) and a broadcast is compressed once for all. `false` keeps the LZ77
   * window between messages (smaller output) unless the client asks otherwise.
   */
  readonly serverNoContextTakeover: boolean
  /**
   * Always answer `client_no_context_takeover` (RFC 7692 §7.1.1.2): clients compress each
   * message on their own, so the server need not keep an inflater per connection.
   */
  readonly clientNoContextTakeover: boolean
  /** The largest LZ77 window (base-2 log, 8–15) the server compresses with; below 15 it is answered. */
  readonly serverMaxWindowBits: number
  /**
   * The largest window (8–15) the server lets a client compress with, which sizes the server's
   * inflater. Below 15 it is answered as `client_max_window_bits`, and an offer without that
   * parameter (a client that cannot take the limit) is declined (RFC 7692 §7.1.2.2).
   */
  readonly clientMaxWindowBits: number
  /** Messages under this many bytes are sent uncompressed (the default: 1 KiB). */
  readonly threshold: number
  /** zlib compression level, 0–9 (the default, 6, is zlib's). */
  readonly level: number
  /** zlib memLevel, 1–9: the compressor's hash table and buffers (the default, 8, is zlib's). */
  readonly memLevel: number
  /** zlib jobs (compress and inflate) in flight at once, across all connections (the default: 10). */
  readonly concurrency: number
}

/** Any subset of the settings; the rest take their defaults. */
export type DeflateOptions = Partial<DeflateConfig>

/**
 * The defaults, with compression off: `resolveDeflateConfig(true)` turns them on.
 *
 * @example DEFAULT_DEFLATE_CONFIG.threshold // 1024
 */
export const DEFAULT_DEFLATE_CONFIG: DeflateConfig = Object.freeze({
  enabled: false,
  serverNoContextTakeover: true,
  clientNoContextTakeover: false,
  serverMaxWindowBits: 15,
  clientMaxWindowBits: 15,
  threshold: 1024,
  level: 6,
  memLevel: 8,
  concurrency: 10,
})
