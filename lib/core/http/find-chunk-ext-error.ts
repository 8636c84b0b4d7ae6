/**
 * `findChunkExtError`: checks the chunk extensions of a chunk-size line against RFC 9112
 * §7.1.1, exactly. A chunk-size line that does not parse is a framing error: a server that
 * reads it more leniently than a proxy in front of it (or the other way round) splits the
 * body differently, the request-smuggling class of bugs. So a stray byte, a `;` with no
 * name, whitespace with no extension after it, an `=` with no value or an unterminated
 * quoted-string are all refused; well-formed extensions are accepted and ignored.
 *
 *   chunk-ext      = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
 *   chunk-ext-name = token
 *   chunk-ext-val  = token / quoted-string
 *   BWS            = OWS = *( SP / HTAB )                              (RFC 9110 §5.6.3)
 *   quoted-string  = DQUOTE *( qdtext / quoted-pair ) DQUOTE           (RFC 9110 §5.6.4)
 *   qdtext         = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
 *   quoted-pair    = "\" ( HTAB / SP / VCHAR / obs-text )
 *
 * Pure and portable: no node:* imports.
 */
import * as classes from './char-classes.js'

// Local copies: a module binding read in a hot loop can cost a getter call under some loaders.
const { HTAB, SP, TCHAR } = classes

// qdtext and the second byte of a quoted-pair: HTAB, SP, VCHAR, obs-text; never DEL or another control.
const isQuotable = (b: number): boolean => b === HTAB || (b >= 0x20 && b !== 0x7f)

/**
 * The offset of the first byte of `bytes[from..to)` (the line after the chunk size, CRLF
 * excluded) that breaks the chunk-ext grammar, or -1 when the whole span is well-formed.
 *
 * @example
 * findChunkExtError(bytes('; a = "b c";d'), 0, 13) // -1
 * findChunkExtError(bytes(';'), 0, 1) // 1
 */
export const findChunkExtError = (bytes: Uint8Array, from: number, to: number): number => {
  let p = from
  while (p < to) {
    while (p < to && (bytes[p] === SP || bytes[p] === HTAB)) p++
    if (p === to || bytes[p] !== 0x3b) return p
    p++
    while (p < to && (bytes[p] === SP || bytes[p] === HTAB)) p++
    const name = p
    while (p < to && TCHAR[bytes[p] as number] === 1) p++
    if (p === name) return p
    // BWS "=" only if a value follows; otherwise the whitespace must lead to the next ";".
    let q = p
    while (q < to && (bytes[q] === SP || bytes[q] === HTAB)) q++
    if (q === to || bytes[q] !== 0x3d) continue
    p = q + 1
    while (p < to && (bytes[p] === SP || bytes[p] === HTAB)) p++
    if (p < to && bytes[p] === 0x22) {
      p++
      for (;;) {
        if (p >= to) return to
        const b = bytes[p] as number
        if (b === 0x22) break
        if (b === 0x5c) {
          p++
          if (p >= to || !isQuotable(bytes[p] as number)) return Math.min(p, to)
        } else if (!isQuotable(b)) return p
        p++
      }
      p++
    } else {
      const value = p
      while (p < to && TCHAR[bytes[p] as number] === 1) p++
      if (p === value) return p
    }
  }
  return -1
}
