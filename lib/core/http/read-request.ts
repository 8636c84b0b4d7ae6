/**
 * `readRequest`: the fast path of a connection's parse loop. A request whose head is plain
 * (as `scanPlainHead` reads it in one pass) and whose body, if any, has a Content-Length and
 * is all in the buffer, is read straight from `bytes[start..]`: no view of the rest, no
 * `Either` or `Parsed` around it, and, for the usual head (an origin-form target, one plain
 * Host, no field that drives framing or the connection), no head record either: the request
 * is made straight from what the scan read. Anything else (empty lines first, a chunked
 * body, a body or head not all there, any error) answers `undefined`, and the caller takes
 * `parseHttpRequest` on the same bytes, which gives the same request or finds the error.
 *
 * Pure and portable: no node:* imports.
 */
import type { HttpLimits } from './http-limits.js'
import { completeHead } from './parse-head.js'
import { requestOfHead } from './request-of-head.js'
import type { HeadScratch } from './head-scratch.js'
import { scanPlainHead } from './scan-plain-head.js'
import type { Header, HttpRequest } from './types.js'

const EMPTY = new Uint8Array(0)
const NO_TRAILERS: readonly Header[] = Object.freeze([])

/**
 * The request at `bytes[start..]`, or `undefined` when `parseHttpRequest` must decide, read
 * with the server's `scratch` (`createHeadScratch`). When it answers, `scratch.end` is the
 * offset just after it, `scratch.upgrade` whether a field is named Upgrade, and
 * `parseHttpRequest(bytes.subarray(start), limits)` gives the same request with the rest
 * starting there.
 *
 * @example
 * const scratch = createHeadScratch()
 * readRequest(bytes('GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET'), 0, DEFAULT_HTTP_LIMITS, scratch)
 * // { method: 'GET', path: '/a', ... }; scratch.end === 28
 */
export const readRequest = (bytes: Uint8Array, start: number, limits: HttpLimits, scratch: HeadScratch): HttpRequest | undefined => {
  const headEnd = scanPlainHead(bytes, limits, start, scratch)
  if (headEnd < 0) return undefined
  const h = scratch.head
  const cursor = scratch
  const protocol = h.protocol
  // The usual head: what `completeHead` would make of it, without the Either and the head.
  // No field drives framing (no body; RFC 9112 §6.3) or the connection (1.1 persists, 1.0
  // does not: §9.3), and the one Host is valid (or 1.0 has none: §3.2).
  if (h.plain && h.target.charCodeAt(0) === 0x2f && (h.hosts === 1 ? h.hostChecked : h.hosts === 0 && protocol === 'HTTP/1.0')) {
    const target = h.target
    const q = h.query
    cursor.end = start + headEnd
    cursor.upgrade = h.upgrade
    return {
      method: h.method,
      target,
      path: q < 0 ? target : target.slice(0, q),
      rawQuery: q < 0 ? '' : target.slice(q + 1),
      protocol,
      headers: h.headers,
      trailers: NO_TRAILERS,
      body: EMPTY,
      keepAlive: protocol === 'HTTP/1.1',
      expectContinue: false,
    }
  }
  const read = completeHead(h.method, h.target, h.query, h.targetOffset, protocol, h.headers, h.hosts, h.hostChecked, h.plain, headEnd, limits)
  if (read._tag === 'Left') return undefined
  const head = read.right
  const framing = head.framing
  const bodyStart = start + headEnd
  let end = bodyStart
  let body: Uint8Array = EMPTY
  if (framing._tag === 'Length') {
    end = bodyStart + framing.length
    if (end > bytes.length) return undefined
    body = bytes.subarray(bodyStart, end)
  } else if (framing._tag === 'Chunked') return undefined
  cursor.end = end
  cursor.upgrade = h.upgrade
  return requestOfHead(head, body, NO_TRAILERS)
}
