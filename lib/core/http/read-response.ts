/**
 * Reading a Response (seed §2.10 getters): a header by case-insensitive name, all headers,
 * the body as a string, and the whole response as text. Named `getResponseHeader` /
 * `getResponseHeaders` so they can be imported beside the Request accessors `getHeader` /
 * `getHeaders` of `request-accessors.ts`.
 *
 * Pure and portable: no node:* imports.
 */
import { serializeResponse } from './serialize-response.js'
import { StreamBody } from './stream-body.js'
import { stringifyJson } from './stringify-json.js'
import type { Response } from './types.js'

const decoder = new TextDecoder('utf-8')

/**
 * The value of header `name` (case-insensitive), `undefined` when absent. `Content-Type` reads
 * the content type; repeated headers are joined with `, ` (RFC 9110 §5.3).
 *
 * @example
 * getResponseHeader(redirect('/x'), 'location') // '/x'
 */
export const getResponseHeader = (res: Response, name: string): string | undefined => {
  const lower = name.toLowerCase()
  if (lower === 'content-type') return res.contentType === '' ? undefined : res.contentType
  const values = res.headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v)
  return values.length === 0 ? undefined : values.join(', ')
}

/** Every header as a record (names as set, `Content-Type` included when there is one). */
export const getResponseHeaders = (res: Response): Readonly<Record<string, string>> => {
  const out: Record<string, string> = {}
  if (res.contentType !== '') out['Content-Type'] = res.contentType
  for (const [n, v] of res.headers) out[n] = out[n] === undefined ? v : `${out[n]}, ${v}`
  return out
}

/**
 * The body as text: strings as they are, bytes decoded as UTF-8, data as its JSON, no body
 * (or data with no JSON form) as `''`.
 *
 * @example
 * getBodyString(json({ a: 1 })) // '{"a":1}'
 */
export const getBodyString = (res: Response): string => {
  const body = res.body
  if (body === undefined || body === null) return ''
  if (typeof body === 'string') return body
  if (body instanceof Uint8Array) return decoder.decode(body)
  // A streamed body is not here to read: it is produced when the response is sent.
  if (body instanceof StreamBody) return ''
  return stringifyJson(body) ?? ''
}

/**
 * The response as it goes out on a kept-alive HTTP/1.1 connection, as text (seed `toString`).
 *
 * @example
 * responseToString(text('hi')) // 'HTTP/1.1 200 OK\r\nContent-Type: text/plain; ...\r\n\r\nhi'
 */
export const responseToString = (res: Response): string => decoder.decode(serializeResponse(res, { keepAlive: true }))
