/**
 * `httpRoute`: an HTTP route whose handler's `params` type comes from the path string
 * (seed §2.6 `HttpRoute`, §4.3), with typed inputs when its options declare schemas
 * (issue 27). Pure and portable: no node:* imports.
 *
 * A route without schemas is the record it always was: its handler is called as given, so
 * it costs nothing more per request. A route with schemas gets a handler that runs
 * `checkInput` first and calls the given one with `req.input` set.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Request } from '../http/request.js'
import { checkInput, type InputCheck } from './check-input.js'
import type { HttpContext } from './http-context.js'
import type { BodyType, DecodedInput, HttpInputOptions, HttpInputSchemas, InputHttpHandler } from './http-input.js'
import type { PathParams } from './path-params.js'
import type { HttpHandler, HttpRoute, HttpRouteOptions, StreamHttpHandler } from './route.js'
import { isSchema, type Schema, type SchemaInput } from './schema.js'

const DEFAULT_BODY_TYPES: readonly BodyType[] = Object.freeze(['json'] as const)

/** The JSON body a client sends to a route declared with options `O`: the body schema's input. */
type BodyOf<O> = O extends { readonly body: infer B } ? (B extends Schema ? SchemaInput<B> : unknown) : unknown

/** The `responses` a route declared with options `O`, as given (status → schema); `unknown` when none. */
type ResponsesOf<O> = O extends { readonly responses: infer D } ? D : unknown

/** Options without input schemas: the overloads whose handler has no `req.input`. */
type NoSchemas = { readonly params?: undefined; readonly query?: undefined; readonly headers?: undefined }

/** Whether options `O` read the body as a stream. */
type StreamedOf<O> = O extends { readonly body: 'stream' } ? true : false

// The request is fresh, made for this call and seen by no one else yet: `input` is set on it
// before the handler is given it (an own property; a Request's other fields are getters).
const withInput = (req: Request, input: { readonly [name: string]: unknown }): Request => Object.assign(req, { input })

const guarded = (
  schemas: HttpInputSchemas,
  accepted: readonly BodyType[],
  handler: (req: Request, ctx: HttpContext) => unknown,
): ((req: Request, ctx: HttpContext) => unknown) => {
  const run = (req: Request, ctx: HttpContext, checked: InputCheck): unknown =>
    E.isLeft(checked) ? checked.left : handler(withInput(req, checked.right), ctx)
  return (req, ctx) => {
    const checked = checkInput(req, schemas, accepted)
    return checked instanceof Promise ? checked.then((c) => run(req, ctx, c)) : run(req, ctx, checked)
  }
}

/**
 * Handles `method` on `path`; `{name}` segments are params, URL-decoded, typed from the path.
 * The method is upper-cased (`'get'` registers `GET`); the path is checked by `compileRoutes`.
 * The route's type keeps the method, the path and the handler's return type, for the typed
 * HTTP client of `twinport/client` (and the declared `responses`, which type its failures). Options between the path and the handler say how the
 * body is taken: `{ maxBody }` for a limit of the route's own, `{ body: 'stream' }` to read
 * it as it arrives (`req.body` is then a `BodyStream`).
 *
 * Options may also declare schemas for the inputs: `params`, `query`, `headers` and `body`
 * (read whole, of the media types in `bodyTypes`, default JSON). The handler then runs only
 * for a request that fits, and finds the decoded values in `req.input` (`req.params`,
 * `req.query` and `req.body` stay as received). A request that does not fit is answered 422
 * (`invalidInputResponse`), 400 for a body that does not parse, 415 for another media type.
 *
 * @example
 * const user = httpRoute('GET', '/users/{id}', (req) => ({ id: req.params.id }))
 * const upload = httpRoute('PUT', '/files/{name}', { body: 'stream', maxBody: 2 ** 30 }, async (req) => {
 *   let size = 0
 *   for await (const chunk of req.body) size += chunk.length
 *   return { size }
 * })
 * const typed = httpRoute('POST', '/users/{id}/notes', { params: t.type({ id: intParam }), body: t.type({ text: t.string }) }, (req) => ({
 *   user: req.input.params.id, // number
 *   text: req.input.body.text, // string
 * }))
 */
export function httpRoute<Method extends string, Path extends string, R>(
  method: Method,
  path: Path,
  handler: HttpHandler<PathParams<Path>, R>,
): HttpRoute<Uppercase<Method>, Path, R>
export function httpRoute<Method extends string, Path extends string, const O extends HttpRouteOptions & { readonly body: 'stream' } & NoSchemas, R>(
  method: Method,
  path: Path,
  options: O,
  handler: StreamHttpHandler<PathParams<Path>, R>,
): HttpRoute<Uppercase<Method>, Path, R, unknown, ResponsesOf<O>>
export function httpRoute<Method extends string, Path extends string, const O extends HttpRouteOptions & { readonly body?: 'buffer' } & NoSchemas, R>(
  method: Method,
  path: Path,
  options: O,
  handler: HttpHandler<PathParams<Path>, R>,
): HttpRoute<Uppercase<Method>, Path, R, unknown, ResponsesOf<O>>
export function httpRoute<Method extends string, Path extends string, const O extends HttpInputOptions, R>(
  method: Method,
  path: Path,
  options: O,
  handler: InputHttpHandler<PathParams<Path>, DecodedInput<O>, R, StreamedOf<O>>,
): HttpRoute<Uppercase<Method>, Path, R, BodyOf<O>, ResponsesOf<O>>
export function httpRoute<Method extends string, Path extends string, R>(
  method: Method,
  path: Path,
  optionsOrHandler: HttpInputOptions | HttpHandler<PathParams<Path>, R>,
  maybeHandler?: HttpHandler<PathParams<Path>, R> | StreamHttpHandler<PathParams<Path>, R> | InputHttpHandler<PathParams<Path>, never, R, boolean>,
): HttpRoute<Uppercase<Method>, Path, R, unknown> {
  const options: HttpInputOptions = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler
  // The overloads pair a stream handler with `{ body: 'stream' }` only; at run time both take the same Request.
  const given = (typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler) as (req: Request, ctx: HttpContext) => R
  const bodySchema = isSchema(options.body) ? options.body : undefined
  const input: HttpInputSchemas = {
    ...(options.params !== undefined ? { params: options.params } : {}),
    ...(options.query !== undefined ? { query: options.query } : {}),
    ...(options.headers !== undefined ? { headers: options.headers } : {}),
    ...(bodySchema !== undefined ? { body: bodySchema } : {}),
  }
  const typed = Object.keys(input).length > 0
  const bodyTypes = options.bodyTypes ?? DEFAULT_BODY_TYPES
  const handler = typed ? guarded(input, bodyTypes, given) : given
  return {
    _tag: 'HttpRoute',
    // toUpperCase is what `Uppercase` describes.
    method: method.toUpperCase() as Uppercase<Method>,
    path,
    // The matcher only calls this with the params named in `path`, so the record fits.
    handler: (req, ctx) => handler(req as Request, ctx) as R,
    ...(options.body === 'stream' ? { body: 'stream' as const } : {}),
    ...(options.maxBody !== undefined ? { maxBody: options.maxBody } : {}),
    ...(options.decompress !== undefined ? { decompress: options.decompress } : {}),
    ...(typed ? { input } : {}),
    ...(bodySchema !== undefined ? { bodyTypes } : {}),
    ...(options.responses !== undefined ? { responses: options.responses } : {}),
  }
}
