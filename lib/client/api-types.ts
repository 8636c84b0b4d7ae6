/**
 * What the typed HTTP helper reads from the server's route table: the paths of each method,
 * their `{param}`s, the JSON body a route declares (`declareBody`, or its body schema), what
 * its handler answers on success, and the failures (statuses outside 2xx) it answers or
 * declares (`responses`). Types only.
 */
import type { JsonResponse, Response } from '../core/http/types.js'
import type { PathParams } from '../core/route/path-params.js'
import type { HttpRoute, RoutesOf } from '../core/route/route.js'
import type { SchemaInput, SchemaOutput } from '../core/route/schema.js'
import type { ApiError } from './api-error.js'

/** The `httpRoute`s of an application's route table. */
export type HttpRoutes<App> = Extract<RoutesOf<App>, { readonly _tag: 'HttpRoute' }>

/** The paths (patterns with `{param}`s) that have a route for `Method`. */
export type ApiPath<App, Method extends string> =
  HttpRoutes<App> extends infer R ? (R extends HttpRoute<infer M, infer P, unknown, unknown> ? (Method extends M ? P : never) : never) : never

// The routes of `Method`, keyed by path: built once per application and method, so a call's
// lookup is one indexed access, not a pass over every route (a 200-route app called 200 times
// made 200 × 200 conditional types). Two routes on one path and method give their union.
type RoutesByPath<App, Method extends string> = {
  [R in HttpRoutes<App> as R extends HttpRoute<infer M, infer P, unknown, unknown> ? (Method extends M ? P : never) : never]: R
}

// The route at `Method Path`. A route whose path is typed `string` (built from a variable) is
// the index's signature: it answers for any path no literal route has. Written as direct
// indexed accesses: `RoutesByPath<…> extends infer Index` cost a pass over the routes per call.
type RouteAt<App, Method extends string, Path extends string> =
  Path extends keyof RoutesByPath<App, Method>
    ? RoutesByPath<App, Method>[Path]
    : string extends keyof RoutesByPath<App, Method>
      ? RoutesByPath<App, Method>[string]
      : never

// 0 extends 1 & T holds only for `any`.
type IsAny<T> = 0 extends 1 & T ? true : false

// Whether a status (a number literal, or `number` when not known) is a success.
type IsSuccess<S> = number extends S ? true : `${S & number}` extends `2${string}` ? true : false

// A response's data: a `json(data)` response gives `data` unless its status is known and not
// 2xx (those reject); an error response (`errorResponse`, `httpErrorResponse`, `notFound`, …)
// and any other Response (a page, text) contribute nothing; a plain value is sent as JSON.
type Answered<V> = V extends Response
  ? '~error' extends keyof V
    ? never
    : '~json' extends keyof V
      ? V extends JsonResponse<infer T, infer S>
        ? IsSuccess<S> extends true
          ? T
          : never
        : never
      : never
  : V

// A response's failure: an error response with its status and body, a `json(data, status)`
// whose status is known and not 2xx.
type Failed<V> = V extends Response
  ? V extends JsonResponse<infer T, infer S>
    ? '~error' extends keyof V
      ? ApiError<S, T>
      : '~json' extends keyof V
        ? IsSuccess<S> extends true
          ? never
          : ApiError<S, T>
        : never
    : never
  : never

/**
 * What a route whose handler returns `R` answers to the typed helper: the plain value, the
 * data of a `json(...)` response, `void` for nothing (204); `unknown` when nothing is known.
 * Error responses beside them (`errorResponse(409, …)`, `httpErrorResponse(e)`,
 * `json(e, 404)`) are failures, not results: see {@link HttpFailure}.
 */
export type HttpResult<R> =
  IsAny<R> extends true ? unknown : Awaited<R> extends infer V ? ([V] extends [void] ? void : [Answered<V>] extends [never] ? unknown : Answered<V>) : never

