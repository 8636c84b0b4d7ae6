/**
 * `routes`: flattens routes, controllers and tables into one route table, keeping order.
 * Pure and portable: no node:* imports.
 */
import { isRoute, type Route, type RouteSource, type RoutesOf, type RouteTable } from './route.js'

const collect = (source: RouteSource, into: Route[]): void => {
  if (isRoute(source)) into.push(source)
  else if (Array.isArray(source)) for (const item of source as readonly RouteSource[]) collect(item, into)
  else for (const item of Object.values(source)) collect(item, into)
}

/**
 * One table from many sources, in argument order (a controller's routes in key order). The
 * table's type is the union of its routes' types, so `typeof table` can type a client.
 *
 * @example
 * const table = routes(chatController, [httpRoute('GET', '/health', () => ({ ok: true }))])
 */
export function routes<S extends readonly RouteSource[]>(...sources: S): readonly RoutesOf<S>[]
// The table holds exactly the routes `RoutesOf` names; the overload above says so.
export function routes(...sources: readonly RouteSource[]): RouteTable {
  const table: Route[] = []
  for (const source of sources) collect(source, table)
  return table
}
