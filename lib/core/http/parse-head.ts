/**
 * `parseHead`: a complete request head (request line and fields, RFC 9112 §3 and §5) to its
 * values and its body framing (§6). Called once `scanHead` found the blank line. Refuses
 * what RFC 9112 tells a server to refuse: malformed request line (400), other versions (505),
 * an HTTP/1.1 request without Host, several Host lines or an invalid Host value (400, §3.2),
 * Content-Length together with Transfer-Encoding, differing or malformed Content-Lengths,
 * a Transfer-Encoding list not ending in one `chunked` (400), codings other than chunked
 * before it (501), a declared body larger than `maxBody` (413).
 *
 * Pure and portable: no node:* imports.
 * Over 300 lines on purpose: RFC 9112's checks in the order a server applies them (request
 * line, fields, Host, then the body's framing, §6), each refusal beside the rule it enforces;
 * cut in two, that order would be spread over files.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import * as classes from './char-classes.js'
import {
  bodyTooLarge,
  conflictingContentLength,
  contentLengthWithTransferEncoding,
  duplicateHost,
  type HttpError,
  invalidContentLength,
  invalidHost,
  invalidMethod,
  invalidRequestLine,
  invalidTarget,
  invalidTransferEncoding,
  missingHost,
  unsupportedTransferCoding,
  unsupportedVersion,
} from './http-error.js'
import type { HttpLimits } from './http-limits.js'
import { asciiText, latin1 } from './latin1.js'
import { isValidHost } from './is-valid-host.js'
import { fieldsOf, parseAsciiFields, parseFieldLines } from './parse-field-lines.js'
import { readTransferCodings } from './read-transfer-codings.js'
import type { Header, HttpRequest } from './types.js'

// Local copies: a module binding read in a hot loop can cost a getter call under some loaders.
const { CR, LF, SP, TARGET, TCHAR } = classes

/** How the body is delimited (RFC 9112 §6.3). */
export type Framing =
  | { readonly _tag: 'NoBody' }
  | { readonly _tag: 'Length'; readonly length: number }
  | { readonly _tag: 'Chunked' }

/** A parsed head: everything of an `HttpRequest` but the body and trailers. */
export interface Head extends Omit<HttpRequest, 'body' | 'trailers'> {
  readonly framing: Framing
  /** Offset just after the head's blank line: where the body starts. */
  readonly end: number
}

// Any byte but HTAB, CR, LF and visible ASCII/SP (a control, DEL, or a decoded non-ASCII char).
const NOT_PLAIN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\uffff]/

const NO_BODY: Framing = Object.freeze({ _tag: 'NoBody' })
// No Content-Length or Transfer-Encoding line (shared, frozen, never written: a list is made on the first line).
const NONE = Object.freeze([] as string[]) as string[]
const CHUNKED: Framing = Object.freeze({ _tag: 'Chunked' })
// The usual answers of framingOf, made once (an Either is immutable).
const RIGHT_NO_BODY: Either<HttpError, Framing> = right(NO_BODY)
const RIGHT_CHUNKED: Either<HttpError, Framing> = right(CHUNKED)

