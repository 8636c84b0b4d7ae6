/**
 * `matchRoute`: finds the HTTP route for a method and a still-encoded request path.
 * Static paths are one Map lookup; others walk a segment trie, literal children before
 * the param child, backtracking when a branch ends without a route for the method.
 * Segments are compared in place; only param values are cut out of the path.
 * A server matches with its own `RouteMemo` (`createRouteMemo`): the tables it compiled,
 * the param scratch array and the last static lookup; servers share nothing.
 * Pure and portable: no node:* imports.
 */
import { buildRoutes, shapeKey } from './compile-routes.js'
import type { CompiledRoutes, Endpoint, PathLeaf, TrieNode } from './compiled-routes.js'
import type { RouteTable } from './route.js'
import type { RouteMatch } from './route-match.js'

const NOT_FOUND: RouteMatch = Object.freeze({ _tag: 'RouteNotFound', status: 404 })

// RFC 9110 §9.3.2: HEAD is GET without the content, so a GET route answers HEAD.
const endpointFor = (leaf: PathLeaf, method: string): Endpoint | undefined =>
  leaf.methods.get(method) ?? (method === 'HEAD' ? leaf.methods.get('GET') : undefined)

/** A server's matching state (see the file header). */
export interface RouteMemo {
  // Route tables compiled on first use, by identity.
  readonly tables: WeakMap<RouteTable, CompiledRoutes>
  // Param values of the walk in progress, by depth. Matching never calls out while it
  // walks, so one scratch array serves every call; results copy out of it.
  readonly values: string[]
  // The last static lookup, one entry in plain fields. A server's parser hands out the same
  // target string object request after request (its one-string memo), so a repeated lookup
  // is three identity comparisons instead of two Map lookups. A compiled table never
  // changes, so an entry never goes stale; a miss costs the comparisons and four stores.
  compiled: CompiledRoutes | undefined
  method: string
  path: string
  endpoint: Endpoint | undefined
}

/**
 * A fresh memo: nothing compiled, nothing looked up.
 *
 * @example
 * const memo = createRouteMemo()
 * matchRoute(table, 'GET', '/users/42', memo)
 */
export const createRouteMemo = (): RouteMemo => ({ tables: new WeakMap(), values: [], compiled: undefined, method: '', path: '', endpoint: undefined })

const compiledOf = (source: CompiledRoutes | RouteTable, memo: RouteMemo): CompiledRoutes => {
  if (!Array.isArray(source)) return source as CompiledRoutes
  const table = source as RouteTable
  const cached = memo.tables.get(table)
  if (cached !== undefined) return cached
  const built = buildRoutes(table).compiled
  memo.tables.set(table, built)
  return built
}

// The literal child whose text equals path[start, end), if any.
const literalAt = (at: TrieNode, path: string, start: number, end: number): TrieNode | undefined => {
  const length = end - start
  if (length === 0) return undefined
  const literals = at.byShape === undefined ? at.literals : at.byShape.get(shapeKey(length, path.charCodeAt(start)))
  if (literals === undefined) return undefined
  for (let i = 0; i < literals.length; i++) {
    const edge = literals[i] as (typeof literals)[number]
    if (edge.text.length === length && path.startsWith(edge.text, start)) return edge.node
  }
  return undefined
}

// A rest param's child: its endpoint for `method`, the rest of the path stored as its value.
const restAt = (rest: TrieNode, value: string, method: string, depth: number, values: string[]): Endpoint | undefined => {
  const endpoint = rest.leaf === undefined ? undefined : endpointFor(rest.leaf, method)
  if (endpoint !== undefined) values[depth] = value
  return endpoint
}

// Depth first from the segment at `start`; past the end of the path means consumed.
// Only a literal or param edge beside another way on needs a recursive call (to come back
// and try the param, then the rest param); every other step is a loop iteration. A rest
// param is tried last at each node: literals and single-segment params win over it.
const walk = (node: TrieNode, path: string, from: number, method: string, fromDepth: number, values: string[]): Endpoint | undefined => {
  let at = node
  let start = from
  let depth = fromDepth
  for (;;) {
    const rest = at.rest
    if (start > path.length) {
      const endpoint = at.leaf === undefined ? undefined : endpointFor(at.leaf, method)
      return endpoint !== undefined || rest === undefined ? endpoint : restAt(rest, '', method, depth, values)
    }
    let end = path.indexOf('/', start)
    if (end === -1) end = path.length
    const literal = literalAt(at, path, start, end)
    const param = end > start ? at.param : undefined
    if (literal !== undefined) {
      if (param === undefined && rest === undefined) {
        at = literal
        start = end + 1
        continue
      }
      const found = walk(literal, path, end + 1, method, depth, values)
      if (found !== undefined) return found
    }
    if (param !== undefined) {
      values[depth] = path.slice(start, end)
      if (rest === undefined) {
        depth++
        at = param
        start = end + 1
        continue
      }
      const found = walk(param, path, end + 1, method, depth + 1, values)
      if (found !== undefined) return found
    }
    return rest === undefined ? undefined : restAt(rest, path.slice(start), method, depth, values)
  }
}

