/**
 * The media types the response factories set by default, and `defaultContentType`, which
 * picks one from the kind of body. Pure and portable: no node:* imports.
 */
import { StreamBody } from './stream-body.js'
import type { ResponseBody } from './types.js'

export const TEXT_PLAIN = 'text/plain; charset=utf-8'
export const TEXT_HTML = 'text/html; charset=utf-8'
/** RFC 8259 §11 defines no charset parameter: JSON is UTF-8. */
export const APPLICATION_JSON = 'application/json'
export const OCTET_STREAM = 'application/octet-stream'

/** Whether a body is data to be sent as JSON (anything but text, bytes and "no body"). */
export const isJsonData = (body: ResponseBody): boolean =>
  body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof StreamBody)

/**
 * The content type for a body nobody typed: text → plain text, bytes or a stream → octet-stream,
 * data → JSON, no body → none (`''`).
 *
 * @example
 * defaultContentType({ a: 1 }) // 'application/json'
 */
export const defaultContentType = (body: ResponseBody): string =>
  body === undefined || body === null
    ? ''
    : typeof body === 'string'
      ? TEXT_PLAIN
      : body instanceof Uint8Array || body instanceof StreamBody
        ? OCTET_STREAM
        : APPLICATION_JSON
