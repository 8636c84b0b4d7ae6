/**
 * `httpRoute`: an HTTP route whose handler's `params` type comes from the path string
 * (seed §2.6 `HttpRoute`, §4.3). Pure and portable: no node:* imports.
 */
import type { PathParams } from './path-params.js'
import type { HttpHandler, HttpRoute } from './route.js'

/**
 * Handles `method` on `path`; `{name}` segments are params, URL-decoded, typed from the path.
 * The method is upper-cased (`'get'` registers `GET`); the path is checked by `compileRoutes`.
 * The route's type keeps the method, the path and the handler's return type, for the typed
 * HTTP client of `twinport/client`.
 *
 * @example
 * const user = httpRoute('GET', '/users/{id}', (req) => ({ id: req.params.id }))
 */
export const httpRoute = <Method extends string, Path extends string, R>(
  method: Method,
  path: Path,
  handler: HttpHandler<PathParams<Path>, R>,
): HttpRoute<Uppercase<Method>, Path, R> => ({
  _tag: 'HttpRoute',
  // toUpperCase is what `Uppercase` describes.
  method: method.toUpperCase() as Uppercase<Method>,
  path,
  // The matcher only calls this with the params named in `path`, so the record fits.
  handler: (req, ctx) => handler(req as Parameters<typeof handler>[0], ctx),
})
