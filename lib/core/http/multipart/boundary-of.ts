/**
 * `boundaryOf`: the `boundary` parameter of a `multipart/form-data` Content-Type (RFC 7578
 * §4.1), as a token or a quoted-string (RFC 9110 §5.6.6), checked against RFC 2046 §5.1.1:
 *
 *   boundary       := 0*69<bchars> bcharsnospace
 *   bchars         := bcharsnospace / " "
 *   bcharsnospace  := DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?"
 *
 * A parameter list that cannot be read, or that names `boundary` twice (two readers could pick
 * different ones), gives no boundary.
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import { TCHAR } from '../char-classes.js'
import { type BoundaryError, invalidBoundary, missingBoundary, notMultipart } from './multipart-error.js'

/** Longest boundary RFC 2046 §5.1.1 allows. */
export const MAX_BOUNDARY = 70

const BCHARS_NO_SPACE = /^[0-9A-Za-z'()+_,\-./:=?]$/

/** Whether `boundary` is 1..70 bchars not ending in a space (RFC 2046 §5.1.1). */
export const isValidBoundary = (boundary: string): boolean => {
  const n = boundary.length
  if (n === 0 || n > MAX_BOUNDARY || boundary.charCodeAt(n - 1) === 0x20) return false
  for (let i = 0; i < n; i++) {
    const c = boundary[i] as string
    if (c !== ' ' && !BCHARS_NO_SPACE.test(c)) return false
  }
  return true
}

const isOws = (c: number): boolean => c === 0x20 || c === 0x09
const isTchar = (c: number): boolean => c < 128 && TCHAR[c] === 1

/**
 * The boundary of a `multipart/form-data` Content-Type, or why there is none: `NotMultipart`
 * (415) for another media type or none, `MissingBoundary` or `InvalidBoundary` (400).
 *
 * @example
 * boundaryOf('multipart/form-data; boundary="a b"') // right('a b')
 * boundaryOf('text/plain')                          // left(NotMultipart)
 */
export const boundaryOf = (contentType: string | undefined): Either<BoundaryError, string> => {
  const text = contentType ?? ''
  const semi = text.indexOf(';')
  const type = (semi < 0 ? text : text.slice(0, semi)).trim().toLowerCase()
  if (type !== 'multipart/form-data') return left(notMultipart(type))
  let found: string | undefined
  let i = semi < 0 ? text.length : semi
  const n = text.length
  // *( OWS ";" OWS parameter ), where i is at a ";" or at the end.
  while (i < n) {
    i += 1 // the ";"
    while (i < n && isOws(text.charCodeAt(i))) i++
    if (i === n) break // a trailing ";" is harmless
    const nameStart = i
    while (i < n && isTchar(text.charCodeAt(i))) i++
    const name = text.slice(nameStart, i).toLowerCase()
    const isBoundary = name === 'boundary'
    if (name === '' || text.charCodeAt(i) !== 0x3d /* = */) return left(isBoundary ? invalidBoundary(text.slice(nameStart)) : found === undefined ? missingBoundary() : invalidBoundary(found))
    i += 1
    let value = ''
    if (text.charCodeAt(i) === 0x22 /* " */) {
      i += 1
      let closed = false
      while (i < n) {
        const c = text.charCodeAt(i)
        if (c === 0x22) {
          closed = true
          i += 1
          break
        }
        if (c === 0x5c /* \ */ && i + 1 < n) i += 1
        value += text[i]
        i += 1
      }
      if (!closed) return left(isBoundary ? invalidBoundary(value) : found === undefined ? missingBoundary() : invalidBoundary(found))
    } else {
      const start = i
      while (i < n && isTchar(text.charCodeAt(i))) i++
      value = text.slice(start, i)
    }
    while (i < n && isOws(text.charCodeAt(i))) i++
    if (i < n && text.charCodeAt(i) !== 0x3b /* ; */) {
      return left(isBoundary || found !== undefined ? invalidBoundary(isBoundary ? value : (found ?? '')) : missingBoundary())
    }
    if (isBoundary) {
      if (found !== undefined) return left(invalidBoundary(value))
      found = value
    }
  }
  if (found === undefined) return left(missingBoundary())
  return isValidBoundary(found) ? right(found) : left(invalidBoundary(found))
}
