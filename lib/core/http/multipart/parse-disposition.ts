/**
 * `parseDisposition`: a part's `Content-Disposition` value (RFC 7578 §4.2, the grammar of
 * RFC 6266 §4.1) as its type and parameters, with names lower-cased and the first of a
 * repeated parameter kept.
 *
 *   content-disposition = disposition-type *( OWS ";" OWS disposition-parm )
 *   disposition-parm    = token "=" ( token / quoted-string )
 *
 * Quoted values are read as senders write them: a backslash before `"` or `\` escapes it
 * (RFC 9110 §5.6.4, curl `--form-escape`), any other backslash is kept (browsers send `\`
 * as it is), and `%22`, `%0D`, `%0A` become `"`, CR, LF, the three escapes browsers and
 * `curl -F` use (WHATWG HTML, "multipart/form-data encoding algorithm"). An unquoted value
 * runs to the next `;`, trimmed. `filename*` (RFC 8187 `charset'lang'pct-encoded`, UTF-8 or
 * ISO-8859-1) is decoded by `decodeExtValue`; one that cannot be read is ignored.
 *
 * Pure and portable: no node:* imports.
 */
import { TCHAR } from '../char-classes.js'
import { decodeUtf8 } from '../../ws/utf8.js'

/** A parsed Content-Disposition. */
export interface Disposition {
  /** The disposition type, lower-cased (`form-data`). */
  readonly type: string
  /** Parameters by lower-cased name, values decoded. */
  readonly params: ReadonlyMap<string, string>
}

const isOws = (c: number): boolean => c === 0x20 || c === 0x09
const isTchar = (c: number): boolean => c < 128 && TCHAR[c] === 1

const unescapeBrowser = (value: string): string =>
  value.indexOf('%') < 0 ? value : value.replace(/%(22|0d|0a)/gi, (m) => (m === '%22' ? '"' : m[2] === 'd' || m[2] === 'D' ? '\r' : '\n'))

/**
 * The type and parameters, or `undefined` when the value does not follow the grammar.
 *
 * @example
 * parseDisposition('form-data; name="a"; filename="b.txt"')?.params.get('filename') // 'b.txt'
 */
export const parseDisposition = (value: string): Disposition | undefined => {
  const n = value.length
  let i = 0
  while (i < n && isOws(value.charCodeAt(i))) i++
  const typeStart = i
  while (i < n && isTchar(value.charCodeAt(i))) i++
  if (i === typeStart) return undefined
  const type = value.slice(typeStart, i).toLowerCase()
  const params = new Map<string, string>()
  for (;;) {
    while (i < n && isOws(value.charCodeAt(i))) i++
    if (i === n) break
    if (value.charCodeAt(i) !== 0x3b /* ; */) return undefined
    i += 1
    while (i < n && isOws(value.charCodeAt(i))) i++
    if (i === n) break // a trailing ";"
    const nameStart = i
    while (i < n && isTchar(value.charCodeAt(i))) i++
    if (i === nameStart) return undefined
    const name = value.slice(nameStart, i).toLowerCase()
    while (i < n && isOws(value.charCodeAt(i))) i++
    if (value.charCodeAt(i) !== 0x3d /* = */) return undefined
    i += 1
    while (i < n && isOws(value.charCodeAt(i))) i++
    let param: string
    if (value.charCodeAt(i) === 0x22 /* " */) {
      i += 1
      let out = ''
      let from = i
      for (;;) {
        if (i >= n) return undefined // no closing quote
        const c = value.charCodeAt(i)
        if (c === 0x22) break
        if (c === 0x5c /* \ */) {
          const next = value.charCodeAt(i + 1)
          if (next === 0x22 || next === 0x5c) {
            out += value.slice(from, i)
            from = i + 1
            i += 2
            continue
          }
        }
        i += 1
      }
      out += value.slice(from, i)
      i += 1 // the closing quote
      param = unescapeBrowser(out)
    } else {
      const start = i
      while (i < n && value.charCodeAt(i) !== 0x3b) i++
      param = value.slice(start, i).trim()
    }
    if (!params.has(name)) params.set(name, param)
  }
  return { type, params }
}

const HEX = /^[0-9A-Fa-f]{2}$/

/**
 * An RFC 8187 ext-value (`UTF-8''%E2%82%AC.txt`) as text, or `undefined` for another charset,
 * bad percent-encoding or bytes that are not UTF-8.
 *
 * @example
 * decodeExtValue("UTF-8''%E2%82%AC.txt") // '€.txt'
 */
export const decodeExtValue = (value: string): string | undefined => {
  const first = value.indexOf("'")
  const second = first < 0 ? -1 : value.indexOf("'", first + 1)
  if (second < 0) return undefined
  const charset = value.slice(0, first).toLowerCase()
  const encoded = value.slice(second + 1)
  const bytes: number[] = []
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded.charCodeAt(i)
    if (c === 0x25 /* % */) {
      const hex = encoded.slice(i + 1, i + 3)
      if (!HEX.test(hex)) return undefined
      bytes.push(Number.parseInt(hex, 16))
      i += 2
    } else if (c > 0x20 && c < 0x7f) bytes.push(c)
    else return undefined
  }
  if (charset === 'utf-8') return decodeUtf8(Uint8Array.from(bytes))
  if (charset !== 'iso-8859-1') return undefined
  let text = ''
  for (const b of bytes) text += String.fromCharCode(b)
  return text
}
