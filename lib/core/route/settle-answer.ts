/**
 * `settleAnswer`: what an HTTP handler returned, as the Response to send (DESIGN §5): a
 * Response as it is, a plain value as JSON, nothing as 204, and a promise of those settled so
 * that it never rejects. A failure (`failedAnswer`) that is the client's fault (a body that
 * could not be read, thrown out of the handler) is answered with its status; anything else is
 * reported to the server's `onError` and answered 500 `{"error":"internal_error"}`.
 * The dispatch's one place for turning a handler's outcome into an answer.
 *
 * Pure and portable: no node:* imports, no timers.
 */
import { BodyStreamError } from '../http/body-stream.js'
import { MultipartReadError } from '../http/multipart/read-multipart.js'
import { errorResponse, isResponse, json, noContent } from '../http/response.js'
import type { HttpRequest, Json, Response } from '../http/types.js'

/** Told about every thrown error or rejection (`HttpDispatchOptions.onError`). */
export type HttpErrorHook = ((error: unknown, request: HttpRequest) => void) | undefined

/**
 * The 500 answer of a failure: the framework's own, so a stable code (`internal_error`), not the
 * text of the seed's `serverError()` helper (docs/decisions.md).
 *
 * @example
 * internalError() // 500 {"error":"internal_error"}
 */
export const internalError = (): Response => errorResponse(500, 'internal_error')

// A body the client sent that could not be read, thrown out of the handler: the client's
// fault, answered with its status and reason, not a 500 and not reported as a handler error.
const clientFault = (error: unknown): Response | undefined => {
  if (error instanceof BodyStreamError) return json({ error: error.error.reason }, error.error.status)
  if (error instanceof MultipartReadError) return json({ error: error.error.reason, message: error.error.message }, error.error.status)
  return undefined
}

/**
 * Tells `onError` of a failure; a hook that throws is ignored.
 *
 * @example
 * reportError(options.onError, error, request)
 */
export const reportError = (onError: HttpErrorHook, error: unknown, request: HttpRequest): void => {
  try {
    onError?.(error, request)
  } catch {
    // A broken hook must not turn a reported failure into a rejection.
  }
}

/**
 * A thrown error or rejection as its answer: the client's fault answered as such (400, 413…),
 * anything else reported and answered 500.
 *
 * @example
 * failedAnswer(new Error('boom'), onError, request) // 500, onError told
 */
export const failedAnswer = (error: unknown, onError: HttpErrorHook, request: HttpRequest): Response => {
  const fault = clientFault(error)
  if (fault !== undefined) return fault
  reportError(onError, error, request)
  return internalError()
}

// A handler may answer a Response, a plain value for json(), nothing (204), or a promise of those.
const toResponse = (result: unknown): Response => {
  if (isResponse(result)) return result
  if (result === undefined) return noContent()
  return json(result as Json)
}

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  typeof x === 'object' && x !== null && typeof (x as { readonly then?: unknown }).then === 'function'

/**
 * The handler's answer as a Response, or a promise of one that never rejects.
 *
 * @example
 * settleAnswer({ hello: 'world' }, onError, request) // 200 {"hello":"world"}, synchronously
 * await settleAnswer(Promise.reject(new Error('boom')), onError, request) // 500, onError told
 */
export const settleAnswer = (result: unknown, onError: HttpErrorHook, request: HttpRequest): Response | Promise<Response> => {
  if (!isThenable(result)) return toResponse(result)
  return Promise.resolve(result).then(toResponse, (error: unknown) => failedAnswer(error, onError, request))
}
