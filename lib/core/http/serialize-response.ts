/**
 * `serializeResponse`: a Response value to the bytes of one HTTP/1.1 response, in one
 * buffer (status line, headers, body). The framing headers are derived here, never taken
 * from the application: exactly one `Content-Type`, a `Content-Length` in bytes, and the
 * `Connection` the shell negotiated. The core reads no clock, so `Date` comes in as an option.
 *
 * A server serialises through its own `SerializeCache` (`createSerializeCache`,
 * serialize-cache.ts): the output pool, the status-line and Date caches and the last-answer
 * memo are fields of it, so servers share nothing; without one, a call makes a fresh cache
 * (the same bytes).
 *
 * Pure and portable: no node:* imports, no Buffer.
 * Over 300 lines on purpose: the string path (`assemble`) and the byte path (`writeAnswer`)
 * must give the same bytes (a property spec compares them), so they stay side by side; the
 * per-server state is serialize-cache.ts.
 */
import { isFramingHeader } from './is-framing-header.js'
import * as pooled from './serialize-cache.js'
import { createSerializeCache, dateBytes, dateLine, prefixOf, type SerializeCache, statusLine, typedLine } from './serialize-cache.js'
import { stringifyJson } from './stringify-json.js'
import type { Response } from './types.js'

/** How the response is sent on this connection. */
export interface SerializeOptions {
  /** Whether the connection stays open; `false` adds `Connection: close`. */
  readonly keepAlive: boolean
  /** The request was HEAD: headers as for GET, no body (RFC 9110 §9.3.2). */
  readonly head?: boolean
  /** The `Date` header value (an IMF-fixdate, RFC 9110 §5.6.7), supplied by the shell's clock. */
  readonly date?: string
  /** The request's version: an HTTP/1.0 client that keeps the connection gets `Connection: keep-alive`. */
  readonly protocol?: 'HTTP/1.0' | 'HTTP/1.1'
  /**
   * Told when a JSON body cannot be encoded (a cycle, a BigInt) and 500
   * `unserializable_body` goes out instead, with what `JSON.stringify` threw, so the shell
   * can log it with the route like any handler error. Must not throw.
   */
  readonly onUnserializable?: (error: unknown) => void
}

const encoder = new TextEncoder()
const EMPTY: Uint8Array = new Uint8Array(0)

// serialize-cache.ts's sizes as this module's own constants: V8 folds a module's own `const`s
// into the code it optimizes, but loads an imported binding at every use (read per answer).
const POOL_SIZE = pooled.POOL_SIZE
const POOLED_MAX = pooled.POOLED_MAX

export { createSerializeCache, type SerializeCache } from './serialize-cache.js'

const isAscii = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false
  return true
}

const UNSERIALIZABLE = '{"error":"unserializable_body"}'

// Why a body has no JSON text: what JSON.stringify throws, or a TypeError when it gives
// `undefined` (a function, a symbol). Only on the failure path, after stringifyJson failed.
const unserializableReason = (body: unknown): unknown => {
  try {
    JSON.stringify(body)
    return new TypeError('the response body has no JSON text')
  } catch (error) {
    return error
  }
}


// The head and body as one buffer; the body is `bodyText` (ASCII) when set, else `body`.
// One native encodeInto straight into the pool: cheaper than a JS loop over a built-up string.
const assemble = (cache: SerializeCache, head: string, bodyText: string | undefined, body: Uint8Array): Uint8Array => {
  const text = bodyText === undefined ? head : head + bodyText
  // At most 3 bytes per UTF-16 unit (a header value may be beyond ASCII: sent as UTF-8).
  const room = text.length * 3 + body.length
  if (room <= POOLED_MAX) {
    if (cache.used + room > POOL_SIZE) {
      cache.pool = new Uint8Array(POOL_SIZE)
      cache.used = 0
    }
    const pool = cache.pool
    const at = cache.used
    const written = encoder.encodeInto(text, pool.subarray(at, at + room)).written
    const end = at + written + body.length
    if (body.length > 0) pool.set(body, at + written)
    // Consecutive responses are adjacent in the pool, so a shell can send them as one view.
    cache.used = end
    return pool.subarray(at, end)
  }
  const out = new Uint8Array(room)
  const written = encoder.encodeInto(text, out).written
  out.set(body, written)
  return out.subarray(0, written + body.length)
}

// The answer with a body, written as bytes straight into the pool: the cached bytes of its
// status line, Content-Type line and `Content-Length: `, the length's digits, the header
// lines, the cached Date line, and the body. A text body is encoded first, at the far end of
// the room reserved, so its byte count (the Content-Length) comes from the encoder: no scan
// for non-ASCII, no head string built and flattened; it is then moved up to the head's end.
// A short text is written byte by byte after the head, its length taken from its chars, and
// the string path answers when it turns out not to be ASCII.
// The same bytes as `assemble` over the head string (property spec); `undefined` when the
// answer does not fit a pooled slice, and the string path takes it.

