/**
 * Harness `http-text`: the text decoders of a request head. `percentDecode` never throws,
 * leaves text without escapes as it is and undoes `encodeURIComponent`; `parseQuery` agrees
 * with WHATWG `URLSearchParams` wherever no escape is involved and keeps every value a string
 * or a string array; `isValidHost` agrees with a regular expression written from RFC 3986's
 * ABNF (`host [ ":" port ]`); `headerValue` joins repeated fields with ", ".
 */
import { headerValue } from '../../lib/core/http/header-value.js'
import { isValidHost } from '../../lib/core/http/is-valid-host.js'
import { parseQuery } from '../../lib/core/http/parse-query.js'
import { percentDecode } from '../../lib/core/http/percent-decode.js'
import type { Header } from '../../lib/core/http/types.js'
import { expect, latin1, same, utf8, plainBytes } from '../support/contract.js'

// RFC 3986 §3.2.2 and Appendix A, transcribed.
const H16 = '[0-9A-Fa-f]{1,4}'
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])'
const IPV4 = `(?:${DEC_OCTET}\\.){3}${DEC_OCTET}`
const LS32 = `(?:${H16}:${H16}|${IPV4})`
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join('|')
const SUB_DELIMS = "!$&'()*+,;="
const UNRESERVED = 'A-Za-z0-9\\-._~'
const FUTURE = `[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+`
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|%[0-9A-Fa-f]{2})*`
const HOST = new RegExp(`^(?:\\[(?:${IPV6}|${FUTURE})\\]|${IPV4}|${REG_NAME})(?::[0-9]*)?$`)

const checkPercent = (text: string): void => {
  for (const plus of [false, true]) {
    const out = percentDecode(text, plus)
    expect(typeof out === 'string', 'percentDecode gives a string')
    if (!text.includes('%') && !(plus && text.includes('+'))) same(out, text, 'percentDecode without escapes')
  }
  // A well-formed string survives encodeURIComponent and back.
  if (!/\p{Cs}/u.test(text)) same(percentDecode(encodeURIComponent(text)), text, 'percentDecode(encodeURIComponent(s))')
}

const checkQuery = (raw: string): void => {
  const query = parseQuery(raw)
  for (const value of Object.values(query)) {
    expect(typeof value === 'string' || (Array.isArray(value) && value.length > 1 && value.every((v) => typeof v === 'string')), 'a query value')
  }
  if (raw.includes('%') || raw.startsWith('?')) return
  // Without escapes, the WHATWG reading is the same record.
  const expected: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>
  for (const [k, v] of new URLSearchParams(raw)) {
    const had = expected[k]
    expected[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v]
  }
  same({ ...query }, { ...expected }, 'parseQuery vs URLSearchParams')
}

const checkHeaders = (text: string): void => {
  const headers: Header[] = text.split('\n').slice(0, 32).map((line) => {
    const colon = line.indexOf(':')
    return colon < 0 ? [line, ''] : [line.slice(0, colon), line.slice(colon + 1)]
  })
  const name = headers[0]?.[0] ?? ''
  const matching = headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v)
  same(headerValue(headers, name.toUpperCase()), matching.length === 0 ? undefined : matching.join(', '), 'headerValue')
}

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  const text = latin1(data)
  same(isValidHost(text), HOST.test(text), `isValidHost(${JSON.stringify(text)}) vs RFC 3986`)
  checkPercent(text)
  checkPercent(utf8(data))
  checkQuery(text)
  checkQuery(utf8(data))
  checkHeaders(text)
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))
