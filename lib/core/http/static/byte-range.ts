/**
 * `ByteRange` and `contentRangeOf`: one satisfiable byte range (both ends inclusive, as in
 * Content-Range) and its Content-Range field value (RFC 9110 §14.4). Pure and portable: no
 * node:* imports.
 */

/** Bytes `first` to `last` of a representation, both inclusive: `last - first + 1` bytes. */
export interface ByteRange {
  readonly first: number
  readonly last: number
}

/**
 * The Content-Range of a 206 part (`bytes 0-99/1000`), or of a 416 when `range` is
 * `undefined` (`bytes *\/1000`).
 *
 * @example
 * contentRangeOf({ first: 0, last: 99 }, 1000) // 'bytes 0-99/1000'
 * contentRangeOf(undefined, 1000) // 'bytes *\/1000'
 */
export const contentRangeOf = (range: ByteRange | undefined, size: number): string =>
  range === undefined ? `bytes */${size}` : `bytes ${range.first}-${range.last}/${size}`