const SHORT_TEXT = 64
const CLOSE_LINE = encoder.encode('Connection: close\r\n')
const KEEP_ALIVE_LINE = encoder.encode('Connection: keep-alive\r\n')

// Writes `text` at `at` (UTF-8: ASCII byte by byte, the rest from the first other char by the
// encoder; the room holds 3 bytes a char); answers where it ends.
const writeText = (into: Uint8Array, at: number, text: string): number => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0x80) {
      const rest = text.slice(i)
      return at + i + encoder.encodeInto(rest, into.subarray(at + i, at + i + rest.length * 3)).written
    }
    into[at + i] = c
  }
  return at + text.length
}

// RFC 9112 §6.2: Content-Length = 1*DIGIT.
const writeDigits = (into: Uint8Array, at: number, n: number): number => {
  const digits = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : String(n).length
  for (let i = at + digits - 1, v = n; i >= at; i--, v = Math.floor(v / 10)) into[i] = 0x30 + (v % 10)
  return at + digits
}

const writeAnswer = (
  cache: SerializeCache,
  status: number,
  contentType: string,
  text: string | undefined,
  body: Uint8Array,
  headers: Response['headers'],
  date: string | undefined,
  connection: Uint8Array | undefined,
): Uint8Array | undefined => {
  const prefix = prefixOf(cache, status, contentType)
  const bodyRoom = text === undefined ? body.length : text.length * 3
  // Digits of a pooled length (at most 5), CRLF, the final CRLF, and the lines below.
  let room = prefix.length + 5 + 4 + bodyRoom
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as readonly [string, string]
    room += (h[0].length + h[1].length) * 3 + 4
  }
  const dated = date === undefined ? EMPTY : dateBytes(cache, date)
  room += dated.length + (connection === undefined ? 0 : connection.length)
  if (room > POOLED_MAX) return undefined
  if (cache.used + room > POOL_SIZE) {
    cache.pool = new Uint8Array(POOL_SIZE)
    cache.used = 0
  }
  const into = cache.pool
  const at = cache.used
  // A long text is encoded first, at the far end of the room (its byte count is the length);
  // a short one is taken for ASCII (as many bytes as chars) and checked as it is written.
  let length = body.length
  let bodyAt = -1
  if (text !== undefined) {
    if (text.length <= SHORT_TEXT) length = text.length
    else {
      bodyAt = at + room - bodyRoom
      length = encoder.encodeInto(text, into.subarray(bodyAt, bodyAt + bodyRoom)).written
    }
  }
  into.set(prefix, at)
  let p = writeDigits(into, at + prefix.length, length)
  into[p++] = 0x0d
  into[p++] = 0x0a
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as readonly [string, string]
    if (isFramingHeader(h[0])) continue
    p = writeText(into, p, h[0])
    into[p++] = 0x3a
    into[p++] = 0x20
    p = writeText(into, p, h[1])
    into[p++] = 0x0d
    into[p++] = 0x0a
  }
  into.set(dated, p)
  p += dated.length
  if (connection !== undefined) {
    into.set(connection, p)
    p += connection.length
  }
  into[p++] = 0x0d
  into[p++] = 0x0a
  if (text === undefined) {
    into.set(body, p)
    p += length
  } else if (bodyAt === -1) {
    const end = writeText(into, p, text)
    // Beyond ASCII: the length written is wrong; the string path answers (nothing is handed out).
    if (end - p !== length) return undefined
    p = end
  } else {
    into.copyWithin(p, bodyAt, bodyAt + length)
    p += length
  }
  cache.used = p
  return into.subarray(at, p)
}

