/**
 * `parseHttpDate`: an HTTP-date (RFC 9110 §5.6.7) in any of its three formats, as
 * milliseconds since the epoch, or `undefined` when the text is not one. Pure and portable:
 * no node:* imports, no clock (the time for two-digit years comes in as an argument).
 *
 *   HTTP-date    = IMF-fixdate / obs-date
 *   IMF-fixdate  = day-name "," SP date1 SP time-of-day SP GMT     ; Sun, 06 Nov 1994 08:49:37 GMT
 *   rfc850-date  = day-name-l "," SP date2 SP time-of-day SP GMT   ; Sunday, 06-Nov-94 08:49:37 GMT
 *   asctime-date = day-name SP date3 SP time-of-day SP year         ; Sun Nov  6 08:49:37 1994
 */

const MONTHS = Object.freeze(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'])

// The names are case-sensitive (%s"…" in RFC 9110's grammar); the day name is not checked
// against the date, as RFC 9110 asks of none of the formats.
const FIXDATE = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), (\d\d) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d\d):(\d\d):(\d\d) GMT$/
const RFC850 = /^(Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday), (\d\d)-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d\d) (\d\d):(\d\d):(\d\d) GMT$/
const ASCTIME = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([\d ]\d) (\d\d):(\d\d):(\d\d) (\d{4})$/

// The UTC time of the fields, or undefined when a field is out of range (Feb 30, 24:00).
// A leap second (:60, allowed by the grammar) is read as :59.
const utc = (year: number, month: number, day: number, hour: number, minute: number, second: number): number | undefined => {
  if (hour > 23 || minute > 59 || second > 60 || day < 1) return undefined
  const time = Date.UTC(year, month, day, hour, minute, Math.min(second, 59))
  const date = new Date(time)
  // Date.UTC maps years 0–99 to 1900–1999; set the year again to keep it as written.
  if (year < 100) date.setUTCFullYear(year)
  return date.getUTCDate() === day && date.getUTCMonth() === month ? date.getTime() : undefined
}

// RFC 9110 §5.6.7: "Recipients of a timestamp value in rfc850-date format, which uses a
// two-digit year, MUST interpret a timestamp that appears to be more than 50 years in the
// future as representing the most recent year in the past that had the same last two
// digits." So the year is the one in the 100 years from 49 before now to 50 after; without
// a clock, years 70–99 are 19xx and 00–69 are 20xx.
const fullYear = (twoDigits: number, nowMs: number | undefined): number => {
  if (nowMs === undefined || !Number.isFinite(nowMs)) return twoDigits >= 70 ? 1900 + twoDigits : 2000 + twoDigits
  const now = new Date(nowMs).getUTCFullYear()
  const year = now - (now % 100) + twoDigits
  return year > now + 50 ? year - 100 : year < now - 49 ? year + 100 : year
}

/**
 * Milliseconds since the epoch of an HTTP-date, or `undefined` for anything else (a
 * recipient ignores an invalid date, RFC 9110 §13.1.3, §13.1.4). Leading and trailing
 * whitespace is allowed; nothing else is. `nowMs` places the two-digit years of the
 * obsolete rfc850 format.
 *
 * @example
 * parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT') // 784111777000
 * parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT') // 784111777000
 * parseHttpDate('Sun Nov  6 08:49:37 1994') // 784111777000
 * parseHttpDate('yesterday') // undefined
 */
export const parseHttpDate = (text: string, nowMs?: number): number | undefined => {
  const value = text.trim()
  if (value.length > 40) return undefined
  let m = FIXDATE.exec(value)
  if (m !== null) return utc(Number(m[4]), MONTHS.indexOf(m[3] as string), Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]))
  m = RFC850.exec(value)
  if (m !== null) {
    return utc(fullYear(Number(m[4]), nowMs), MONTHS.indexOf(m[3] as string), Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]))
  }
  m = ASCTIME.exec(value)
  if (m !== null) return utc(Number(m[7]), MONTHS.indexOf(m[2] as string), Number((m[3] as string).trim()), Number(m[4]), Number(m[5]), Number(m[6]))
  return undefined
}
