/**
 * What the typed HTTP helper reads from the server's route table: the paths of each method,
 * their `{param}`s, the JSON body a route declares (`declareBody`) and what its handler
 * answers. Types only.
 */
import type { JsonResponse, Response } from '../core/http/types.js'
import type { PathParams } from '../core/route/path-params.js'
import type { HttpRoute, RoutesOf } from '../core/route/route.js'

/** The `httpRoute`s of an application's route table. */
export type HttpRoutes<App> = Extract<RoutesOf<App>, { readonly _tag: 'HttpRoute' }>

/** The paths (patterns with `{param}`s) that have a route for `Method`. */
export type ApiPath<App, Method extends string> =
  HttpRoutes<App> extends infer R ? (R extends HttpRoute<infer M, infer P, unknown, unknown> ? (Method extends M ? P : never) : never) : never

type RouteAt<App, Method extends string, Path extends string> =
  HttpRoutes<App> extends infer R ? (R extends HttpRoute<infer M, infer P, unknown, unknown> ? (Method extends M ? (Path extends P ? R : never) : never) : never) : never

// 0 extends 1 & T holds only for `any`.
type IsAny<T> = 0 extends 1 & T ? true : false

// A response's data: a `json(data)` response gives `data` unless its status is known and not
// 2xx (those reject); any other Response (an error, a page) contributes nothing; a plain
// value is sent as JSON.
type Answered<V> = V extends Response
  ? V extends JsonResponse<infer T, infer S>
    ? '~json' extends keyof V
      ? number extends S
        ? T
        : `${S}` extends `2${string}`
          ? T
          : never
      : never
    : never
  : V

/**
 * What a route whose handler returns `R` answers to the typed helper: the plain value, the
 * data of a `json(...)` response, `void` for nothing (204); `unknown` when nothing is known.
 */
export type HttpResult<R> =
  IsAny<R> extends true ? unknown : Awaited<R> extends infer V ? ([V] extends [void] ? void : [Answered<V>] extends [never] ? unknown : Answered<V>) : never

/** What `Method Path` of `App` answers. */
export type ApiResult<App, Method extends string, Path extends string> =
  RouteAt<App, Method, Path> extends HttpRoute<string, string, infer R, unknown> ? HttpResult<R> : unknown

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
