/**
 * `compileRoutes`: checks a route table once and builds what matching and dispatch read
 * (DESIGN §2). Shadowing is reported here, at build time, never overwritten silently.
 * Pure and portable: no node:* imports.
 */
import * as E from 'fp-ts/lib/Either.js'
import { compilePath } from './compile-path.js'
import { paramsBuilder } from './params-builder.js'
import type { CompiledRoutes, Endpoint, LiteralEdge, PathLeaf, TrieNode } from './compiled-routes.js'
import type { HttpRoute, OnConnectRoute, OnDisconnectRoute, OnMessageRoute, RouteTable, SocketOnRoute, UpgradeGuardRoute } from './route.js'
import { guardPath } from './upgrade-guard.js'
import type { RouteTableError } from './route-table-error.js'

// RFC 9110 §5.6.2: token = 1*tchar.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

interface MutableNode {
  readonly statics: Map<string, MutableNode>
  param: MutableNode | undefined
  rest: MutableNode | undefined
  leaf: { readonly methods: Map<string, Endpoint>; allow: string[] } | undefined
}

const node = (): MutableNode => ({ statics: new Map(), param: undefined, rest: undefined, leaf: undefined })

// Above this many literal children a node also indexes them by shape.
const INDEX_FROM = 5

/** The key of `byShape`: a segment's length and first character, in one number. */
export const shapeKey = (length: number, firstChar: number): number => length * 65536 + firstChar

const freeze = (at: MutableNode): TrieNode => {
  const literals: LiteralEdge[] = [...at.statics].map(([text, child]) => ({ text, node: freeze(child) }))
  let byShape: Map<number, LiteralEdge[]> | undefined
  if (literals.length >= INDEX_FROM) {
    byShape = new Map()
    for (const edge of literals) {
      const key = shapeKey(edge.text.length, edge.text.charCodeAt(0))
      byShape.set(key, [...(byShape.get(key) ?? []), edge])
    }
  }
  const param = at.param === undefined ? undefined : freeze(at.param)
  return { literals, byShape, param, rest: at.rest === undefined ? undefined : freeze(at.rest), leaf: at.leaf }
}

const allowOf = (methods: ReadonlyMap<string, Endpoint>): string[] => {
  const allow = [...methods.keys()]
  return methods.has('GET') && !methods.has('HEAD') ? [...allow, 'HEAD'] : allow
}

/**
 * Builds the compiled form, keeping the first of conflicting routes, and lists every
 * problem. `compileRoutes` is the checked entry; `matchRoute(table, ...)` uses this.
 */
export const buildRoutes = (table: RouteTable): { readonly compiled: CompiledRoutes; readonly errors: readonly RouteTableError[] } => {
  const errors: RouteTableError[] = []
  const events = new Map<string, SocketOnRoute>()
  const eventIndex = new Map<string, number>()
  const connect: OnConnectRoute[] = []
  const disconnect: OnDisconnectRoute[] = []
  let raw: { route: OnMessageRoute; index: number } | undefined
  const guards = new Map<string, UpgradeGuardRoute[]>()
  const statics = new Map<string, PathLeaf>()
  const root = node()

  const addHttp = (route: HttpRoute, index: number): void => {
    if (!TOKEN.test(route.method)) return void errors.push({ _tag: 'InvalidMethod', index, method: route.method })
    const compiled = compilePath(route.path)
    if (E.isLeft(compiled)) return void errors.push({ _tag: 'InvalidPath', index, path: route.path, reason: compiled.left })
    let at = root
    for (const segment of compiled.right.segments) {
      if (segment._tag === 'Param') at = at.param ??= node()
      else if (segment._tag === 'Rest') at = at.rest ??= node()
      else {
        const next = at.statics.get(segment.text) ?? node()
        at.statics.set(segment.text, next)
        at = next
      }
    }
    const leaf = (at.leaf ??= { methods: new Map(), allow: [] })
    const earlier = leaf.methods.get(route.method)
    if (earlier !== undefined) {
      return void errors.push({ _tag: 'ShadowedRoute', index, shadowedBy: earlier.index, method: route.method, path: route.path })
    }
    leaf.methods.set(route.method, { route, params: compiled.right.params, build: paramsBuilder(compiled.right.params), index })
    leaf.allow = allowOf(leaf.methods)
    if (compiled.right.params.length === 0) statics.set(compiled.right.path, leaf)
  }

  // A guard decides one exact path: no params, no query, no fragment.
  const addGuard = (route: UpgradeGuardRoute, index: number): void => {
    const reason = !route.path.startsWith('/') ? 'must start with "/"' : /[{}?#]/.test(route.path) ? 'an upgrade guard takes an exact path (no {params}, query or fragment)' : undefined
    if (reason !== undefined) return void errors.push({ _tag: 'InvalidPath', index, path: route.path, reason })
    const path = guardPath(route.path)
    guards.set(path, [...(guards.get(path) ?? []), route])
  }

  table.forEach((route, index) => {
    switch (route._tag) {
      case 'HttpRoute':
        return addHttp(route, index)
      case 'SocketOn': {
        const earlier = eventIndex.get(route.event)
        if (earlier !== undefined) return void errors.push({ _tag: 'DuplicateEvent', index, shadowedBy: earlier, event: route.event })
        events.set(route.event, route)
        return void eventIndex.set(route.event, index)
      }
      case 'OnConnect':
        return void connect.push(route)
      case 'OnDisconnect':
        return void disconnect.push(route)
      case 'OnMessage':
        if (raw !== undefined) return void errors.push({ _tag: 'DuplicateRawRoute', index, shadowedBy: raw.index })
        raw = { route, index }
        return
      case 'UpgradeGuard':
        return addGuard(route, index)
    }
  })

  const trie = freeze(root)
  return {
    compiled: { _tag: 'CompiledRoutes', table, events, connect, disconnect, raw: raw?.route, guards, statics, trie },
    errors,
  }
}

/**
 * Compiles a table, or lists everything wrong with it: invalid paths and methods, HTTP
 * routes shadowed by an earlier one (same method, same path shape), repeated event names,
 * a second `onMessage` route, an upgrade guard's path that is not an exact path.
 *
 * @example
 * const compiled = compileRoutes(routes(app)) // Either<readonly RouteTableError[], CompiledRoutes>
 */
export const compileRoutes = (table: RouteTable): E.Either<readonly RouteTableError[], CompiledRoutes> => {
  const { compiled, errors } = buildRoutes(table)
  return errors.length > 0 ? E.left(errors) : E.right(compiled)
}
