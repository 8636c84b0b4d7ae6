/**
 * `compileDelimiter`: the bytes a multipart body is cut at, `CRLF "--" boundary` (RFC 2046
 * §5.1.1: the delimiter is the boundary after a line end, the CRLF belonging to it, not to the
 * part before), with a Boyer-Moore-Horspool shift table built once per body. `findDelimiter`
 * looks at one byte in about `delimiter.length` for data that does not look like the boundary,
 * so a large upload is scanned without a call per byte. `delimiterTail` finds where a
 * delimiter may be starting at the end of a chunk, the only bytes ever carried over to the next.
 *
 * The CR is the delimiter's only CR (bchars have none), so a partial delimiter can start only
 * at a CR, and a carried tail that the next chunk does not continue is all data.
 *
 * Pure and portable: no node:* imports.
 */

/** A compiled delimiter: its bytes and the shift of each byte value. */
export interface Delimiter {
  /** `\r\n--` and the boundary. */
  readonly bytes: Uint8Array
  /** Boyer-Moore-Horspool shift for the byte under the window's last position. */
  readonly skip: Uint8Array
}

const CR = 0x0d

/**
 * The delimiter of a boundary already checked by `isValidBoundary` (ASCII only).
 *
 * @example
 * compileDelimiter('xyz').bytes // \r\n--xyz
 */
export const compileDelimiter = (boundary: string): Delimiter => {
  const m = boundary.length + 4
  const bytes = new Uint8Array(m)
  bytes[0] = CR
  bytes[1] = 0x0a
  bytes[2] = 0x2d
  bytes[3] = 0x2d
  for (let i = 0; i < boundary.length; i++) bytes[i + 4] = boundary.charCodeAt(i) & 0xff
  // m <= 74, so every shift fits a byte.
  const skip = new Uint8Array(256).fill(m)
  for (let j = 0; j < m - 1; j++) skip[bytes[j] as number] = m - 1 - j
  return { bytes, skip }
}

/**
 * The offset of the first whole delimiter in `hay` at or after `from`, or -1.
 *
 * @example
 * findDelimiter(compileDelimiter('b'), new TextEncoder().encode('ab\r\n--b'), 0) // 2
 */
export const findDelimiter = (delimiter: Delimiter, hay: Uint8Array, from: number): number => {
  const pattern = delimiter.bytes
  const skip = delimiter.skip
  const m = pattern.length
  const last = pattern[m - 1] as number
  const end = hay.length
  let i = from + m - 1
  while (i < end) {
    const c = hay[i] as number
    if (c === last) {
      let j = m - 2
      let k = i - 1
      while (j >= 0 && hay[k] === pattern[j]) {
        j--
        k--
      }
      if (j < 0) return i - m + 1
    }
    i += skip[c] as number
  }
  return -1
}

/**
 * Where the earliest suffix of `hay[from..)` that is a proper start of the
 * delimiter begins, or `hay.length` when none is: the bytes from there on must wait for the
 * next chunk. Call it only where `findDelimiter` found nothing.
 *
 * @example
 * delimiterTail(compileDelimiter('b'), new TextEncoder().encode('ab\r\n-'), 0) // 2
 */
export const delimiterTail = (delimiter: Delimiter, hay: Uint8Array, from: number): number => {
  const pattern = delimiter.bytes
  const end = hay.length
  let p = hay.indexOf(CR, Math.max(from, end - pattern.length + 1))
  while (p >= 0) {
    let k = p + 1
    while (k < end && hay[k] === pattern[k - p]) k++
    if (k === end) return p
    p = hay.indexOf(CR, p + 1)
  }
  return end
}

/**
 * How `hay[from..)` goes on from the first `done` bytes of a delimiter: `1` when it completes
 * it, `0` when it goes on matching but ends first, `-1` when it departs from it.
 */
export const continuesDelimiter = (delimiter: Delimiter, done: number, hay: Uint8Array, from: number): -1 | 0 | 1 => {
  const pattern = delimiter.bytes
  const need = pattern.length - done
  const n = Math.min(need, hay.length - from)
  for (let i = 0; i < n; i++) if (hay[from + i] !== pattern[done + i]) return -1
  return n === need ? 1 : 0
}
