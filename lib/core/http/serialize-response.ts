/**
 * `serializeResponse`: a Response value to the bytes of one HTTP/1.1 response, in one
 * buffer (status line, headers, body). The framing headers are derived here, never taken
 * from the application: exactly one `Content-Type`, a `Content-Length` in bytes, and the
 * `Connection` the shell negotiated. The core reads no clock, so `Date` comes in as an option.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { statusText } from './status-text.js'
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
}

const encoder = new TextEncoder()
const EMPTY = new Uint8Array(0)
const statusLines = new Map<number, string>()

// RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ] CRLF.
// The line of each code is built once and reused.
const statusLine = (status: number): string => {
  let line = statusLines.get(status)
  if (line === undefined) {
    line = `HTTP/1.1 ${status} ${statusText(status)}\r\n`
    statusLines.set(status, line)
  }
  return line
}

// Application headers that would contradict the derived framing are dropped (by length first,
// so most names never get lower-cased).
const isFramingHeader = (name: string): boolean => {
  switch (name.length) {
    case 10:
      return name.toLowerCase() === 'connection'
    case 12:
      return name.toLowerCase() === 'content-type'
    case 14:
      return name.toLowerCase() === 'content-length'
    case 17:
      return name.toLowerCase() === 'transfer-encoding'
    default:
      return false
  }
}

const UNSERIALIZABLE = encoder.encode('{"error":"unserializable_body"}')

/**
 * The bytes of `res` on the wire. No body for HEAD, 1xx, 204 and 304; no Content-Length
 * for 1xx and 204 (RFC 9110 §8.6); a status outside 100–599 is sent as 500; a JSON body
 * that cannot be encoded (a cycle, a BigInt) becomes 500 `{"error":"unserializable_body"}`.
 *
 * @example
 * serializeResponse(text('hi'), { keepAlive: true })
 * // HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\n\r\nhi
 */
export const serializeResponse = (res: Response, options: SerializeOptions): Uint8Array => {
  let status = Number.isInteger(res.status) && res.status >= 100 && res.status <= 599 ? res.status : 500
  let contentType = res.contentType
  const body = res.body
  let bytes: Uint8Array
  if (body === undefined || body === null) bytes = EMPTY
  else if (typeof body === 'string') bytes = body.length === 0 ? EMPTY : encoder.encode(body)
  else if (body instanceof Uint8Array) bytes = body
  else {
    const textBody = stringifyJson(body)
    if (textBody === undefined) {
      status = 500
      contentType = 'application/json'
      bytes = UNSERIALIZABLE
    } else bytes = encoder.encode(textBody)
  }
  // RFC 9110 §6.4.1: 1xx, 204 and 304 never carry content; §8.6: no Content-Length on 1xx/204.
  const noContent = status < 200 || status === 204 || status === 304
  let head = statusLine(status)
  if (!noContent) {
    if (contentType !== '') head += `Content-Type: ${contentType}\r\n`
    head += `Content-Length: ${bytes.length}\r\n`
  }
  const headers = res.headers
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as readonly [string, string]
    if (!isFramingHeader(h[0])) head += `${h[0]}: ${h[1]}\r\n`
  }
  if (options.date !== undefined) head += `Date: ${options.date}\r\n`
  if (!options.keepAlive) head += 'Connection: close\r\n'
  else if (options.protocol === 'HTTP/1.0') head += 'Connection: keep-alive\r\n'
  head += '\r\n'
  const sendBody = !noContent && options.head !== true && bytes.length > 0
  if (!sendBody) return encoder.encode(head)
  // One buffer: the head is encoded straight into it (at most 3 bytes per UTF-16 unit), then the body.
  const out = new Uint8Array(head.length * 3 + bytes.length)
  const written = encoder.encodeInto(head, out).written
  out.set(bytes, written)
  return out.subarray(0, written + bytes.length)
}
