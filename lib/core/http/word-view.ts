/**
 * `wordView`: a `DataView` of a byte array, for reading four bytes at a time
 * (`getInt32(i, true)`) where a head's long runs (field values, interned strings) are
 * checked or compared a word at a time instead of a byte at a time. One view is kept, the
 * last made, in a `WordViews` record the server owns (`createWordViews`): a connection's
 * parse loop reads every request of a chunk from the same array,
 * so a view costs one allocation per chunk at most (and that costs: `bytes.buffer` is a call
 * and the view an object, ~70 ns together on the bench machine, so `wordsFor` makes one
 * only for a run long enough to pay for it).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/** The last view made and the array it is of: one per server, written by `wordView`. */
export interface WordViews {
  bytes: Uint8Array | undefined
  view: DataView
}

/**
 * A fresh record of no view yet.
 *
 * @example
 * const views = createWordViews()
 */
export const createWordViews = (): WordViews => ({ bytes: undefined, view: new DataView(new ArrayBuffer(0)) })

/**
 * A view of exactly the bytes of `bytes` (index 0 is `bytes[0]`), kept in `views`.
 *
 * @example
 * wordView(createWordViews(), new Uint8Array([0x48, 0x54, 0x54, 0x50])).getInt32(0, true) // 0x50545448
 */
export const wordView = (views: WordViews, bytes: Uint8Array): DataView => {
  if (bytes !== views.bytes) {
    views.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
    views.bytes = bytes
  }
  return views.view
}

/** The shortest run worth a new view: making one costs about what comparing ~70 bytes one by one does. */
export const LONG_RUN = 64

/**
 * The view of `bytes` for a run of `n` bytes: the one kept when it is for `bytes` (free), a
 * new one for a long run, else `undefined` (the run is read byte by byte): a chunk of short
 * heads (wrk's, or one request per chunk) makes no view at all.
 *
 * @example
 * wordsFor(views, new Uint8Array(8), 8) // undefined (unless a view of that array was made last)
 */
export const wordsFor = (views: WordViews, bytes: Uint8Array, n: number): DataView | undefined =>
  bytes === views.bytes ? views.view : n >= LONG_RUN ? wordView(views, bytes) : undefined

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
