/**
 * The compiled form of a route table: event names in a Map, connect/disconnect handlers
 * in table order, the raw route, upgrade guards by path, static HTTP paths in a Map and parameterised ones in a
 * segment trie. Built by `compileRoutes`, read by `matchRoute` and the dispatchers.
 * Types only. Pure and portable: no node:* imports.
 */
import type { ParamsBuilder } from './params-builder.js'
import type { HttpRoute, OnConnectRoute, OnDisconnectRoute, OnMessageRoute, RouteTable, SocketOnRoute, UpgradeGuardRoute } from './route.js'

/** One HTTP route at a trie leaf, with its param names in path order. */
export interface Endpoint {
  readonly route: HttpRoute
  readonly params: readonly string[]
  /** Makes the params record from the matched values, in path order. */
  readonly build: ParamsBuilder
  /** Position of the route in the table. */
  readonly index: number
}

/** The routes of one path shape, by method. */
export interface PathLeaf {
  readonly methods: ReadonlyMap<string, Endpoint>
  /** The methods for an `Allow` header: those registered, plus HEAD where GET is. */
  readonly allow: readonly string[]
}

/** An edge of the trie labelled with one literal segment. */
export interface LiteralEdge {
  readonly text: string
  readonly node: TrieNode
}

/**
 * A trie node: literal children (an array: matching compares the segment in place,
 * without cutting it out of the path), one param child, one rest child, maybe a leaf.
 */
export interface TrieNode {
  readonly literals: readonly LiteralEdge[]
  /**
   * The same edges grouped by `length * 65536 + first char code`, for nodes with many
   * literal children (so a lookup compares one or two candidates, not all).
   */
  readonly byShape: ReadonlyMap<number, readonly LiteralEdge[]> | undefined
  readonly param: TrieNode | undefined
  /** The child of a `{*rest}` param: it matches whatever is left of the path. */
  readonly rest: TrieNode | undefined
  readonly leaf: PathLeaf | undefined
}

export interface CompiledRoutes {
  readonly _tag: 'CompiledRoutes'
  /** The table this was compiled from. */
  readonly table: RouteTable
  readonly events: ReadonlyMap<string, SocketOnRoute>
  readonly connect: readonly OnConnectRoute[]
  readonly disconnect: readonly OnDisconnectRoute[]
  readonly raw: OnMessageRoute | undefined
  /** The `upgradeGuard` routes by path (trailing slash trimmed), each path's in table order. */
  readonly guards: ReadonlyMap<string, readonly UpgradeGuardRoute[]>
  /** Paths without params (trailing slash trimmed), for a single Map lookup. */
  readonly statics: ReadonlyMap<string, PathLeaf>
  /** Every HTTP route, static ones included, for the fallback walk. */
  readonly trie: TrieNode
}
