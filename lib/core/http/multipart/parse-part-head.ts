/**
 * `parsePartHead`: a part's header section (RFC 7578 §4.2, §4.4; RFC 2046 §5.1) as a
 * `PartHead`: its `name` and `filename` from `Content-Disposition: form-data`, its
 * `Content-Type` (`text/plain` when absent, RFC 7578 §4.4) and every header line as received.
 *
 * Lines are `name ":" OWS value OWS CRLF` with a token name, as in HTTP (RFC 9112 §5);
 * a bare CR or LF, a folded line, a control byte or a missing colon make the section
 * malformed. Values are UTF-8 (browsers send names and filenames as UTF-8 octets), read as
 * ISO-8859-1 when they are not valid UTF-8, so no byte is ever refused for its encoding.
 * `filename*` takes precedence over `filename` (RFC 6266 §4.3).
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import { decodeUtf8 } from '../../ws/utf8.js'
import { TCHAR } from '../char-classes.js'
import { latin1 } from '../latin1.js'
import type { Header } from '../types.js'
import { malformedPartHeader, type MalformedPartHeader, missingPartName, type MissingPartName } from './multipart-error.js'
import type { PartHead } from './multipart-event.js'
import { decodeExtValue, parseDisposition } from './parse-disposition.js'

const CR = 0x0d
const LF = 0x0a

const text = (bytes: Uint8Array, start: number, end: number): string => {
  for (let i = start; i < end; i++) {
    if ((bytes[i] as number) >= 0x80) return decodeUtf8(bytes.subarray(start, end)) ?? latin1(bytes, start, end)
  }
  return latin1(bytes, start, end)
}

const find = (headers: readonly Header[], name: string): string | undefined => {
  for (const [n, v] of headers) if (n.length === name.length && n.toLowerCase() === name) return v
  return undefined
}

/**
 * The part head of `bytes[start..end)`, a header section with its final empty line (so
 * `end - start` is 2 for a part without headers).
 *
 * @example
 * parsePartHead(new TextEncoder().encode('Content-Disposition: form-data; name="a"\r\n\r\n'), 0, 44)
 * // right({ name: 'a', filename: undefined, contentType: 'text/plain', headers: [...] })
 */
export const parsePartHead = (bytes: Uint8Array, start: number, end: number): Either<MalformedPartHeader | MissingPartName, PartHead> => {
  const headers: Header[] = []
  const stop = end - 2 // before the empty line
  let p = start
  while (p < stop) {
    // name
    const nameStart = p
    while (p < stop && TCHAR[bytes[p] as number] === 1) p++
    if (p === nameStart || bytes[p] !== 0x3a /* : */) return left(malformedPartHeader())
    const name = latin1(bytes, nameStart, p)
    p += 1
    while (p < stop && (bytes[p] === 0x20 || bytes[p] === 0x09)) p++
    const valueStart = p
    let valueEnd = p
    for (;;) {
      if (p >= stop) return left(malformedPartHeader())
      const c = bytes[p] as number
      if (c === CR) break
      // field-value = *( field-vchar / SP / HTAB ), obs-text included (RFC 9110 §5.5)
      if ((c < 0x20 && c !== 0x09) || c === 0x7f) return left(malformedPartHeader())
      p += 1
      if (c !== 0x20 && c !== 0x09) valueEnd = p
    }
    if (bytes[p + 1] !== LF) return left(malformedPartHeader())
    p += 2
    headers.push([name, text(bytes, valueStart, valueEnd)])
  }
  const disposition = find(headers, 'content-disposition')
  if (disposition === undefined) return left(missingPartName())
  const parsed = parseDisposition(disposition)
  if (parsed === undefined) return left(malformedPartHeader())
  const name = parsed.params.get('name')
  if (parsed.type !== 'form-data' || name === undefined) return left(missingPartName())
  const extended = parsed.params.get('filename*')
  const filename = (extended === undefined ? undefined : decodeExtValue(extended)) ?? parsed.params.get('filename')
  const contentType = find(headers, 'content-type') ?? 'text/plain'
  return right({ name, filename, contentType, headers })
}
