/**
 * `requestOfHead`: the request a parsed head stands for once its body (and trailers) are read,
 * as both the general parser and the fast path build it. Pure and portable.
 */
import type { Head } from './parse-head.js'
import type { Header, HttpRequest } from './types.js'

/**
 * The request of `head` with `body` and `trailers`; the head's framing and end offset stay out.
 *
 * @example
 * const read = readHead(new TextEncoder().encode('GET /a?b HTTP/1.1\r\nHost: x\r\n\r\n'), DEFAULT_HTTP_LIMITS)
 * if (read !== undefined && '_tag' in read && read._tag === 'Right') requestOfHead(read.right, new Uint8Array(), [])
 * // { method: 'GET', target: '/a?b', path: '/a', rawQuery: 'b', ..., body: Uint8Array [], trailers: [] }
 */
export const requestOfHead = (head: Head, body: Uint8Array, trailers: readonly Header[]): HttpRequest => ({
  method: head.method,
  target: head.target,
  path: head.path,
  rawQuery: head.rawQuery,
  protocol: head.protocol,
  headers: head.headers,
  trailers,
  body,
  keepAlive: head.keepAlive,
  expectContinue: head.expectContinue,
})