// The methods most requests use, as interned strings: no decoding on the hot path.
const KNOWN_METHODS = Object.freeze(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'])

const readMethod = (bytes: Uint8Array, end: number): string => {
  for (const m of KNOWN_METHODS) {
    if (m.length !== end) continue
    let same = true
    for (let i = 0; i < end; i++) {
      if (bytes[i] !== m.charCodeAt(i)) {
        same = false
        break
      }
    }
    if (same) return m
  }
  return latin1(bytes, 0, end)
}

const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 0x30 && b <= 0x39

// Splits a list-valued field (RFC 9110 §5.6.1) into trimmed, non-empty, lower-cased members.
const listMembers = (value: string): string[] => {
  const out: string[] = []
  for (const part of value.split(',')) {
    const t = part.trim()
    if (t !== '') out.push(t.toLowerCase())
  }
  return out
}

const isAllDigits = (s: string): boolean => {
  if (s === '') return false
  for (let i = 0; i < s.length; i++) if (!isDigit(s.charCodeAt(i))) return false
  return true
}

// Whether `name` is `lower` (lower-case letters and "-") in any case, without allocating.
// For token bytes, `c | 0x20` equals a lower-case letter or "-" only for that letter in
// either case, or for "-" itself.
const isNamed = (name: string, lower: string): boolean => {
  if (name.length !== lower.length) return false
  for (let i = 0; i < lower.length; i++) if ((name.charCodeAt(i) | 0x20) !== lower.charCodeAt(i)) return false
  return true
}

// RFC 9112 §6.3 items 3–5 and RFC 9110 §8.6.
const framingOf = (
  lengths: readonly string[],
  codings: readonly string[],
  limits: HttpLimits,
): Either<HttpError, Framing> => {
  if (lengths.length > 0 && codings.length > 0) return left(contentLengthWithTransferEncoding())
  if (codings.length > 0) {
    // The usual single `chunked` first, without building the list.
    if (codings.length === 1 && isNamed(codings[0] as string, 'chunked')) return RIGHT_CHUNKED
    const members = readTransferCodings(codings)
    const last = members?.[members.length - 1]
    // RFC 9112 §6.3: "If a Transfer-Encoding header field is present in a request and the
    // chunked transfer coding is not the final encoding, the message body length cannot be
    // determined reliably; the server MUST respond with the 400 (Bad Request) status code and
    // then close the connection." No parameters are defined for chunked (§7.1).
    if (members === undefined || last === undefined || last.name !== 'chunked' || last.parameters) {
      return left(invalidTransferEncoding(codings.join(', ')))
    }
    const before = members.slice(0, -1)
    // §6.1: "A sender MUST NOT apply the chunked transfer coding more than once to a message body."
    if (before.some((c) => c.name === 'chunked')) return left(invalidTransferEncoding(codings.join(', ')))
    // §6.1: "A server that receives a request message with a transfer coding it does not
    // understand SHOULD respond with 501 (Not Implemented)." This core decodes none but chunked.
    const other = before[0]
    return other === undefined ? right(CHUNKED) : left(unsupportedTransferCoding(other.name))
  }
  if (lengths.length === 0) return RIGHT_NO_BODY
  // One plain decimal value: the usual case, no splitting.
  const only = lengths.length === 1 ? (lengths[0] as string) : ''
  if (only.length > 0 && only.length <= 15 && isAllDigits(only)) {
    const n = Number(only)
    if (n > limits.maxBody) return left(bodyTooLarge(limits.maxBody))
    return right(n === 0 ? NO_BODY : { _tag: 'Length', length: n })
  }
  let digits: string | undefined
  for (const value of lengths) {
    for (const part of value.split(',')) {
      const t = part.trim()
      if (!isAllDigits(t)) return left(invalidContentLength(value))
      const norm = t.replace(/^0+(?=\d)/, '')
      if (digits === undefined) digits = norm
      else if (digits !== norm) return left(conflictingContentLength(lengths))
    }
  }
  const n = digits === undefined || digits.length > 15 ? Infinity : Number(digits)
  if (n > limits.maxBody) return left(bodyTooLarge(limits.maxBody))
  return right(n === 0 ? NO_BODY : { _tag: 'Length', length: n })
}

/**
 * Parses the head in `bytes[0..end)`, `end` being just after the blank line.
 *
 * @example
 * parseHead(bytes('GET /a?b HTTP/1.1\r\nHost: x\r\n\r\n'), 31, DEFAULT_HTTP_LIMITS)
 */
export const parseHead = (bytes: Uint8Array, end: number, limits: HttpLimits): Either<HttpError, Head> => {
  // RFC 9112 §3: request-line = method SP request-target SP HTTP-version CRLF
  let pos = 0
  while (TCHAR[bytes[pos] as number] === 1) pos++
  if (pos === 0 || bytes[pos] !== SP) return left(invalidMethod(pos))
  const method = readMethod(bytes, pos)
  const targetStart = ++pos
  let query = -1
  let b = bytes[pos] as number
  while (TARGET[b] === 1) {
    if (b === 0x3f && query < 0) query = pos
    b = bytes[++pos] as number
  }
  const targetEnd = pos
  if (b !== SP) return left(b === CR ? invalidRequestLine(pos) : invalidTarget(pos))
  if (targetEnd === targetStart) return left(invalidRequestLine(pos))
  // HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3)
  const v = pos + 1
  if (
    bytes[v] !== 0x48 || bytes[v + 1] !== 0x54 || bytes[v + 2] !== 0x54 || bytes[v + 3] !== 0x50 || bytes[v + 4] !== 0x2f ||
    !isDigit(bytes[v + 5]) || bytes[v + 6] !== 0x2e || !isDigit(bytes[v + 7]) ||
    bytes[v + 8] !== CR || bytes[v + 9] !== LF
  ) {
    return left(invalidRequestLine(v))
  }
  const major = (bytes[v + 5] as number) - 0x30
  const minor = (bytes[v + 7] as number) - 0x30
  if (major !== 1 || minor > 1) return left(unsupportedVersion(`HTTP/${major}.${minor}`))
  const protocol = minor === 1 ? 'HTTP/1.1' : 'HTTP/1.0'

  // RFC 9112 §3.2: origin-form, absolute-form, asterisk-form (OPTIONS only).
  // The head is decoded once, natively; target, names and values are substrings of it. One
  // native scan proves it plain ASCII without controls (the common case), so the fields need
  // no JS walk over their values; otherwise the byte-exact path finds the error or decodes
  // obs-text as latin1.
  let text = asciiText(bytes, 0, end)
  let headers: Header[]
  if (!NOT_PLAIN.test(text)) {
    const fields = parseAsciiFields(bytes, text, v + 10, end - 2, limits.maxHeaders)
    if (fields._tag === 'Left') return fields
    headers = fields.right
  } else {
    const fields = parseFieldLines(bytes, v + 10, end - 2, limits.maxHeaders)
    if (fields._tag === 'Left') return fields
    if (fields.right.obsText) text = latin1(bytes, 0, end)
    headers = fieldsOf(text, 0, fields.right.offsets)
  }
  let hosts = 0
  for (let i = 0; i < headers.length; i++) if (isNamed((headers[i] as Header)[0], 'host')) hosts++
  const q = query < 0 ? -1 : query - targetStart
  return completeHead(method, text.slice(targetStart, targetEnd), q, targetStart, protocol, headers, hosts, false, false, end, limits)
}

/**
 * The rest of a head once its request line and fields are read: the target's form (path and
 * query), the body framing and the connection semantics. `target` is the request-target,
 * `query` the index of its first `?` (-1 when none) and `targetOffset` its offset in the
 * head (for errors). The caller counts the Host field lines (`hosts`); `hostChecked` says it
 * also found the value of the only one valid (on its bytes, the cheaper check), and `plain`
 * that no field is Content-Length, Transfer-Encoding, Connection or Expect (so the fields
 * need not be read again). Shared by {@link parseHead} and the single-pass reader.
 */
export const completeHead = (
  method: string,
  target: string,
  query: number,
  targetOffset: number,
  protocol: 'HTTP/1.0' | 'HTTP/1.1',
  headers: readonly Header[],
  hosts: number,
  hostChecked: boolean,
  plain: boolean,
  end: number,
  limits: HttpLimits,
): Either<HttpError, Head> => {
  const q = query < 0 ? target.length : query
  let path: string
  if (target.charCodeAt(0) === 0x2f) path = q === target.length ? target : target.slice(0, q)
  else if (target === '*' && method === 'OPTIONS') path = '*'
  else {
    const lower = target.slice(0, 8).toLowerCase()
    const authority = lower.startsWith('http://') ? 7 : lower.startsWith('https://') ? 8 : -1
    if (authority < 0) return left(invalidTarget(targetOffset))
    const slash = target.indexOf('/', authority)
    const pathStart = slash < 0 || slash > q ? q : slash
    if (pathStart === authority) return left(invalidTarget(targetOffset + authority))
    path = pathStart === q ? '/' : target.slice(pathStart, q)
  }
  const rawQuery = q === target.length ? '' : target.slice(q + 1)

  // The fields that drive framing and the connection, found by length before any lower-casing.
  let lengths: string[] = NONE
  let codings: string[] = NONE
  let close = false
  let keep = false
  let expectContinue = false
  for (let i = plain ? headers.length : 0; i < headers.length; i++) {
    const [name, value] = headers[i] as Header
    switch (name.length) {
      case 14:
        if (isNamed(name, 'content-length')) (lengths === NONE ? (lengths = []) : lengths).push(value)
        break
      case 17:
        if (isNamed(name, 'transfer-encoding')) (codings === NONE ? (codings = []) : codings).push(value)
        break
      case 10:
        if (isNamed(name, 'connection')) {
          // The usual single token first, then the general list.
          if (isNamed(value, 'keep-alive')) keep = true
          else if (isNamed(value, 'close')) close = true
          else {
            for (const token of listMembers(value)) {
              if (token === 'close') close = true
              else if (token === 'keep-alive') keep = true
            }
          }
        }
        break
      case 6:
        if (isNamed(name, 'expect') && value.toLowerCase() === '100-continue') expectContinue = true
        break
    }
  }
  // RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any
  // HTTP/1.1 request message that lacks a Host header field and to any request message that
  // contains more than one Host header field line or a Host header field with an invalid
  // field value." Decided here, on the head, before any body is waited for. HTTP/1.0 may
  // omit Host (decisions.md).
  if (hosts === 0) {
    if (protocol === 'HTTP/1.1') return left(missingHost())
  } else if (hosts > 1) return left(duplicateHost(hosts))
  else if (!hostChecked) {
    const host = (headers.find(([name]) => isNamed(name, 'host')) as Header)[1]
    if (!isValidHost(host)) return left(invalidHost(host))
  }
  const framing = framingOf(lengths, codings, limits)
  if (framing._tag === 'Left') return framing
  // RFC 9112 §9.3: 1.1 persists unless "close"; 1.0 only with "keep-alive". §6.1: a 1.0
  // message with Transfer-Encoding has faulty framing, so its connection is closed after it.
  const keepAlive = !close && (protocol === 'HTTP/1.1' ? true : keep && codings.length === 0)
  return right({ method, target, path, rawQuery, protocol, headers, keepAlive, expectContinue, framing: framing.right, end })
}
