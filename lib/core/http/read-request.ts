/**
 * `readRequest`: the fast path of a connection's parse loop. A request whose head is plain
 * (as `readHead` reads it in one pass) and whose body, if any, has a Content-Length and is
 * all in the buffer, is read straight from `bytes[start..]`: no view of the rest, no
 * `Either` or `Parsed` around it. Anything else (empty lines first, a chunked body, a
 * body or head not all there, any error) answers `undefined`, and the caller takes
 * `parseHttpRequest` on the same bytes, which gives the same request or finds the error.
 *
 * Pure and portable: no node:* imports.
 */
import type { HttpLimits } from './http-limits.js'
import { readHead } from './read-head.js'
import { requestOfHead } from './request-of-head.js'
import type { Header, HttpRequest } from './types.js'

/** A request read at an offset, and the offset just after it. */
export interface RequestRead {
  readonly request: HttpRequest
  readonly end: number
}

const EMPTY = new Uint8Array(0)
const NO_TRAILERS: readonly Header[] = []

/**
 * The request at `bytes[start..]`, or `undefined` when `parseHttpRequest` must decide.
 * When it answers, `parseHttpRequest(bytes.subarray(start), limits)` gives the same request
 * with the rest starting at `end`.
 *
 * @example
 * const read = readRequest(bytes('GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET'), 0, DEFAULT_HTTP_LIMITS)
 * // { request: { method: 'GET', path: '/a', ... }, end: 28 }
 */
export const readRequest = (bytes: Uint8Array, start: number, limits: HttpLimits): RequestRead | undefined => {
  const read = readHead(bytes, limits, start)
  if (read === undefined || !('_tag' in read) || read._tag === 'Left') return undefined
  const head = read.right
  const framing = head.framing
  const bodyStart = start + head.end
  let end = bodyStart
  let body: Uint8Array = EMPTY
  if (framing._tag === 'Length') {
    end = bodyStart + framing.length
    if (end > bytes.length) return undefined
    body = bytes.subarray(bodyStart, end)
  } else if (framing._tag === 'Chunked') return undefined
  return { request: requestOfHead(head, body, NO_TRAILERS), end }
}