/** The failures a handler returning `R` answers: one `ApiError<status, body>` per error branch. */
export type HttpFailure<R> = IsAny<R> extends true ? never : Failed<Awaited<R>>

// What a client reads of a declared response's schema: what the schema accepts (its input, the
// JSON on the wire), or what it gives when its input is not known.
type WireOf<S> = unknown extends SchemaInput<S> ? SchemaOutput<S> : SchemaInput<S>

// The declared responses (`responses: { 201: Room, 409: Conflict }`) of the route at `Method Path`.
type DeclaredAt<App, Method extends string, Path extends string> =
  RouteAt<App, Method, Path> extends HttpRoute<string, string, unknown, unknown, infer D> ? D : unknown

// The declared answers whose status is (or is not) a success, as `ApiError<status, body>`.
type DeclaredAnswers<D, Success extends boolean> = D extends object
  ? { [K in keyof D]: K extends number ? (IsSuccess<K> extends Success ? ApiError<K, WireOf<D[K]>> : never) : never }[keyof D]
  : never

/**
 * What `Method Path` of `App` answers on success: the handler's result (see `HttpResult`), or,
 * when that is not known (the handler returns a plain `Response`), the body of its declared 2xx
 * responses.
 */
export type ApiResult<App, Method extends string, Path extends string> =
  RouteAt<App, Method, Path> extends HttpRoute<string, string, infer R, unknown>
    ? unknown extends HttpResult<R>
      ? [DeclaredAnswers<DeclaredAt<App, Method, Path>, true>] extends [never]
        ? unknown
        : DeclaredAnswers<DeclaredAt<App, Method, Path>, true>['body']
      : HttpResult<R>
    : unknown

/**
 * The failures `Method Path` of `App` rejects with, as a union of `ApiError<status, body>` to
 * narrow on `status`: the error responses its handler returns (`errorResponse(409, …)` is an
 * `ApiError<409, ErrorBody>`, `json(e, 404)` an `ApiError<404, typeof e>`) and the non-2xx
 * responses it declares (`responses: { 404: NotFound }`). An answer the route never gives (a
 * 500 from a handler that threw, a proxy's 502) rejects with an `ApiError` outside this union.
 *
 * @example
 * const failed = await api.post('/rooms', { body }).catch((e: unknown) => e)
 * if (failed instanceof ApiError) {
 *   const known = failed as ApiFailure<typeof app, 'POST', '/rooms'>
 *   if (known.status === 409) known.body.error // string
 * }
 */
export type ApiFailure<App, Method extends string, Path extends string> =
  RouteAt<App, Method, Path> extends HttpRoute<string, string, infer R, unknown>
    ? HttpFailure<R> | DeclaredAnswers<DeclaredAt<App, Method, Path>, false>
    : ApiError

/** The JSON body `Method Path` of `App` declared with `declareBody` (`unknown` when none). */
export type ApiBody<App, Method extends string, Path extends string> =
  RouteAt<App, Method, Path> extends HttpRoute<string, string, unknown, infer B> ? B : unknown

/** Query values, appended to the URL. */
export type ApiQuery = { readonly [name: string]: string | number | boolean }

/** The second argument of a call: params (required when the path has some), body, query, headers, signal. */
export type ApiInit<Path extends string, Body, WithBody extends boolean> = (string extends Path
  ? { readonly params?: PathParams<Path> }
  : [keyof PathParams<Path>] extends [never]
    ? { readonly params?: undefined }
    : { readonly params: PathParams<Path> }) &
  (WithBody extends false ? { readonly body?: undefined } : unknown extends Body ? { readonly body?: unknown } : { readonly body: Body }) & {
    readonly query?: ApiQuery
    readonly headers?: { readonly [name: string]: string }
    readonly signal?: AbortSignal
  }

/** The init argument, optional when nothing in it is required. */
export type ApiArgs<Init> = {} extends Init ? [init?: Init] : [init: Init]
