/** `ApiError`: what a call of the typed HTTP helper rejects with when the answer is not 2xx. */

/**
 * A non-2xx answer (or a 2xx whose JSON is broken): the method, the URL, the status, and the
 * body as read (JSON parsed when the content type says JSON, else text; `undefined` when empty).
 *
 * @example
 * const err = new ApiError('GET', '/api/rooms/x', 404, { error: 'Not Found' })
 * err.message // 'GET /api/rooms/x: 404'
 */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    readonly body: unknown,
    detail = '',
  ) {
    super(`${method} ${url}: ${status}${detail === '' ? '' : ` ${detail}`}`)
  }
}
