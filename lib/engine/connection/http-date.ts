/**
 * The `Date` header value (an IMF-fixdate, RFC 9110 §5.6.7) for the time `now`, computed
 * at most once a second: the core reads no clock, so the engine hands it this string.
 */

let cachedSecond = -1
let cached = ''

export const httpDate = (now: number): string => {
  const second = Math.floor(now / 1000)
  if (second !== cachedSecond) {
    cachedSecond = second
    cached = new Date(second * 1000).toUTCString()
  }
  return cached
}
