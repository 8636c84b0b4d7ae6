/**
 * `applyDelta`: one node's changes applied to the copy another node holds of its state. A
 * delta applies only to the clock it was made from: an older one was applied already (or
 * superseded by a whole state), and one that starts past the copy's clock means changes were
 * missed, so the holder asks that node for its whole state (`mergeSnapshot`) instead of
 * guessing. Pure: the state given is not changed. No `node:*`, no clock.
 */
import { compareClocks, type EntryChanges, entryRef, type NodeState, type PresenceDelta, type PresenceEntry, ZERO_CLOCK } from './presence-state.js'

/** What applying a delta did: the new state and its changes, nothing (`Stale`), or a `Gap`. */
export type DeltaOutcome =
  | ({ readonly _tag: 'Applied'; readonly state: NodeState } & EntryChanges)
  | { readonly _tag: 'Stale' }
  | { readonly _tag: 'Gap' }

/** Whether a delta fits a copy: already had (`Stale`), changes missed (`Gap`), or it `Fits` (`fresh`: the first of a later epoch, which replaces the copy). */
export type DeltaFit = { readonly _tag: 'Stale' } | { readonly _tag: 'Gap' } | { readonly _tag: 'Fits'; readonly fresh: boolean }

/**
 * Reads `delta` against `state` without applying it: what `applyDelta` would do. The engine
 * applies a delta that fits a non-fresh copy it owns in place (no copy of the node's whole
 * state per change).
 *
 * @example
 * const delta = { base: { epoch: 5, n: 1 }, clock: { epoch: 5, n: 2 }, joins: [], leaves: [] }
 * fitDelta({ clock: { epoch: 5, n: 1 }, entries: new Map() }, delta) // { _tag: 'Fits', fresh: false }
 * fitDelta({ clock: { epoch: 5, n: 0 }, entries: new Map() }, delta)._tag // 'Gap'
 */
export const fitDelta = (state: NodeState | undefined, delta: PresenceDelta): DeltaFit => {
  const current = state?.clock ?? ZERO_CLOCK
  if (compareClocks(delta.clock, current) <= 0) return { _tag: 'Stale' }
  // A node's first delta of an epoch starts from n = 0 of it: nothing to have missed.
  const fresh = delta.base.n === 0 && delta.base.epoch === delta.clock.epoch && delta.base.epoch > current.epoch
  if (!fresh && compareClocks(delta.base, current) !== 0) return { _tag: 'Gap' }
  return { _tag: 'Fits', fresh }
}

/**
 * Applies `delta` to `state` (`undefined`: nothing known of the node yet).
 *
 * @example
 * const delta = { base: { epoch: 5, n: 0 }, clock: { epoch: 5, n: 1 }, joins: [{ key: 'ada', conn: 1, meta: {} }], leaves: [] }
 * applyDelta(undefined, delta)._tag // 'Gap' (epoch 5 from nothing: ask for the state)
 * applyDelta({ clock: { epoch: 5, n: 0 }, entries: new Map() }, delta)._tag // 'Applied'
 */
export const applyDelta = (state: NodeState | undefined, delta: PresenceDelta): DeltaOutcome => {
  const fit = fitDelta(state, delta)
  if (fit._tag !== 'Fits') return fit
  const fresh = fit.fresh
  const entries = new Map(fresh ? [] : state?.entries ?? [])
  const changes = changeEntries(entries, delta)
  // A fresh epoch replaces the node's former entries: they all leave first.
  const leaves = fresh ? [...(state?.entries.values() ?? []), ...changes.leaves] : changes.leaves
  return { _tag: 'Applied', state: { clock: delta.clock, entries }, joins: changes.joins, leaves }
}

/**
 * Writes a delta's leaves and joins into `entries` and answers the entries that left and
 * joined. It changes the map given: only for a map its caller owns and has not shared (the
 * engine's copy of a node, after `fitDelta` said `Fits` and not fresh); `applyDelta` gives it a copy.
 *
 * @example
 * const entries = new Map([['1 ada', { key: 'ada', conn: 1, meta: {} }]])
 * changeEntries(entries, { base: { epoch: 5, n: 1 }, clock: { epoch: 5, n: 2 }, joins: [], leaves: [{ key: 'ada', conn: 1, meta: {} }] }).leaves.length // 1
 * entries.size // 0
 */
export const changeEntries = (entries: Map<string, PresenceEntry>, delta: PresenceDelta): EntryChanges => {
  const leaves: PresenceEntry[] = []
  const joins: PresenceEntry[] = []
  for (const gone of delta.leaves) {
    const ref = entryRef(gone.conn, gone.key)
    const had = entries.get(ref)
    if (had === undefined) continue
    entries.delete(ref)
    leaves.push(had)
  }
  for (const entry of delta.joins) {
    const ref = entryRef(entry.conn, entry.key)
    const had = entries.get(ref)
    if (had !== undefined) leaves.push(had) // a new meta for the same connection: leave, then join
    entries.set(ref, entry)
    joins.push(entry)
  }
  return { joins, leaves }
}
