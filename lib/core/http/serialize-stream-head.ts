/**
 * `serializeStreamHead`: the head of a response whose body is streamed (a `StreamBody`), and
 * how its body is framed on this connection (RFC 9112 §6):
 *
 * - no body at all for HEAD, 1xx, 204 and 304 (the source is never started);
 * - `Content-Length` when the length is known;
 * - `Transfer-Encoding: chunked` on HTTP/1.1 when it is not;
 * - on HTTP/1.0, where chunked does not exist, the body ends when the connection closes
 *   (`Connection: close`).
 *
 * Trailers are not sent: the head never announces any (a decision: no client in common use
 * reads them, and a proxy may drop them; see docs/decisions.md).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { isFramingHeader } from './is-framing-header.js'
import type { SerializeOptions } from './serialize-response.js'
import { statusText } from './status-text.js'
import { isStreamBody } from './stream-body.js'
import type { Response } from './types.js'

/** How a streamed body is delimited: not sent, by its length, in chunks, or by closing. */
export type StreamFraming = 'none' | 'length' | 'chunked' | 'close'

/** The head's bytes, the body's framing, and whether the connection stays open after it. */
export interface StreamHead {
  readonly bytes: Uint8Array
  readonly framing: StreamFraming
  readonly keepAlive: boolean
  /** The announced `Content-Length` (framing `length`), else `undefined`. */
  readonly length: number | undefined
}

const encoder = new TextEncoder()

/**
 * The head of `res` (whose body is a `StreamBody`; any other body counts as of unknown length).
 *
 * @example
 * serializeStreamHead(stream(chunks), { keepAlive: true, protocol: 'HTTP/1.1' }).framing // 'chunked'
 */
export const serializeStreamHead = (res: Response, options: SerializeOptions): StreamHead => {
  const status = Number.isInteger(res.status) && res.status >= 100 && res.status <= 599 ? res.status : 500
  const known = isStreamBody(res.body) ? res.body.length : undefined
  // RFC 9110 §6.4.1: 1xx, 204 and 304 never carry content; §8.6: and no Content-Length.
  const noContent = status < 200 || status === 204 || status === 304
  const http10 = options.protocol === 'HTTP/1.0'
  const framing: StreamFraming = noContent || options.head === true ? 'none' : known !== undefined ? 'length' : http10 ? 'close' : 'chunked'
  const keepAlive = options.keepAlive && framing !== 'close'
  let lines = `HTTP/1.1 ${status} ${statusText(status)}\r\n`
  if (res.contentType !== '' && !noContent) lines += `Content-Type: ${res.contentType}\r\n`
  // A HEAD answer carries the framing GET would have (RFC 9110 §9.3.2).
  if (!noContent) {
    if (known !== undefined) lines += `Content-Length: ${known}\r\n`
    else if (!http10) lines += 'Transfer-Encoding: chunked\r\n'
  }
  for (const [name, value] of res.headers) if (!isFramingHeader(name)) lines += `${name}: ${value}\r\n`
  if (options.date !== undefined) lines += `Date: ${options.date}\r\n`
  if (!keepAlive) lines += 'Connection: close\r\n'
  else if (http10) lines += 'Connection: keep-alive\r\n'
  return { bytes: encoder.encode(`${lines}\r\n`), framing, keepAlive, length: framing === 'length' ? known : undefined }
}
