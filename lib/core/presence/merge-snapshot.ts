/**
 * `mergeSnapshot`: a node's whole state merged into the copy another node holds: the later
 * clock wins (each node is the only writer of its entries, so its latest state is the truth),
 * and the entries that joined and left between the two are the diff subscribers get. Merging
 * is commutative, associative and idempotent, so copies that saw the same states in any order
 * agree (spec/core/presence/presence.prop.spec.ts). Pure. No `node:*`, no clock.
 */
import { compareClocks, type EntryChanges, entryRef, type NodeSnapshot, type NodeState, type PresenceEntry } from './presence-state.js'

/** The merged state and what changed; `undefined` when the snapshot is not newer. */
export type MergeOutcome = ({ readonly state: NodeState } & EntryChanges) | undefined

/**
 * Merges `snapshot` into `state` (`undefined`: nothing known of the node yet).
 *
 * @example
 * const merged = mergeSnapshot(undefined, { clock: { epoch: 5, n: 2 }, entries: [{ key: 'ada', conn: 1, meta: { on: 'phone' } }] })
 * merged?.joins.map((e) => e.key) // ['ada']
 * mergeSnapshot(merged?.state, { clock: { epoch: 5, n: 1 }, entries: [] }) // undefined: older
 */
export const mergeSnapshot = (state: NodeState | undefined, snapshot: NodeSnapshot): MergeOutcome => {
  if (state !== undefined && compareClocks(snapshot.clock, state.clock) <= 0) return undefined
  const entries = new Map<string, PresenceEntry>()
  for (const entry of snapshot.entries) entries.set(entryRef(entry.conn, entry.key), entry)
  const joins: PresenceEntry[] = []
  const leaves: PresenceEntry[] = []
  const before = state?.entries
  if (before !== undefined) {
    for (const [ref, had] of before) {
      const now = entries.get(ref)
      if (now === undefined || !sameMeta(now.meta, had.meta)) leaves.push(had)
    }
  }
  for (const [ref, entry] of entries) {
    const had = before?.get(ref)
    if (had === undefined || !sameMeta(had.meta, entry.meta)) joins.push(entry)
  }
  return { state: { clock: snapshot.clock, entries }, joins, leaves }
}

// Metadata is JSON data: equal when its text is.
const sameMeta = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b)
