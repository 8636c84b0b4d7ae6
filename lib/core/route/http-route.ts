/**
 * `httpRoute`: an HTTP route whose handler's `params` type comes from the path string
 * (seed §2.6 `HttpRoute`, §4.3). Pure and portable: no node:* imports.
 */
import type { PathParams } from './path-params.js'
import type { HttpHandler, HttpRoute, HttpRouteOptions, StreamHttpHandler } from './route.js'

/**
 * Handles `method` on `path`; `{name}` segments are params, URL-decoded, typed from the path.
 * The method is upper-cased (`'get'` registers `GET`); the path is checked by `compileRoutes`.
 * The route's type keeps the method, the path and the handler's return type, for the typed
 * HTTP client of `twinport/client`. Options between the path and the handler say how the
 * body is taken: `{ maxBody }` for a limit of the route's own, `{ body: 'stream' }` to read
 * it as it arrives (`req.body` is then a `BodyStream`).
 *
 * @example
 * const user = httpRoute('GET', '/users/{id}', (req) => ({ id: req.params.id }))
 * const upload = httpRoute('PUT', '/files/{name}', { body: 'stream', maxBody: 2 ** 30 }, async (req) => {
 *   let size = 0
 *   for await (const chunk of req.body) size += chunk.length
 *   return { size }
 * })
 */
export function httpRoute<Method extends string, Path extends string, R>(
  method: Method,
  path: Path,
  handler: HttpHandler<PathParams<Path>, R>,
): HttpRoute<Uppercase<Method>, Path, R>
export function httpRoute<Method extends string, Path extends string, R>(
  method: Method,
  path: Path,
  options: HttpRouteOptions & { readonly body: 'stream' },
  handler: StreamHttpHandler<PathParams<Path>, R>,
): HttpRoute<Uppercase<Method>, Path, R>
export function httpRoute<Method extends string, Path extends string, R>(
  method: Method,
  path: Path,
  options: HttpRouteOptions & { readonly body?: 'buffer' },
  handler: HttpHandler<PathParams<Path>, R>,
): HttpRoute<Uppercase<Method>, Path, R>
export function httpRoute<Method extends string, Path extends string, R>(
  method: Method,
  path: Path,
  optionsOrHandler: HttpRouteOptions | HttpHandler<PathParams<Path>, R>,
  maybeHandler?: HttpHandler<PathParams<Path>, R> | StreamHttpHandler<PathParams<Path>, R>,
): HttpRoute<Uppercase<Method>, Path, R> {
  const options: HttpRouteOptions = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler
  // The overloads pair a stream handler with `{ body: 'stream' }` only; at run time both take the same Request.
  const handler = (typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler) as HttpHandler<PathParams<Path>, R>
  return {
    _tag: 'HttpRoute',
    // toUpperCase is what `Uppercase` describes.
    method: method.toUpperCase() as Uppercase<Method>,
    path,
    // The matcher only calls this with the params named in `path`, so the record fits.
    handler: (req, ctx) => handler(req as Parameters<typeof handler>[0], ctx),
    ...(options.body === 'stream' ? { body: 'stream' as const } : {}),
    ...(options.maxBody !== undefined ? { maxBody: options.maxBody } : {}),
  }
}
