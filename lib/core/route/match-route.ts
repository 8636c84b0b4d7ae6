/**
 * `matchRoute`: finds the HTTP route for a method and a still-encoded request path.
 * Static paths are one Map lookup; others walk a segment trie, literal children before
 * the param child, backtracking when a branch ends without a route for the method.
 * Pure and portable: no node:* imports.
 */
import { buildRoutes } from './compile-routes.js'
import type { CompiledRoutes, Endpoint, PathLeaf, TrieNode } from './compiled-routes.js'
import type { RouteParams } from './path-params.js'
import type { RouteTable } from './route.js'
import type { RouteMatch } from './route-match.js'

const NOT_FOUND: RouteMatch = Object.freeze({ _tag: 'RouteNotFound', status: 404 })

// RFC 9110 §9.3.2: HEAD is GET without the content, so a GET route answers HEAD.
const endpointFor = (leaf: PathLeaf, method: string): Endpoint | undefined =>
  leaf.methods.get(method) ?? (method === 'HEAD' ? leaf.methods.get('GET') : undefined)

const memo = new WeakMap<RouteTable, CompiledRoutes>()

const compiledOf = (source: CompiledRoutes | RouteTable): CompiledRoutes => {
  if (!Array.isArray(source)) return source as CompiledRoutes
  const table = source as RouteTable
  const cached = memo.get(table)
  if (cached !== undefined) return cached
  const built = buildRoutes(table).compiled
  memo.set(table, built)
  return built
}

interface Walk {
  readonly method: string
  readonly path: string
  readonly values: string[]
  /** Leaves that matched the path but not the method, for the 405 `Allow` list. */
  readonly misses: PathLeaf[]
}

// Depth first: `start` is the index of the next segment; past the end means consumed.
const walk = (at: TrieNode, start: number, w: Walk): Endpoint | undefined => {
  if (start > w.path.length) {
    if (at.leaf === undefined) return undefined
    const found = endpointFor(at.leaf, w.method)
    if (found === undefined) w.misses.push(at.leaf)
    return found
  }
  let end = w.path.indexOf('/', start)
  if (end === -1) end = w.path.length
  const segment = w.path.slice(start, end)
  const literal = at.statics.get(segment)
  if (literal !== undefined) {
    const found = walk(literal, end + 1, w)
    if (found !== undefined) return found
  }
  if (at.param !== undefined && segment !== '') {
    w.values.push(segment)
    const found = walk(at.param, end + 1, w)
    if (found !== undefined) return found
    w.values.pop()
  }
  return undefined
}

const decode = (segment: string): string | undefined => {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const found = (endpoint: Endpoint, values: readonly string[]): RouteMatch => {
  const params: Record<string, string> = {}
  for (let i = 0; i < values.length; i++) {
    const raw = values[i] as string
    const value = decode(raw)
    if (value === undefined) return { _tag: 'MalformedParam', status: 400, segment: raw }
    params[endpoint.params[i] as string] = value
  }
  return { _tag: 'RouteFound', route: endpoint.route, params: params as RouteParams }
}

/**
 * Matches `method` and `path` (percent-encoded, without the query). Methods are
 * case-sensitive (RFC 9110 §9.1); HEAD falls back to GET. A single trailing slash is
 * ignored. Literal segments win over params at the same position.
 *
 * Takes a `CompiledRoutes` or a route table; a table is compiled on first use and
 * remembered (by identity), keeping the first of any conflicting routes — call
 * `compileRoutes` to see the conflicts.
 *
 * @example
 * matchRoute(table, 'GET', '/users/42') // { _tag: 'RouteFound', route, params: { id: '42' } }
 */
export const matchRoute = (routes: CompiledRoutes | RouteTable, method: string, path: string): RouteMatch => {
  if (path.charCodeAt(0) !== 47) return NOT_FOUND
  const compiled = compiledOf(routes)
  const key = path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path
  const leaf = compiled.statics.get(key)
  if (leaf !== undefined) {
    const endpoint = endpointFor(leaf, method)
    if (endpoint !== undefined) return { _tag: 'RouteFound', route: endpoint.route, params: {} }
  }
  const w: Walk = { method, path: key, values: [], misses: [] }
  const endpoint = walk(compiled.trie, key === '/' ? 2 : 1, w)
  if (endpoint !== undefined) return found(endpoint, w.values)
  if (w.misses.length === 0) return NOT_FOUND
  const allow = [...new Set(w.misses.flatMap((m) => m.allow))]
  return { _tag: 'MethodNotAllowed', status: 405, allow }
}
