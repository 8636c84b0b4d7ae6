/**
 * `wordView`: a `DataView` of a byte array, for reading four bytes at a time
 * (`getInt32(i, true)`) where a head's long runs (field values, interned strings) are
 * checked or compared a word at a time instead of a byte at a time. One view is kept, the
 * last made: a connection's parse loop reads every request of a chunk from the same array,
 * so a new view costs one small allocation per chunk (the buffer under an array is not
 * asked for again per request: that getter is a call).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

let lastBytes: Uint8Array | undefined
let lastView: DataView = new DataView(new ArrayBuffer(0))

/**
 * A view of exactly the bytes of `bytes` (index 0 is `bytes[0]`).
 *
 * @example
 * wordView(new Uint8Array([0x48, 0x54, 0x54, 0x50])).getInt32(0, true) // 0x50545448
 */
export const wordView = (bytes: Uint8Array): DataView => {
  if (bytes !== lastBytes) {
    lastView = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
    lastBytes = bytes
  }
  return lastView
}

/**
 * RFC 9110 §5.5: field-value bytes are VCHAR (0x21–0x7E) with SP between them (obs-text and
 * HTAB aside). Whether some byte of the word `w` is outside 0x20–0x7E, four at a time:
 * `(w - 0x20202020) & ~w` has a byte's high bit set for some byte below 0x20 (exact for a
 * bound up to 0x80, as the "has less" test), and `(w + 0x01010101) | w` for some byte above
 * 0x7E (0x7F carries into its high bit; 0x80 and above have it). A borrow or carry between
 * bytes only happens from a byte that is itself outside, so the answer for the word is exact.
 *
 * @example
 * outsideVisible(0x20202020) // false (four SP)
 * outsideVisible(0x0a202020) // true (an LF)
 */
export const outsideVisible = (w: number): boolean => ((((w - 0x20202020) & ~w) | (w + 0x01010101) | w) & 0x80808080) !== 0
