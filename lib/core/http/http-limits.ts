/**
 * `HttpLimits`: the bounds `parseHttpRequest` enforces, and their defaults. Every limit is
 * checked as soon as the bytes that break it are seen, before anything larger is buffered.
 * Pure and portable: no node:* imports.
 */

/** Bounds on one request; each has a default in {@link DEFAULT_HTTP_LIMITS}. */
export interface HttpLimits {
  /** Longest request line in bytes, CRLF excluded (414). Capped at `maxHeaderBytes - 4`. */
  readonly maxRequestLine: number
  /** Longest head (request line + fields + the blank line) in bytes; also bounds a chunked body's trailer section (431). */
  readonly maxHeaderBytes: number
  /** Most header fields in the head, and most trailer fields (431). */
  readonly maxHeaders: number
  /** Largest body after transfer decoding, in bytes (413). */
  readonly maxBody: number
}

/**
 * The defaults: an 8 KiB request line (the RFC 9112 §3 recommendation, "at least 8000
 * octets"), a 16 KiB head (what Node's and most servers' limits sit near), 100 header fields
 * and a 1 MiB body.
 */
export const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({
  maxRequestLine: 8 * 1024,
  maxHeaderBytes: 16 * 1024,
  maxHeaders: 100,
  maxBody: 1024 * 1024,
})
