/**
 * `mount`: puts the HTTP routes of a table under a path prefix; other routes pass
 * through unchanged. Pure and portable: no node:* imports.
 */
import type { RouteTable } from './route.js'

/**
 * Prefixes every HTTP route path with `prefix` (`'/api'` + `'/users'` = `'/api/users'`;
 * a route on `'/'` lands on the prefix itself). A trailing slash of the prefix is dropped.
 * An invalid prefix (not starting with `/`) surfaces as `InvalidPath` in `compileRoutes`.
 *
 * @example
 * const api = mount('/api', routes(users, rooms))
 */
export const mount = (prefix: string, table: RouteTable): RouteTable => {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix
  return table.map((route) =>
    route._tag !== 'HttpRoute' ? route : { ...route, path: route.path === '/' && base !== '' ? base : base + route.path },
  )
}
