/**
 * `httpErrorResponse`: the response a refused request gets, `{"error": reason}` with the
 * error's status (DESIGN §5). The shell answers parse errors with it (then closes); a route
 * answers a `readJsonBody` Left with it. The errors a well-meaning client can run into also
 * say, in a `message`, what to change: a 415 what to send instead (its Content-Type, or for a
 * content coding its Content-Encoding: the answer's `Accept-Encoding` lists what is taken), a
 * 413 the route's limit, a 400 `invalid_json` that the body is not JSON.
 * Pure and portable: no node:* imports.
 */
import type { BodyTooLarge, HttpError, UnsupportedContentEncoding, UnsupportedMediaType } from './http-error.js'
import { errorResponse, json } from './response.js'
import { withHeader } from './response-updates.js'
import type { ErrorResponse } from './types.js'

const describeMediaType = (error: UnsupportedMediaType): string =>
  `expected a JSON body (Content-Type: application/json), got ${error.contentType === '' ? 'no Content-Type' : error.contentType}`

const describeLimit = (error: BodyTooLarge): string => `the body is larger than the ${error.limit} bytes this route takes`

const describeCoding = (error: UnsupportedContentEncoding): string =>
  `this route does not decode a body in the content coding ${error.coding}; send it in one of: ${error.accepted.join(', ')}`

/**
 * The error's answer, typed `ErrorResponse` with the statuses the error can have (a
 * `readJsonBody` Left gives 400 or 415), so the typed client counts it among the failures.
 *
 * @example
 * httpErrorResponse(invalidJson()) // 400 {"error":"invalid_json","message":"the body is not valid JSON"}
 * httpErrorResponse(bodyTooLarge(1024)) // 413 {"error":"body_too_large","message":"the body is larger than the 1024 bytes this route takes"}
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
      : error._tag === 'BodyTooLarge'
        ? json({ error: error.reason, message: describeLimit(error) }, error.status)
        : error._tag === 'InvalidJson'
          ? json({ error: error.reason, message: 'the body is not valid JSON' }, error.status)
          : errorResponse(error.status, error.reason)) as ErrorResponse<E['status']>
