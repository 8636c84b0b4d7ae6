/**
 * The bytes around each piece of a chunked body (RFC 9112 §7.1): a chunk is its size in hex
 * and CRLF, the data, CRLF; the body ends with the last chunk `0` CRLF and the (empty)
 * trailer section's CRLF. The data itself is never copied: a sender writes the size line,
 * the data and the tail as three pieces.
 *
 *   chunk      = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
 *   last-chunk = 1*("0") [ chunk-ext ] CRLF
 *
 * Pure and portable: no node:* imports.
 */

const HEX_DIGITS = '0123456789abcdef'

/**
 * The chunk-size line for `size` bytes of data (`size` ≥ 1: a zero size would end the body).
 *
 * @example
 * new TextDecoder().decode(chunkSizeLine(255)) // 'ff\r\n'
 */
export const chunkSizeLine = (size: number): Uint8Array => {
  // Counted by division, not `16 ** digits`: a power is a call into the math library where
  // the code is not optimised yet, and this runs for every piece of a streamed body.
  let digits = 1
  for (let rest = Math.floor(size / 16); rest > 0 && digits < 14; rest = Math.floor(rest / 16)) digits++
  const out = new Uint8Array(digits + 2)
  let rest = size
  for (let i = digits - 1; i >= 0; i--) {
    out[i] = HEX_DIGITS.charCodeAt(rest % 16)
    rest = Math.floor(rest / 16)
  }
  out[digits] = 0x0d
  out[digits + 1] = 0x0a
  return out
}

/** The CRLF after a chunk's data. Never written into: shared by every chunk. */
export const CHUNK_TAIL: Uint8Array = new Uint8Array([0x0d, 0x0a])

/** The last chunk and the empty trailer section: the end of a chunked body. Never written into. */
export const LAST_CHUNK: Uint8Array = new Uint8Array([0x30, 0x0d, 0x0a, 0x0d, 0x0a])
