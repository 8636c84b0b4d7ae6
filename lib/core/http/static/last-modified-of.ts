/**
 * `lastModifiedOf`: the Last-Modified field value (RFC 9110 §8.8.2) of a modification time,
 * as an IMF-fixdate (RFC 9110 §5.6.7). Pure and portable: no node:* imports.
 */

// 9999-12-31T23:59:59Z: the last instant an IMF-fixdate's four-digit year can spell.
const LAST_FIXDATE_MS = 253402300799000

/**
 * `Sun, 06 Nov 1994 08:49:37 GMT` for a time in milliseconds since the epoch. With `nowMs`,
 * a time in the future is replaced by `nowMs`: RFC 9110 §8.8.2.1, "An origin server with a
 * clock MUST NOT generate a Last-Modified date that is later than the server's time of
 * message origination". Times before 1970 or after 9999 are clamped to those bounds.
 *
 * @example
 * lastModifiedOf(784111777000) // 'Sun, 06 Nov 1994 08:49:37 GMT'
 */
export const lastModifiedOf = (mtimeMs: number, nowMs?: number): string => {
  const latest = nowMs === undefined ? mtimeMs : Math.min(mtimeMs, nowMs)
  const time = Number.isFinite(latest) ? Math.min(Math.max(latest, 0), LAST_FIXDATE_MS) : 0
  // ECMA-262 §21.4.4.43 defines toUTCString as exactly this format.
  return new Date(time).toUTCString()
}
