/**
 * `createSerializeCache`: a server's serialiser state (`SerializeCache`), the one record
 * `serializeResponse` writes into, so servers share nothing: the output pool, the status-line,
 * Content-Type-line and Date-line caches (as strings and as bytes, bounded: content types can
 * come from requests), and the last-answer memo.
 *
 * Pure and portable: no node:* imports, no Buffer; keeps no state of its own.
 */
import { statusText } from './status-text.js'
import type { Response } from './types.js'

const encoder = new TextEncoder()
const EMPTY: Uint8Array = new Uint8Array(0)

// Responses are written into slices of a server's pool (as Node's Buffer pool does): a short
// response then costs one view, not one ArrayBuffer. A slice is handed out once and never
// written again; a full pool is dropped (slices keep it alive while they are referenced).
export const POOL_SIZE = 32 * 1024
// Larger outputs, and strings longer than this, go through the native encoder instead.
export const POOLED_MAX = 4 * 1024
const TYPED_CACHE_MAX = 256

/** A server's serialiser state: its output pool, its caches and its last-answer memo. */
export interface SerializeCache {
  // The pool and how much of it is handed out (a fresh cache has none: `used` full, so the
  // first answer makes it).
  pool: Uint8Array
  used: number
  // RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ] CRLF. Each
  // status line, and each status line + Content-Type line, is built once (bounded: content
  // types can come from requests). Looked up by content type, then status: no key string
  // is built per response.
  readonly statusLines: Map<number, string>
  readonly typedLines: Map<string, Map<number, string>>
  typedCount: number
  // `${status line}${Content-Type line}Content-Length: ` as bytes (bounded like typedLines).
  readonly prefixes: Map<string, Map<number, Uint8Array>>
  prefixCount: number
  // The Date line changes once a second: built once per value, as a string and as bytes.
  lastDate: string
  lastDateLine: string
  lastDateText: string
  lastDateBytes: Uint8Array
  // Whether the response serializeFresh wrote last had a body that could not be encoded.
  lastFailed: boolean
  // A Response is an immutable value, so the bytes of the one serialised last are kept: an
  // application that answers with the same response value again (a constant `json(...)`, a
  // health check) gets the same bytes back while the options (and the Date) are the same.
  // One entry in plain fields, so a fresh response per request costs a few comparisons.
  lastResponse: Response | undefined
  lastKeepAlive: boolean
  lastHead: boolean | undefined
  lastDateOption: string | undefined
  lastProtocol: string | undefined
  lastBytes: Uint8Array
}

/**
 * A fresh cache: no pool yet, nothing cached, nothing remembered.
 *
 * @example
 * const cache = createSerializeCache()
 * serializeResponse(text('hi'), { keepAlive: true }, cache)
 */
export const createSerializeCache = (): SerializeCache => ({
  pool: EMPTY,
  used: POOL_SIZE,
  statusLines: new Map(),
  typedLines: new Map(),
  typedCount: 0,
  prefixes: new Map(),
  prefixCount: 0,
  lastDate: '',
  lastDateLine: '',
  lastDateText: '',
  lastDateBytes: EMPTY,
  lastFailed: false,
  lastResponse: undefined,
  lastKeepAlive: false,
  lastHead: undefined,
  lastDateOption: undefined,
  lastProtocol: undefined,
  lastBytes: EMPTY,
})

/** `HTTP/1.1 <status> <reason>\r\n`, built once per status. */
export const statusLine = (cache: SerializeCache, status: number): string => {
  const statusLines = cache.statusLines
  let line = statusLines.get(status)
  if (line === undefined) {
    line = `HTTP/1.1 ${status} ${statusText(status)}\r\n`
    statusLines.set(status, line)
  }
  return line
}

/** The status line and the Content-Type line (none for `''`), built once per pair while fewer than 256 are kept. */
export const typedLine = (cache: SerializeCache, status: number, contentType: string): string => {
  if (contentType === '') return statusLine(cache, status)
  let byStatus = cache.typedLines.get(contentType)
  let line = byStatus?.get(status)
  if (line === undefined) {
    line = `${statusLine(cache, status)}Content-Type: ${contentType}\r\n`
    if (cache.typedCount < TYPED_CACHE_MAX) {
      if (byStatus === undefined) {
        byStatus = new Map()
        cache.typedLines.set(contentType, byStatus)
      }
      byStatus.set(status, line)
      cache.typedCount++
    }
  }
  return line
}

/** `Date: <date>\r\n`, built once per value (it changes once a second). */
export const dateLine = (cache: SerializeCache, date: string): string => {
  if (date !== cache.lastDate) {
    cache.lastDate = date
    cache.lastDateLine = `Date: ${date}\r\n`
  }
  return cache.lastDateLine
}

// `${status line}${Content-Type line}Content-Length: ` as bytes (bounded like typedLine).
export const prefixOf = (cache: SerializeCache, status: number, contentType: string): Uint8Array => {
  let byStatus = cache.prefixes.get(contentType)
  let bytes = byStatus?.get(status)
  if (bytes === undefined) {
    bytes = encoder.encode(`${typedLine(cache, status, contentType)}Content-Length: `)
    if (cache.prefixCount < TYPED_CACHE_MAX) {
      if (byStatus === undefined) {
        byStatus = new Map()
        cache.prefixes.set(contentType, byStatus)
      }
      byStatus.set(status, bytes)
      cache.prefixCount++
    }
  }
  return bytes
}

/** The Date line as bytes, encoded once per value. */
export const dateBytes = (cache: SerializeCache, date: string): Uint8Array => {
  if (date !== cache.lastDateText) {
    cache.lastDateText = date
    cache.lastDateBytes = encoder.encode(dateLine(cache, date))
  }
  return cache.lastDateBytes
}
