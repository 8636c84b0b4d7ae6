/**
 * `mount`: puts the HTTP routes and upgrade guards of a table under a path prefix; other
 * routes pass through unchanged. Pure and portable: no node:* imports.
 */
import type { HttpRoute, Route, RouteTable } from './route.js'

/** A prefix without its trailing slash, as `mount` uses it. */
type Base<Prefix extends string> = Prefix extends `${infer B}/` ? B : Prefix

/** The path `mount(prefix, ...)` gives a route on `Path`: `'/'` lands on the prefix itself. */
export type MountedPath<Prefix extends string, Path extends string> = Path extends '/'
  ? Base<Prefix> extends ''
    ? '/'
    : Base<Prefix>
  : `${Base<Prefix>}${Path}`

/** A route as `mount(prefix, ...)` leaves it: HTTP routes under the prefix, others unchanged in type (a guard's path is a `string`). */
export type Mounted<Prefix extends string, R extends Route> =
  R extends HttpRoute<infer M, infer P, infer Result, infer Body, infer Answers> ? HttpRoute<M, MountedPath<Prefix, P>, Result, Body, Answers> : R

/**
 * Prefixes every HTTP route path and upgrade guard path with `prefix` (`'/api'` + `'/users'`
 * = `'/api/users'`; a route on `'/'` lands on the prefix itself). A trailing slash of the prefix is dropped.
 * An invalid prefix (not starting with `/`) surfaces as `InvalidPath` in `compileRoutes`.
 * The table's type follows, so a typed client sees the mounted paths.
 *
 * @example
 * const api = mount('/api', routes(users, rooms))
 */
export function mount<Prefix extends string, T extends RouteTable>(prefix: Prefix, table: T): readonly Mounted<Prefix, T[number]>[]
// The paths are built exactly as `MountedPath` describes; the overload above says so.
export function mount(prefix: string, table: RouteTable): RouteTable {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix
  return table.map((route) =>
    route._tag !== 'HttpRoute' && route._tag !== 'UpgradeGuard' ? route : { ...route, path: route.path === '/' && base !== '' ? base : base + route.path },
  )
}
