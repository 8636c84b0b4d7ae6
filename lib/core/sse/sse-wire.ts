/**
 * `sseWire`: the bytes an event-stream text takes on the wire, framed for its response
 * (RFC 9112 §7.1): on HTTP/1.1 one chunk (size line, the UTF-8, CRLF), on HTTP/1.0 the UTF-8
 * alone (the body ends when the connection closes). One array, so the same bytes are written
 * to every receiver of a broadcast. Pure and portable: no node:* imports.
 */
import { chunkSizeLine } from '../http/chunk-framing.js'

/** How an event stream's body is delimited: in chunks (HTTP/1.1), or by the close (HTTP/1.0). */
export type SseFraming = 'chunked' | 'close'

const encoder = new TextEncoder()

/**
 * `text` as UTF-8 (a lone surrogate becomes U+FFFD), in a chunk of its own when `framing` is chunked.
 *
 * @example
 * new TextDecoder().decode(sseWire('data: hi\n\n', 'chunked')) // 'a\r\ndata: hi\n\n\r\n'
 */
export const sseWire = (text: string, framing: SseFraming): Uint8Array => {
  const utf8 = encoder.encode(text)
  if (framing === 'close' || utf8.length === 0) return utf8
  const head = chunkSizeLine(utf8.length)
  const out = new Uint8Array(head.length + utf8.length + 2)
  out.set(head, 0)
  out.set(utf8, head.length)
  out[out.length - 2] = 0x0d
  out[out.length - 1] = 0x0a
  return out
}
