/**
 * `percentDecode`: URL-decoding that never throws. A malformed escape (`%zz`, a lone `%`,
 * bytes that are not UTF-8) leaves the text as it came rather than failing the request.
 * Pure and portable: no node:* imports.
 */

/**
 * Decodes `%XX` escapes as UTF-8, and `+` as a space when `plusIsSpace` (form encoding,
 * WHATWG URL §5.1); returns the input unchanged when it cannot be decoded.
 *
 * @example
 * percentDecode('a%20b+c', true) // 'a b c'
 */
export const percentDecode = (text: string, plusIsSpace = false): string => {
  const spaced = plusIsSpace && text.includes('+') ? text.replaceAll('+', ' ') : text
  if (!spaced.includes('%')) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}