const serializeFresh = (
  cache: SerializeCache,
  res: Response,
  keepAlive: boolean,
  head: boolean | undefined,
  date: string | undefined,
  protocol: string | undefined,
  onUnserializable: ((error: unknown) => void) | undefined,
): Uint8Array => {
  cache.lastFailed = false
  let status = Number.isInteger(res.status) && res.status >= 100 && res.status <= 599 ? res.status : 500
  let contentType = res.contentType
  const body = res.body
  // The body as text (a string, or the JSON text) or as bytes.
  let text: string | undefined
  let bytes: Uint8Array = EMPTY
  if (body === undefined || body === null) bytes = EMPTY
  else if (typeof body === 'string') text = body
  else if (body instanceof Uint8Array) bytes = body
  else {
    text = stringifyJson(body)
    if (text === undefined) {
      status = 500
      contentType = 'application/json'
      text = UNSERIALIZABLE
      cache.lastFailed = true
      onUnserializable?.(unserializableReason(body))
    }
  }
  // RFC 9110 §6.4.1: 1xx, 204 and 304 never carry content; §8.6: no Content-Length on 1xx/204.
  const noContent = status < 200 || status === 204 || status === 304
  if (!noContent && head !== true) {
    const connection = !keepAlive ? CLOSE_LINE : protocol === 'HTTP/1.0' ? KEEP_ALIVE_LINE : undefined
    const written = writeAnswer(cache, status, contentType, text, bytes, res.headers, date, connection)
    if (written !== undefined) return written
  }
  // Text bodies stay strings until written: an ASCII one has as many bytes as chars.
  let bodyText: string | undefined
  if (text !== undefined) {
    if (text.length <= POOLED_MAX && isAscii(text)) bodyText = text
    else bytes = encoder.encode(text)
  }
  const length = bodyText === undefined ? bytes.length : bodyText.length
  let lines = noContent ? statusLine(cache, status) : `${typedLine(cache, status, contentType)}Content-Length: ${length}\r\n`
  const headers = res.headers
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as readonly [string, string]
    if (!isFramingHeader(h[0])) lines += `${h[0]}: ${h[1]}\r\n`
  }
  if (date !== undefined) lines += dateLine(cache, date)
  if (!keepAlive) lines += 'Connection: close\r\n'
  else if (protocol === 'HTTP/1.0') lines += 'Connection: keep-alive\r\n'
  lines += '\r\n'
  const sendBody = !noContent && head !== true && length > 0
  return sendBody ? assemble(cache, lines, bodyText, bytes) : assemble(cache, lines, undefined, EMPTY)
}

// The one-entry memo: the bytes of `res` with these options when they are the last ones.
const remembered = (
  cache: SerializeCache, res: Response, keepAlive: boolean, head: boolean | undefined, date: string | undefined, protocol: string | undefined,
): boolean =>
  res === cache.lastResponse && keepAlive === cache.lastKeepAlive && head === cache.lastHead && date === cache.lastDateOption &&
  protocol === cache.lastProtocol

const serializeAndRemember = (
  cache: SerializeCache,
  res: Response,
  keepAlive: boolean,
  head: boolean | undefined,
  date: string | undefined,
  protocol: string | undefined,
  onUnserializable: ((error: unknown) => void) | undefined,
): Uint8Array => {
  const bytes = serializeFresh(cache, res, keepAlive, head, date, protocol, onUnserializable)
  cache.lastBytes = bytes
  // A body that failed to encode is not remembered: each time it is sent, it is reported.
  cache.lastResponse = cache.lastFailed ? undefined : res
  cache.lastKeepAlive = keepAlive
  cache.lastHead = head
  cache.lastDateOption = date
  cache.lastProtocol = protocol
  return bytes
}

/**
 * The bytes of `res` on the wire. No body for HEAD, 1xx, 204 and 304; no Content-Length
 * for 1xx and 204 (RFC 9110 §8.6); a status outside 100–599 is sent as 500; a JSON body
 * that cannot be encoded (a cycle, a BigInt) becomes 500 `{"error":"unserializable_body"}`.
 * Short responses are views into the cache's pool: do not write into the result. A server
 * passes its own `cache` (`createSerializeCache`); without one, a fresh cache serves the call.
 *
 * @example
 * serializeResponse(text('hi'), { keepAlive: true })
 * // HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\n\r\nhi
 */
export const serializeResponse = (res: Response, options: SerializeOptions, cache: SerializeCache = createSerializeCache()): Uint8Array => {
  if (remembered(cache, res, options.keepAlive, options.head, options.date, options.protocol)) return cache.lastBytes
  return serializeAndRemember(cache, res, options.keepAlive, options.head, options.date, options.protocol, options.onUnserializable)
}

/**
 * `serializeResponse` with the options as arguments, for a server's hot path (no options
 * object, no hook per response): the same bytes, or `undefined` when the JSON body cannot
 * be encoded, and nothing is reported; the caller then calls `serializeResponse` with its
 * `onUnserializable` hook to send the 500 and report it.
 *
 * @example
 * serializeAnswer(text('hi'), true, false, undefined, 'HTTP/1.1', cache) // the bytes serializeResponse gives
 */
export const serializeAnswer = (
  res: Response,
  keepAlive: boolean,
  head: boolean,
  date: string | undefined,
  protocol: 'HTTP/1.0' | 'HTTP/1.1' | undefined,
  cache: SerializeCache,
): Uint8Array | undefined => {
  if (remembered(cache, res, keepAlive, head, date, protocol)) return cache.lastBytes
  const bytes = serializeAndRemember(cache, res, keepAlive, head, date, protocol, undefined)
  return cache.lastFailed ? undefined : bytes
}
