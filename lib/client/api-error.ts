/** `ApiError`: what a call of the typed HTTP helper rejects with when the answer is not 2xx. */

/**
 * A non-2xx answer (or a 2xx whose JSON is broken): the method, the URL, the status, and the
 * body as read (JSON parsed when the content type says JSON, else text; `undefined` when empty).
 * The type parameters are for `ApiFailure`, the union of what one route answers when it fails
 * (`ApiError<409, ErrorBody> | ApiError<404, NotFound>`); a bare `ApiError` is any failure.
 *
 * @example
 * const err = new ApiError('GET', '/api/rooms/x', 404, { error: 'Not Found' })
 * err.message // 'GET /api/rooms/x: 404'
 */
export class ApiError<Status extends number = number, Body = unknown> extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: Status,
    readonly body: Body,
    detail = '',
  ) {
    super(`${method} ${url}: ${status}${detail === '' ? '' : ` ${detail}`}`)
  }
}
