/**
 * What `matchRoute` answers: the route and its decoded params, or why there is none,
 * with the HTTP status the client gets. Pure and portable: no node:* imports.
 */
import type { RouteParams } from './path-params.js'
import type { HttpRoute } from './route.js'

/** A route answers this method on this path. */
export interface RouteFound {
  readonly _tag: 'RouteFound'
  readonly route: HttpRoute
  /** URL-decoded params by name. */
  readonly params: RouteParams
}

/** No route has this path, whatever the method (RFC 9110 §15.5.5). */
export interface RouteNotFound {
  readonly _tag: 'RouteNotFound'
  readonly status: 404
}

/** Routes have this path but not this method; `allow` is the `Allow` header (RFC 9110 §15.5.6). */
export interface MethodNotAllowed {
  readonly _tag: 'MethodNotAllowed'
  readonly status: 405
  readonly allow: readonly string[]
}

/** A param of the matched path is not valid percent-encoded UTF-8 (RFC 3986 §2.1). */
export interface MalformedParam {
  readonly _tag: 'MalformedParam'
  readonly status: 400
  readonly segment: string
}

export type RouteMatch = RouteFound | RouteNotFound | MethodNotAllowed | MalformedParam
