/**
 * `readTransferCodings`: the codings of a request's Transfer-Encoding field lines, in the
 * order they were applied, by RFC 9112 §6.1's grammar. What they mean for the framing (only
 * a final `chunked` delimits a body) is decided by the caller.
 *
 *   Transfer-Encoding  = #transfer-coding                                  (RFC 9112 §6.1)
 *   transfer-coding    = token *( OWS ";" OWS transfer-parameter )         (RFC 9110 §10.1.4)
 *   transfer-parameter = token BWS "=" BWS ( token / quoted-string )
 *
 * A list (RFC 9110 §5.6.1) may hold empty elements, which are skipped.
 *
 * Pure and portable: no node:* imports.
 */
import * as classes from './char-classes.js'

// Local copies: a module binding read in a hot loop can cost a getter call under some loaders.
const { HTAB, SP, TCHAR } = classes

/** One coding of the list: its name, lower-cased, and whether it carried parameters. */
export interface TransferCoding {
  readonly name: string
  readonly parameters: boolean
}

const isTchar = (c: number): boolean => c < 0x80 && TCHAR[c] === 1

const skipOws = (s: string, at: number): number => {
  let i = at
  for (let c = s.charCodeAt(i); c === SP || c === HTAB; c = s.charCodeAt(++i));
  return i
}

const skipToken = (s: string, at: number): number => {
  let i = at
  while (i < s.length && isTchar(s.charCodeAt(i))) i++
  return i
}

// RFC 9110 §5.6.4: quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE, from the opening
// quote at `at`; the offset after the closing quote, or -1.
const skipQuoted = (s: string, at: number): number => {
  for (let i = at + 1; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 0x22) return i + 1
    if (c === 0x5c) {
      // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
      const n = s.charCodeAt(++i)
      if (!(n === HTAB || (n >= 0x20 && n !== 0x7f && n <= 0xff))) return -1
    } else if (!(c === HTAB || (c >= 0x20 && c !== 0x7f && c <= 0xff))) return -1
  }
  return -1
}

/**
 * The codings of the joined field values, or `undefined` when the list breaks the grammar.
 *
 * @example
 * readTransferCodings(['gzip, Chunked']) // [{ name: 'gzip', parameters: false }, { name: 'chunked', parameters: false }]
 * readTransferCodings(['chunked;']) // undefined
 */
export const readTransferCodings = (values: readonly string[]): readonly TransferCoding[] | undefined => {
  const s = values.join(',')
  const out: TransferCoding[] = []
  let i = 0
  for (;;) {
    i = skipOws(s, i)
    if (i === s.length) return out
    if (s.charCodeAt(i) === 0x2c) {
      i++
      continue
    }
    const nameEnd = skipToken(s, i)
    if (nameEnd === i) return undefined
    const name = s.slice(i, nameEnd).toLowerCase()
    let parameters = false
    i = nameEnd
    for (;;) {
      const semi = skipOws(s, i)
      if (s.charCodeAt(semi) !== 0x3b) break
      const key = skipOws(s, semi + 1)
      const keyEnd = skipToken(s, key)
      if (keyEnd === key) return undefined
      const eq = skipOws(s, keyEnd)
      if (s.charCodeAt(eq) !== 0x3d) return undefined
      const val = skipOws(s, eq + 1)
      const valEnd = s.charCodeAt(val) === 0x22 ? skipQuoted(s, val) : skipToken(s, val)
      if (valEnd <= val) return undefined
      parameters = true
      i = valEnd
    }
    out.push({ name, parameters })
    i = skipOws(s, i)
    if (i === s.length) return out
    if (s.charCodeAt(i) !== 0x2c) return undefined
    i++
  }
}
