/**
 * `responseParts`: a Response value as the parts a host's own HTTP layer sends (Node's
 * `ServerResponse`, a web `Response`): status, header list, and the body as bytes or as the
 * `StreamBody` to pump. The same rules as `serializeResponse` (DESIGN §5): exactly one
 * `Content-Type`, a `Content-Length` derived from the bytes, no framing header taken from the
 * application, no body for HEAD, 1xx, 204 and 304, a status outside 100–599 sent as 500, and a
 * JSON body that cannot be encoded answered 500 `{"error":"unserializable_body"}`. The host
 * frames the body itself (chunked or not), so `Connection` and `Transfer-Encoding` are its
 * business and never appear here. Used by embedding (`attach`, `toFetch`).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { isFramingHeader } from './is-framing-header.js'
import { isStreamBody, type StreamBody } from './stream-body.js'
import { stringifyJson } from './stringify-json.js'
import type { Header, Response } from './types.js'

/** What a host sends: status, headers (framing ones derived here), and the body. */
export interface ResponseParts {
  readonly status: number
  readonly headers: readonly Header[]
  /** Bytes to send whole, a body to pump, or none (HEAD, 1xx, 204, 304, an empty body). */
  readonly body: Uint8Array | StreamBody | undefined
  /** A streamed body that is not sent (HEAD, 204, 304): its source is to be cancelled. */
  readonly unsent?: StreamBody
  /** What `JSON.stringify` threw when the body could not be encoded (the 500 then goes out). */
  readonly unserializable?: unknown
}

const encoder = new TextEncoder()
const UNSERIALIZABLE = '{"error":"unserializable_body"}'

// Why a body has no JSON text: what JSON.stringify throws, or a TypeError when it gives nothing.
const reasonOf = (body: unknown): unknown => {
  try {
    JSON.stringify(body)
    return new TypeError('the response body has no JSON text')
  } catch (error) {
    return error
  }
}

/**
 * The parts of `res`; `head` for a HEAD request (headers as for GET, no body).
 *
 * @example
 * responseParts(text('hi'), false)
 * // { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8'], ['Content-Length', '2']], body: <bytes of 'hi'> }
 */
export const responseParts = (res: Response, head: boolean): ResponseParts => {
  let status = Number.isInteger(res.status) && res.status >= 100 && res.status <= 599 ? res.status : 500
  let contentType = res.contentType
  const body = res.body
  let bytes: Uint8Array | StreamBody | undefined
  let unserializable: unknown
  let failed = false
  if (body === undefined || body === null) bytes = undefined
  else if (typeof body === 'string') bytes = encoder.encode(body)
  else if (body instanceof Uint8Array) bytes = body
  else if (isStreamBody(body)) bytes = body
  else {
    const text = stringifyJson(body)
    if (text === undefined) {
      failed = true
      unserializable = reasonOf(body)
      status = 500
      contentType = 'application/json'
      bytes = encoder.encode(UNSERIALIZABLE)
    } else bytes = encoder.encode(text)
  }
  // RFC 9110 §6.4.1: 1xx, 204 and 304 never carry content; §8.6: no Content-Length on 1xx/204.
  const noContent = status < 200 || status === 204 || status === 304
  const headers: Header[] = []
  if (!noContent && contentType !== '') headers.push(['Content-Type', contentType])
  if (!noContent) {
    const length = bytes === undefined ? 0 : bytes instanceof Uint8Array ? bytes.length : bytes.length
    if (length !== undefined) headers.push(['Content-Length', String(length)])
  }
  for (const header of res.headers) if (!isFramingHeader(header[0])) headers.push(header)
  const sent = noContent || head || (bytes instanceof Uint8Array && bytes.length === 0) ? undefined : bytes
  return {
    status,
    headers,
    body: sent,
    // A streamed body that is not sent (HEAD, 204…): the host cancels its source.
    ...(isStreamBody(bytes) && sent === undefined ? { unsent: bytes } : {}),
    ...(failed ? { unserializable } : {}),
  }
}
