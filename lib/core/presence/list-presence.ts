/**
 * `listPresence`: the presence of a topic as the application reads it: every key with the
 * connections it has on every node (`ref` is the connection's cluster-wide id,
 * `<node>/<client id>`) and their metadata, from the node states a server holds. Pure. No
 * `node:*`, no clock.
 */
import type { NodeState, PresenceEntry } from './presence-state.js'

/** One connection of a key: its cluster-wide id and its metadata. */
export interface PresenceMeta {
  /** `<node>/<client id>`, the id `server.cluster.send` takes. */
  readonly ref: string
  readonly meta: unknown
}

/** Every key present in a topic, with its connections (at least one each). */
export type PresenceList = Readonly<Record<string, { readonly metas: readonly PresenceMeta[] }>>

/** The cluster-wide id of an entry's connection. */
export const presenceRef = (node: string, entry: PresenceEntry): string => `${node}/${entry.conn}`

/**
 * Groups the entries of every node's state by key (nodes in the order given, then entries in
 * the order they joined).
 *
 * @example
 * listPresence([['a', { clock: { epoch: 1, n: 1 }, entries: new Map([['1 ada', { key: 'ada', conn: 1, meta: { on: 'phone' } }]]) }]])
 * // { ada: { metas: [{ ref: 'a/1', meta: { on: 'phone' } }] } }
 */
export const listPresence = (states: Iterable<readonly [string, NodeState]>): PresenceList => {
  const list: Record<string, { metas: PresenceMeta[] }> = {}
  for (const [node, state] of states) {
    for (const entry of state.entries.values()) {
      const metas = (list[entry.key] ??= { metas: [] }).metas
      metas.push({ ref: presenceRef(node, entry), meta: entry.meta })
    }
  }
  return list
}
