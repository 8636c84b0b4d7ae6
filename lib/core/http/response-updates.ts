/**
 * Functional updates of a Response, in place of the seed's setters: each returns a new
 * value and leaves its argument untouched. `with…(res, …)` is data-first; `set…(…)(res)` is
 * the same update data-last, for `pipe(res, setStatus(201), setHeader('X-A', '1'))`.
 *
 * Pure and portable: no node:* imports.
 */
import { defaultContentType } from './content-types.js'
import { isDerivedHeader, sanitizeHeaderText } from './normalize-headers.js'
import type { Response, ResponseBody } from './types.js'

/** The response with another status code. */
export const withStatus = (res: Response, status: number): Response => ({ ...res, status })

/**
 * The response with header `name` set to `value`, replacing any header of that name
 * (case-insensitive). `Content-Type` sets the content type; `Content-Length` and
 * `Transfer-Encoding` are derived when serialised and so are ignored here.
 *
 * @example
 * withHeader(text('hi'), 'Cache-Control', 'no-store')
 */
export const withHeader = <R extends Response>(res: R, name: string, value: string): R => {
  const lower = name.toLowerCase()
  const clean = sanitizeHeaderText(value)
  // Headers and content type are not in a response's type-level marks (`JsonResponse`'s data
  // and status), so the result keeps the type it was given.
  if (lower === 'content-type') return { ...res, contentType: clean }
  if (isDerivedHeader(lower)) return res
  const others = res.headers.filter(([n]) => n.toLowerCase() !== lower)
  return { ...res, headers: [...others, [sanitizeHeaderText(name), clean]] }
}

/** The response with one more header line, keeping those of the same name (`Set-Cookie`). */
export const appendHeader = <R extends Response>(res: R, name: string, value: string): R => {
  const lower = name.toLowerCase()
  if (lower === 'content-type' || isDerivedHeader(lower)) return withHeader(res, name, value)
  return { ...res, headers: [...res.headers, [sanitizeHeaderText(name), sanitizeHeaderText(value)]] }
}

/**
 * The response with another body. When the response had no content type yet (it was built
 * without a body), the default for the new body is taken; otherwise the type is kept.
 */
export const withBody = (res: Response, body: ResponseBody): Response => ({
  ...res,
  body,
  contentType: res.contentType === '' ? defaultContentType(body) : res.contentType,
})

/** The response with another content type. */
export const withContentType = (res: Response, contentType: string): Response => ({
  ...res,
  contentType: sanitizeHeaderText(contentType),
})

/** Data-last {@link withStatus}. */
export const setStatus =
  (status: number) =>
  (res: Response): Response =>
    withStatus(res, status)
/** Data-last {@link withHeader}. */
export const setHeader =
  (name: string, value: string) =>
  (res: Response): Response =>
    withHeader(res, name, value)
/** Data-last {@link withBody}. */
export const setBody =
  (body: ResponseBody) =>
  (res: Response): Response =>
    withBody(res, body)
/** Data-last {@link withContentType}. */
export const setContentType =
  (contentType: string) =>
  (res: Response): Response =>
    withContentType(res, contentType)