// The slow path after a miss: every leaf the path reaches, whatever the method.
const leavesOf = (at: TrieNode, path: string, start: number, into: PathLeaf[]): void => {
  if (at.rest?.leaf !== undefined) into.push(at.rest.leaf)
  if (start > path.length) {
    if (at.leaf !== undefined) into.push(at.leaf)
    return
  }
  let end = path.indexOf('/', start)
  if (end === -1) end = path.length
  const literal = literalAt(at, path, start, end)
  if (literal !== undefined) leavesOf(literal, path, end + 1, into)
  if (at.param !== undefined && end > start) leavesOf(at.param, path, end + 1, into)
}

const decode = (segment: string): string | undefined => {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const found = (endpoint: Endpoint, values: string[]): RouteMatch => {
  for (let i = 0; i < endpoint.params.length; i++) {
    const raw = values[i] as string
    const value = decode(raw)
    if (value === undefined) return { _tag: 'MalformedParam', status: 400, segment: raw }
    values[i] = value
  }
  return { _tag: 'RouteFound', route: endpoint.route, params: endpoint.build(values) }
}

/**
 * The endpoint of a static route (a path without params) for `method` and `path`, exactly as
 * received (no trailing slash trimmed), or `undefined`: then `matchRoute` decides. When it
 * answers, `matchRoute` finds the same route with no params. For a dispatcher's hot path:
 * one Map lookup, and nothing made; the same lookup as the last call (same table, method and
 * path) is answered from the one-entry memo in `memo` when one is given.
 *
 * @example
 * matchStatic(compiled, 'GET', '/hello', memo)?.route // the route of GET /hello
 */
export const matchStatic = (compiled: CompiledRoutes, method: string, path: string, memo?: RouteMemo): Endpoint | undefined => {
  if (memo === undefined) {
    const leaf = compiled.statics.get(path)
    return leaf === undefined ? undefined : endpointFor(leaf, method)
  }
  if (path === memo.path && method === memo.method && compiled === memo.compiled) return memo.endpoint
  const leaf = compiled.statics.get(path)
  const endpoint = leaf === undefined ? undefined : endpointFor(leaf, method)
  memo.compiled = compiled
  memo.method = method
  memo.path = path
  memo.endpoint = endpoint
  return endpoint
}

/**
 * Matches `method` and `path` (percent-encoded, without the query). Methods are
 * case-sensitive (RFC 9110 §9.1); HEAD falls back to GET. A single trailing slash is
 * ignored. Literal segments win over params at the same position, and both over a rest
 * param (`{*name}`, whose value is the rest of the path, percent-decoded as a whole).
 *
 * Takes a `CompiledRoutes` or a route table; a table is compiled on first use and
 * remembered in `memo` (by identity), keeping the first of any conflicting routes — call
 * `compileRoutes` to see the conflicts. Without a `memo`, a fresh one serves the call (a
 * table is then compiled each time: compile it once, or pass a memo, to match it often).
 *
 * @example
 * matchRoute(table, 'GET', '/users/42') // { _tag: 'RouteFound', route, params: { id: '42' } }
 */
export const matchRoute = (routes: CompiledRoutes | RouteTable, method: string, path: string, memo: RouteMemo = createRouteMemo()): RouteMatch => {
  if (path.charCodeAt(0) !== 47) return NOT_FOUND
  const compiled = compiledOf(routes, memo)
  const key = path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path
  const leaf = compiled.statics.get(key)
  if (leaf !== undefined) {
    const endpoint = endpointFor(leaf, method)
    if (endpoint !== undefined) return { _tag: 'RouteFound', route: endpoint.route, params: {} }
  }
  const start = key === '/' ? 2 : 1
  const values = memo.values
  const endpoint = walk(compiled.trie, key, start, method, 0, values)
  if (endpoint !== undefined) return found(endpoint, values)
  const leaves: PathLeaf[] = []
  leavesOf(compiled.trie, key, start, leaves)
  if (leaves.length === 0) return NOT_FOUND
  return { _tag: 'MethodNotAllowed', status: 405, allow: [...new Set(leaves.flatMap((l) => l.allow))] }
}
