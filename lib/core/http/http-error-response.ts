/**
 * `httpErrorResponse`: the response a refused request gets, `{"error": reason}` with the
 * error's status (DESIGN §5). The shell answers parse errors with it (then closes); a route
 * answers a `readJsonBody` Left with it. A 415 also says, in a `message`, what to send
 * instead: the client did nothing malformed, it only has to change its Content-Type.
 * Pure and portable: no node:* imports.
 */
import type { HttpError, UnsupportedMediaType } from './http-error.js'
import { errorResponse, json } from './response.js'
import type { Response } from './types.js'

const describeMediaType = (error: UnsupportedMediaType): string =>
  `expected a JSON body (Content-Type: application/json), got ${error.contentType === '' ? 'no Content-Type' : error.contentType}`

/**
 * The error's answer.
 *
 * @example
 * httpErrorResponse(invalidJson()) // 400 {"error":"invalid_json"}
 * httpErrorResponse(unsupportedMediaType('text/plain'))
 * // 415 {"error":"unsupported_media_type","message":"expected a JSON body (Content-Type: application/json), got text/plain"}
 */
export const httpErrorResponse = (error: HttpError): Response =>
  error._tag === 'UnsupportedMediaType'
    ? json({ error: error.reason, message: describeMediaType(error) }, error.status)
    : errorResponse(error.status, error.reason)
