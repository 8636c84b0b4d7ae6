/**
 * `routes`: flattens routes, controllers and tables into one route table, keeping order.
 * Pure and portable: no node:* imports.
 */
import { isRoute, type Route, type RouteSource, type RouteTable } from './route.js'

const collect = (source: RouteSource, into: Route[]): void => {
  if (isRoute(source)) into.push(source)
  else if (Array.isArray(source)) for (const item of source as readonly RouteSource[]) collect(item, into)
  else for (const item of Object.values(source)) collect(item, into)
}

/**
 * One table from many sources, in argument order (a controller's routes in key order).
 *
 * @example
 * const table = routes(chatController, [httpRoute('GET', '/health', () => ({ ok: true }))])
 */
export const routes = (...sources: readonly RouteSource[]): RouteTable => {
  const table: Route[] = []
  for (const source of sources) collect(source, table)
  return table
}
