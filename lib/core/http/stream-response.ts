/**
 * `stream(source, options)`: a response whose body is produced over time (DESIGN §8), beside
 * `json`, `text` and `html`. The source is an `AsyncIterable` of bytes or text (an async
 * generator, a Node stream) or a web `ReadableStream<Uint8Array>`. The engine sends the head,
 * then pulls the next piece only when the socket has taken the last, and cancels the source
 * (iterator `return()`, stream `cancel()`) when the client goes away.
 *
 * Pure and portable: no node:* imports.
 */
import { OCTET_STREAM } from './content-types.js'
import { type HeaderInput, normalizeHeaders } from './normalize-headers.js'
import { type BodySource, StreamBody } from './stream-body.js'
import type { Response } from './types.js'

/** Status, headers, content type and (when known) length of a streamed response. */
export interface StreamOptions {
  /** 200 unless told otherwise. */
  readonly status?: number
  readonly headers?: HeaderInput
  /** `application/octet-stream` unless told otherwise (or given among `headers`). */
  readonly contentType?: string
  /** The body's length in bytes, when known: sent as `Content-Length` instead of chunked. */
  readonly length?: number
}

/**
 * A streamed response. Text pieces are sent as UTF-8; empty pieces are skipped.
 *
 * @example
 * async function* ticks() { for (let i = 0; i < 3; i++) yield `tick ${i}\n` }
 * const res = stream(ticks(), { contentType: 'text/plain; charset=utf-8' })
 * res.status // 200
 */
export const stream = (source: BodySource, options: StreamOptions = {}): Response => {
  const norm = normalizeHeaders(options.headers ?? {})
  const length = options.length !== undefined && Number.isSafeInteger(options.length) && options.length >= 0 ? options.length : undefined
  return {
    _tag: 'Response',
    status: options.status ?? 200,
    headers: norm.headers,
    contentType: norm.contentType ?? options.contentType ?? OCTET_STREAM,
    body: new StreamBody(source, length),
  }
}
