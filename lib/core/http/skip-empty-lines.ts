/**
 * `skipEmptyLines`: the empty lines (CRLF) a server ignores where it expects a request line.
 * RFC 9112 §2.2: "In the interest of robustness, a server that is expecting to receive and
 * parse a request-line SHOULD ignore at least one empty line (CRLF) received prior to the
 * request-line." Some clients send a CRLF after a body; a few send one before their first
 * request. Up to {@link MAX_EMPTY_LINES} are ignored, at the start of a connection and
 * between pipelined requests; one more is a 400, so a peer cannot keep a connection busy
 * with empty lines. Line endings stay strict: a bare LF or a CR without LF is refused.
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import { CR, LF } from './char-classes.js'
import { bareCr, bareLf, type HttpError, tooManyEmptyLines } from './http-error.js'

/** How many empty lines may precede a request line (decisions.md, "HTTP/1.1 conformance"). */
export const MAX_EMPTY_LINES = 2

/**
 * The offset of the first byte after the leading empty lines of `bytes`. When the buffer
 * ends inside them, that offset is `bytes.length`, or `bytes.length - 1` with a CR there
 * (its LF not yet received): the caller waits for more.
 *
 * @example
 * skipEmptyLines(bytes('\r\nGET / HTTP/1.1\r\n')) // right(2)
 * skipEmptyLines(bytes('\r\n\r\n\r\nGET')) // left(tooManyEmptyLines(2))
 */
export const skipEmptyLines = (bytes: Uint8Array): Either<HttpError, number> => {
  let p = 0
  for (let lines = 0; ; lines++) {
    const b = bytes[p]
    if (b !== CR && b !== LF) return right(p)
    if (lines === MAX_EMPTY_LINES) return left(tooManyEmptyLines(MAX_EMPTY_LINES))
    if (b === LF) return left(bareLf(p))
    if (p + 1 === bytes.length) return right(p)
    if (bytes[p + 1] !== LF) return left(bareCr(p))
    p += 2
  }
}
