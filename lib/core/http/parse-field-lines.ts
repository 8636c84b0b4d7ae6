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
import * as classes from './char-classes.js'
import { bareCr, type HttpError, headersTooLarge, invalidHeader, obsFold, whitespaceBeforeColon } from './http-error.js'
import type { Header } from './types.js'

// Local copies: a module binding read in a hot loop can cost a getter call under some loaders.
const { COLON, CR, FIELD_VALUE, HTAB, LF, SP, TCHAR } = classes

/** Field lines as offsets: `[nameStart, nameEnd, valueStart, valueEnd]` per field, and whether any value byte is obs-text. */
export interface FieldOffsets {
  readonly offsets: readonly number[]
  /** A value holds a byte >= 0x80, so the text must be decoded as latin1 rather than as ASCII. */
  readonly obsText: boolean
}

/**
 * Validates the field lines of `bytes[start..end)`, where `end` is the offset of the blank
 * line's CR and every line in between ends in CRLF (as `scanHead` guarantees), and answers
 * their offsets; {@link fieldsOf} turns them into `Header` pairs once the text is decoded,
 * so the head is decoded in one call instead of one per name and value.
 *
 * @example
 * parseFieldLines(bytes('Host: a\r\n\r\n'), 0, 9, 100) // right({ offsets: [0, 4, 6, 7], obsText: false })
 */
export const parseFieldLines = (bytes: Uint8Array, start: number, end: number, maxFields: number): Either<HttpError, FieldOffsets> => {
  const offsets: number[] = []
  let high = 0
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
    const nameEnd = pos
    pos++
    let c = bytes[pos] as number
    while (c === SP || c === HTAB) c = bytes[++pos] as number
    const valueStart = pos
    while (FIELD_VALUE[c] === 1) {
      high |= c
      c = bytes[++pos] as number
    }
    if (c !== CR) return left(invalidHeader(pos))
    if (bytes[pos + 1] !== LF) return left(bareCr(pos))
    let valueEnd = pos
    while (valueEnd > valueStart) {
      const t = bytes[valueEnd - 1] as number
      if (t !== SP && t !== HTAB) break
      valueEnd--
    }
    if (offsets.length === maxFields * 4) return left(headersTooLarge(maxFields))
    offsets.push(nameStart, nameEnd, valueStart, valueEnd)
    pos += 2
  }
  return right({ offsets, obsText: (high & 0x80) !== 0 })
}

/**
 * The fields of an all-ASCII, control-free head (`text` is its decoded string, byte offsets
 * equal string offsets): the same answer as {@link parseFieldLines} + {@link fieldsOf}, but
 * values are not walked byte by byte in JS; line ends are found by the native `indexOf`.
 * The caller proves the precondition with one native scan of the text (no byte >= 0x80, no
 * control but HTAB, CR and LF), so only names, colons, OWS and CRLFs remain to check.
 *
 * @example
 * parseAsciiFields(bytes('Host: a\r\n\r\n'), 'Host: a\r\n\r\n', 0, 9, 100) // right([['Host', 'a']])
 */
export const parseAsciiFields = (
  bytes: Uint8Array,
  text: string,
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
    const nameEnd = pos
    pos++
    let c = bytes[pos] as number
    while (c === SP || c === HTAB) c = bytes[++pos] as number
    const valueStart = pos
    // Every LF is preceded by CR (scanHead), so the first CR ends the line unless it is bare.
    const cr = text.indexOf('\r', pos)
    if (bytes[cr + 1] !== LF) return left(bareCr(cr))
    let valueEnd = cr
    while (valueEnd > valueStart) {
      const t = bytes[valueEnd - 1] as number
      if (t !== SP && t !== HTAB) break
      valueEnd--
    }
    if (headers.length === maxFields) return left(headersTooLarge(maxFields))
    headers.push([text.slice(nameStart, nameEnd), text.slice(valueStart, valueEnd)])
    pos = cr + 2
  }
  return right(headers)
}

/**
 * The `Header` pairs of `offsets`, sliced from `text`, the decoded bytes starting at offset `base`.
 *
 * @example
 * fieldsOf('Host: a\r\n', 0, [0, 4, 6, 7]) // [['Host', 'a']]
 */
export const fieldsOf = (text: string, base: number, offsets: readonly number[]): Header[] => {
  const headers: Header[] = []
  for (let i = 0; i < offsets.length; i += 4) {
    const o = offsets as number[]
    headers.push([text.slice(o[i]! - base, o[i + 1]! - base), text.slice(o[i + 2]! - base, o[i + 3]! - base)])
  }
  return headers
}
