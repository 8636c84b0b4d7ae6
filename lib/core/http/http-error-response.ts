/**
 * `httpErrorResponse`: the response a refused request gets, `{"error": reason}` with the
 * error's status (DESIGN §5). The shell answers parse errors with it (then closes); a route
 * answers a `readJsonBody` Left with it. Pure and portable: no node:* imports.
 */
import type { HttpError } from './http-error.js'
import { errorResponse } from './response.js'
import type { Response } from './types.js'

/**
 * The error's answer.
 *
 * @example
 * httpErrorResponse(invalidJson()) // 400 {"error":"invalid_json"}
 */
export const httpErrorResponse = (error: HttpError): Response => errorResponse(error.status, error.reason)
