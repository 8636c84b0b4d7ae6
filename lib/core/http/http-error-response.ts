/**
 * `httpErrorResponse`: the response a refused request gets, `{"error": reason}` with the
 * error's status (DESIGN §5). The shell answers parse errors with it (then closes); a route
 * answers a `readJsonBody` Left with it. A 415 also says, in a `message`, what to send
 * instead: the client did nothing malformed, it only has to change its Content-Type (or, for
 * a content coding, its Content-Encoding: the answer's `Accept-Encoding` lists what is taken).
 * Pure and portable: no node:* imports.
 */
import type { HttpError, UnsupportedContentEncoding, UnsupportedMediaType } from './http-error.js'
import { errorResponse, json } from './response.js'
import { withHeader } from './response-updates.js'
import type { ErrorResponse } from './types.js'

const describeMediaType = (error: UnsupportedMediaType): string =>
  `expected a JSON body (Content-Type: application/json), got ${error.contentType === '' ? 'no Content-Type' : error.contentType}`

const describeCoding = (error: UnsupportedContentEncoding): string =>
  `this route does not decode a body in the content coding ${error.coding}; send it in one of: ${error.accepted.join(', ')}`

/**
 * The error's answer, typed `ErrorResponse` with the statuses the error can have (a
 * `readJsonBody` Left gives 400 or 415), so the typed client counts it among the failures.
 *
 * @example
 * httpErrorResponse(invalidJson()) // 400 {"error":"invalid_json"}
 * httpErrorResponse(unsupportedMediaType('text/plain'))
 * // 415 {"error":"unsupported_media_type","message":"expected a JSON body (Content-Type: application/json), got text/plain"}
 * httpErrorResponse(unsupportedContentEncoding('compress', ['gzip', 'identity']))
 * // 415, Accept-Encoding: gzip, identity (RFC 9110 §12.5.3), {"error":"unsupported_content_encoding","message":"…"}
 */
export const httpErrorResponse = <E extends HttpError>(error: E): ErrorResponse<E['status']> =>
  // Each branch keeps the error's status; the type says which statuses this call can give.
  (error._tag === 'UnsupportedMediaType'
    ? json({ error: error.reason, message: describeMediaType(error) }, error.status)
    : error._tag === 'UnsupportedContentEncoding'
      ? withHeader(json({ error: error.reason, message: describeCoding(error) }, error.status), 'Accept-Encoding', error.accepted.join(', '))
      : errorResponse(error.status, error.reason)) as ErrorResponse<E['status']>
