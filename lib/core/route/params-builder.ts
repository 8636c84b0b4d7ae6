/**
 * `paramsBuilder`: for one route, a function from the matched values (in path order) to
 * the params record. Adding keys one by one to a fresh object is slow when every route
 * has other names (V8 then treats each store as megamorphic), so where the runtime allows
 * it the builder is an object literal compiled once per route; under a policy that forbids
 * `Function` (a strict Content-Security-Policy) it falls back to the loop.
 * Pure and portable: no node:* imports.
 */
import type { RouteParams } from './path-params.js'

/** Makes the params record of one match; reads `values[0 .. names.length)`. */
export type ParamsBuilder = (values: readonly string[]) => RouteParams

const loop =
  (names: readonly string[]): ParamsBuilder =>
  (values) => {
    const params: Record<string, string> = {}
    for (let i = 0; i < names.length; i++) params[names[i] as string] = values[i] as string
    return params
  }

/**
 * A builder for `names` (validated by `compilePath` as identifiers, never `__proto__`).
 *
 * @example
 * paramsBuilder(['owner', 'repo'])(['nodejs', 'node']) // { owner: 'nodejs', repo: 'node' }
 */
export const paramsBuilder = (names: readonly string[], allowCodegen = true): ParamsBuilder => {
  if (!allowCodegen || names.length === 0) return loop(names)
  try {
    // Keys are JSON string literals, so no name can inject code.
    const body = `return {${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')}}`
    return new Function('v', body) as ParamsBuilder
  } catch {
    return loop(names)
  }
}
