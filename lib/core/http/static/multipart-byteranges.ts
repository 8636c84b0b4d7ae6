/**
 * `multipartByteranges`: the framing of a 206 with several ranges, a `multipart/byteranges`
 * body (RFC 9110 §14.6, RFC 2046 §5.1): the Content-Type, each part's head, the closing
 * delimiter and the exact Content-Length. The bytes of each range come from the file, in
 * between, so nothing is copied here. Pure and portable: no node:* imports, no randomness
 * (the boundary comes in as an argument).
 */
import { type ByteRange, contentRangeOf } from './byte-range.js'

/** One part: its head (delimiter, Content-Type, Content-Range, blank line), then the range's bytes. */
export interface BytesPart {
  readonly head: string
  readonly range: ByteRange
}

/** A multipart/byteranges body: send each part's head and bytes in order, then `tail`. */
export interface MultipartByteranges {
  /** The response's Content-Type: `multipart/byteranges; boundary=…`. */
  readonly contentType: string
  readonly parts: readonly BytesPart[]
  readonly tail: string
  /** The body's length in bytes: every head, every range, the tail. */
  readonly length: number
}

// RFC 2046 §5.1.1: boundary := 0*69<bchars> bcharsnospace, bchars without the space.
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=?]{1,70}$/

/**
 * The parts of a multipart/byteranges body. `boundary` must not occur in the file: take at
 * least 16 random bytes in hexadecimal (the caller supplies the randomness); one outside
 * RFC 2046's characters (letters, digits, `'()+_,-./:=?`, 1 to 70 of them) gives `undefined`.
 * `contentType` is the file's, repeated in each part; ASCII, as `contentTypeOf` gives.
 *
 * @example
 * const body = multipartByteranges([{ first: 0, last: 1 }, { first: 8, last: 9 }], 10, 'text/plain', 'b0')
 * body?.parts[0]?.head // '--b0\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-1/10\r\n\r\n'
 * body?.tail // '\r\n--b0--\r\n'
 */
export const multipartByteranges = (
  ranges: readonly ByteRange[],
  size: number,
  contentType: string,
  boundary: string,
): MultipartByteranges | undefined => {
  if (!BOUNDARY.test(boundary)) return undefined
  // The CRLF before each delimiter after the first belongs to the delimiter (RFC 2046 §5.1.1).
  const parts = ranges.map((range, i) => ({
    head: `${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Type: ${contentType}\r\nContent-Range: ${contentRangeOf(range, size)}\r\n\r\n`,
    range,
  }))
  const tail = `\r\n--${boundary}--\r\n`
  const length = parts.reduce((n, p) => n + p.head.length + (p.range.last - p.range.first + 1), tail.length)
  return { contentType: `multipart/byteranges; boundary=${boundary}`, parts, tail, length }
}
