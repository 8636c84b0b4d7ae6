/**
 * `parseFieldLines`: the field lines of a head or of a chunked body's trailer section
 * (RFC 9112 §5), from a line start up to the blank line, into `Header` pairs. Strict: a
 * line starting with whitespace (obs-fold, §5.2), whitespace before the colon (§5.1), an
 * empty or non-token name, a forbidden byte in a value or a CR without LF are refused with
 * 400. Values lose their surrounding whitespace (OWS).
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import { COLON, CR, FIELD_VALUE, HTAB, LF, SP, TCHAR } from './char-classes.js'
import { bareCr, type HttpError, headersTooLarge, invalidHeader, obsFold, whitespaceBeforeColon } from './http-error.js'
import type { Header } from './types.js'

/**
 * The fields of `bytes[start..end)`, where `end` is the offset of the blank line's CR and
 * every line in between ends in CRLF (as `scanHead` guarantees). `text` is the same bytes
 * as a latin1 string starting at offset `base` of `bytes`: names and values are sliced from
 * it (cheap substrings) instead of being decoded one by one.
 *
 * @example
 * const b = bytes('Host: a\r\n\r\n')
 * parseFieldLines(b, latin1(b, 0, b.length), 0, 0, 9, 100) // right([['Host', 'a']])
 */
export const parseFieldLines = (
  bytes: Uint8Array,
  text: string,
  base: number,
  start: number,
  end: number,
  maxFields: number,
): Either<HttpError, Header[]> => {
  const headers: Header[] = []
  let pos = start
  while (pos < end) {
    const first = bytes[pos] as number
    if (first === SP || first === HTAB) return left(obsFold(pos))
    const nameStart = pos
    while (TCHAR[bytes[pos] as number] === 1) pos++
    const afterName = bytes[pos] as number
    if (afterName !== COLON || pos === nameStart) {
      return left(afterName === SP || afterName === HTAB ? whitespaceBeforeColon(pos) : invalidHeader(pos))
    }
    const name = text.slice(nameStart - base, pos - base)
    pos++
    let c = bytes[pos] as number
    while (c === SP || c === HTAB) c = bytes[++pos] as number
    const valueStart = pos
    while (FIELD_VALUE[c] === 1) c = bytes[++pos] as number
    if (c !== CR) return left(invalidHeader(pos))
    if (bytes[pos + 1] !== LF) return left(bareCr(pos))
    let valueEnd = pos
    while (valueEnd > valueStart) {
      const t = bytes[valueEnd - 1] as number
      if (t !== SP && t !== HTAB) break
      valueEnd--
    }
    if (headers.length === maxFields) return left(headersTooLarge(maxFields))
    headers.push([name, text.slice(valueStart - base, valueEnd - base)])
    pos += 2
  }
  return right(headers)
}
