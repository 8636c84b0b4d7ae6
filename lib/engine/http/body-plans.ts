/**
 * `bodyPlans`: how each HTTP route of a server takes its request body (DESIGN §8): streamed
 * (`{ body: 'stream' }`) or read whole, within the route's own `maxBody` or the server's
 * `limits.maxBody`. Resolved once per route at start-up; a server without body options on
 * any route answers `undefined` for every request at no cost.
 *
 * Portable: no node:* imports.
 */
import type { HttpLimits } from '../../core/http/http-limits.js'
import type { CompiledRoutes } from '../../core/route/compiled-routes.js'
import { createRouteMemo, matchRoute } from '../../core/route/match-route.js'
import type { HttpRoute } from '../../core/route/route.js'

/** How a route takes its body: streamed or not, within which limit (the route's own or the server's). */
export interface BodyPlan {
  readonly stream: boolean
  readonly maxBody: number
  /** The HTTP limits to finish reading a buffered body with (the route's `maxBody`). */
  readonly limits: HttpLimits
}

/** The plans, and the limits requests are parsed with (the largest body any route allows). */
export interface BodyPlans {
  readonly parseLimits: HttpLimits
  /** The smallest body limit of any route (or the server's): a whole body under it needs no plan. */
  readonly smallestMaxBody: number
  readonly planOf: (method: string, path: string) => BodyPlan | undefined
}

const NONE = (): undefined => undefined

/**
 * @example
 * const plans = bodyPlans(compiled, httpLimits)
 * plans.planOf('POST', '/upload') // { stream: true, maxBody: 2147483648, limits }
 */
export const bodyPlans = (compiled: CompiledRoutes, limits: HttpLimits): BodyPlans => {
  const routes = compiled.table.filter((r): r is HttpRoute => r._tag === 'HttpRoute')
  const planned = routes.filter((r) => r.body === 'stream' || r.maxBody !== undefined)
  if (planned.length === 0) return { parseLimits: limits, smallestMaxBody: limits.maxBody, planOf: NONE }
  const largest = Math.max(limits.maxBody, ...planned.map((r) => r.maxBody ?? 0))
  const fallback: BodyPlan = { stream: false, maxBody: limits.maxBody, limits }
  const plans = new Map<HttpRoute, BodyPlan>()
  for (const route of planned) {
    const maxBody = route.maxBody ?? limits.maxBody
    plans.set(route, { stream: route.body === 'stream', maxBody, limits: { ...limits, maxBody } })
  }
  // This server's own memo: the lookup is made once per request with a body, or per request
  // when a route streams its body.
  const memo = createRouteMemo()
  return {
    parseLimits: { ...limits, maxBody: largest },
    smallestMaxBody: Math.min(limits.maxBody, ...planned.map((r) => r.maxBody ?? limits.maxBody)),
    planOf: (method, path) => {
      const match = matchRoute(compiled, method, path, memo)
      return (match._tag === 'RouteFound' && plans.get(match.route)) || fallback
    },
  }
}
