/**
 * Presence as data (issue 28): who is in a topic, keyed (a user id), with metadata, one entry
 * per connection of a key. Every node owns its own entries and is the only writer of them;
 * the others hold a copy of each node's state stamped with that node's clock, so merging is
 * per node and the latest clock wins (a CRDT of per-writer registers). Changes travel as
 * deltas from one clock to the next, or as a whole node state when a node must catch up.
 * Types and a few constructors only; pure and portable (no `node:*`, no clock).
 */

/** One connection of a key in a topic, on the node that owns it. */
export interface PresenceEntry {
  /** What the connections are grouped by: a user id, a device id. */
  readonly key: string
  /** The connection (a client id of the owning node). */
  readonly conn: number
  /** The application's metadata of this connection (JSON data). */
  readonly meta: unknown
}

/**
 * A node's clock: `epoch` changes when the node (re)starts its presence (the time it did, in
 * ms), `n` counts its changes within the epoch. Later epoch wins, then higher `n`.
 */
export interface NodeClock {
  readonly epoch: number
  readonly n: number
}

/** What one node has in a topic, as of its clock. Entries by `entryRef(conn, key)`. */
export interface NodeState {
  readonly clock: NodeClock
  readonly entries: ReadonlyMap<string, PresenceEntry>
}

/** A node's changes between two of its clocks (`base` is the clock they apply to). */
export interface PresenceDelta {
  readonly base: NodeClock
  readonly clock: NodeClock
  readonly joins: readonly PresenceEntry[]
  /** The entries that left (their `meta` as it was). */
  readonly leaves: readonly PresenceEntry[]
}

/** A node's whole state in a topic, as it travels (entries as an array). */
export interface NodeSnapshot {
  readonly clock: NodeClock
  readonly entries: readonly PresenceEntry[]
}

/** The entries that joined and left between two states of one node. */
export interface EntryChanges {
  readonly joins: readonly PresenceEntry[]
  readonly leaves: readonly PresenceEntry[]
}

/** The clock of a node that has said nothing yet. */
export const ZERO_CLOCK: NodeClock = Object.freeze({ epoch: 0, n: 0 })

/**
 * The name of an entry in its node's state: one per connection and key.
 *
 * @example
 * entryRef(7, 'ada') // '7 ada'
 */
export const entryRef = (conn: number, key: string): string => `${conn} ${key}`

/** Orders two clocks: negative when `a` is older, 0 when equal, positive when newer. */
export const compareClocks = (a: NodeClock, b: NodeClock): number => (a.epoch !== b.epoch ? a.epoch - b.epoch : a.n - b.n)

/** A node state as it travels. */
export const snapshotOf = (state: NodeState): NodeSnapshot => ({ clock: state.clock, entries: [...state.entries.values()] })
