/**
 * `PresenceTopic`: one topic's presence on one node. This node's own entries change at once
 * (`track`, `untrack`, a client gone) and are published once per turn as one delta with the
 * next node clock: subscribers here and on every other node get the same diff, in the same
 * order. The other nodes' states are copies, changed by their deltas and snapshots
 * (`applyDelta`, `mergeSnapshot` of lib/core/presence/) and dropped when a node dies.
 * A copy that falls behind (a delta lost, a fetch of the node's state timed out or lost, a
 * node back after an outage) catches up (catch-up.ts): a gap in the deltas or a digest
 * announcing a later clock (`clockFrom`, `readClock`) fetches the node's state.
 * Must not import `node:*`, Buffer or process.
 */
import { applyDelta, changeEntries, fitDelta } from '../../core/presence/apply-delta.js'
import { listPresence, type PresenceList, type PresenceMeta, presenceRef } from '../../core/presence/list-presence.js'
import { mergeSnapshot } from '../../core/presence/merge-snapshot.js'
import { readClock } from '../../core/presence/read-clock.js'
import { CatchUp } from './catch-up.js'
import { type EntryChanges, entryRef, type NodeClock, type NodeSnapshot, type NodeState, type PresenceDelta, type PresenceEntry, snapshotOf } from '../../core/presence/presence-state.js'
import type { Presence, PresenceChange, PresenceDiff, PresenceListener } from '../../core/presence/presence.js'

/** What a topic needs of its hub (presence-hub.ts). */
export interface TopicLink {
  readonly nodeId: string
  /** Whether this node has client `clientId` (WebSocket or event stream). */
  readonly isClient: (clientId: number) => boolean
  /** Runs `run` once the current turn's I/O is done (the platform's `afterIo`). */
  readonly later: (run: () => void) => void
  /** Sends this node's delta to the other nodes. */
  readonly publish: (topic: string, delta: PresenceDelta) => void
  /** Asks one node (or every other node) for its state; answers the snapshots and the live nodes that did not answer. */
  readonly fetch: (topic: string, node?: string, timeoutMs?: number) => Promise<{ readonly snapshots: readonly { readonly node: string; readonly snapshot: NodeSnapshot }[]; readonly missingNodes: readonly string[] }>
  /** A diff for this node's room members (the `event` option), when there is one. */
  readonly toRoom: ((topic: string, diff: PresenceDiff) => void) | undefined
  /** A subscriber threw: logged, the others still run. */
  readonly onError: (error: unknown) => void
  /** Runs `run` in `ms` (the platform's timers); answers a function that cancels it. */
  readonly after: (ms: number, run: () => void) => () => void
}

export class PresenceTopic implements Presence {
  /** This node's entries now. */
  private readonly own = new Map<string, PresenceEntry>()
  /** This node's entries as of `clock` (what the others have, once the delta is through). */
  private published: NodeState
  /** The refs changed since the last delta. */
  private readonly dirty = new Set<string>()
  /** The keys each local client is tracked under. */
  private readonly byClient = new Map<number, Set<string>>()
  /** The other nodes' states. */
  private readonly others = new Map<string, NodeState>()
  /** Connections per key, on every node. */
  private readonly counts = new Map<string, number>()
  private readonly listeners = new Set<PresenceListener>()
  /** What was heard from each other node, and the fetches of their states. */
  private readonly catchUp: CatchUp
  private scheduled = false
  private closed = false

  constructor(
    readonly topic: string,
    private readonly link: TopicLink,
    /** When this node's presence started (ms): the epoch of its clock. */
    epoch: number,
  ) {
    this.published = { clock: { epoch, n: 0 }, entries: new Map() }
    this.catchUp = new CatchUp({
      copyOf: (node) => this.others.get(node),
      changed: (node, state, changes) => {
        this.others.set(node, state)
        this.deliver(node, changes)
      },
      fetch: (node) => link.fetch(topic, node),
      merge: (node, snapshot) => this.snapshotFrom(node, snapshot),
      after: link.after,
    })
  }

  track(clientId: number, key: string, meta: unknown = {}): boolean {
    if (!this.link.isClient(clientId)) return false
    const keys = this.byClient.get(clientId) ?? new Set<string>()
    this.byClient.set(clientId, keys)
    keys.add(key)
    const ref = entryRef(clientId, key)
    this.own.set(ref, { key, conn: clientId, meta })
    this.changed(ref)
    return true
  }

  untrack(clientId: number, key?: string): boolean {
    const keys = this.byClient.get(clientId)
    if (keys === undefined) return false
    const gone = key === undefined ? [...keys] : keys.has(key) ? [key] : []
    for (const k of gone) {
      keys.delete(k)
      const ref = entryRef(clientId, k)
      this.own.delete(ref)
      this.changed(ref)
    }
    if (keys.size === 0) this.byClient.delete(clientId)
    return gone.length > 0
  }

  list(): PresenceList {
    return listPresence(this.states())
  }

  get(key: string): readonly PresenceMeta[] {
    if (!this.counts.has(key)) return []
    const metas: PresenceMeta[] = []
    for (const [node, state] of this.states()) {
      for (const entry of state.entries.values()) if (entry.key === key) metas.push({ ref: presenceRef(node, entry), meta: entry.meta })
    }
    return metas
  }

  count(): number {
    return this.counts.size
  }

  subscribe(listener: PresenceListener): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  async sync(options?: { readonly timeoutMs?: number }): Promise<{ readonly missingNodes: readonly string[] }> {
    const { snapshots, missingNodes } = await this.link.fetch(this.topic, undefined, options?.timeoutMs)
    for (const { node, snapshot } of snapshots) this.snapshotFrom(node, snapshot)
    return { missingNodes }
  }

  /** This node's state as of its clock, for a node that asks. */
  snapshot(): NodeSnapshot {
    return snapshotOf(this.published)
  }

  /** This node's clock (what its digest announces). */
  get clock(): NodeClock {
    return this.published.clock
  }

  /** Another node's delta: applied in order; a gap keeps it and fetches that node's whole state. */
  deltaFrom(node: string, delta: PresenceDelta): void {
    if (node === this.link.nodeId) return
    this.catchUp.heard(node, delta.clock)
    const held = this.others.get(node)
    const fit = fitDelta(held, delta)
    if (held !== undefined && fit._tag === 'Fits' && !fit.fresh) {
      // The copy is this topic's own (made by a merge, a first delta or a copy): changed in
      // place, not copied whole per change (O(changes), not O(entries of the node)).
      const changes = changeEntries(held.entries as Map<string, PresenceEntry>, delta)
      this.others.set(node, { clock: delta.clock, entries: held.entries })
      this.deliver(node, changes)
      return
    }
    const outcome = applyDelta(held, delta)
    if (outcome._tag === 'Applied') {
      this.others.set(node, outcome.state)
      this.deliver(node, outcome)
    } else if (outcome._tag === 'Gap') this.catchUp.gap(node, delta)
  }

  /**
   * Another node's word of its own clock (its digest): a copy behind it fetches the node's
   * state; a later epoch with no change empties it; an earlier epoch (the node started again
   * with its clock set back) drops it first.
   */
  clockFrom(node: string, clock: NodeClock): void {
    if (node === this.link.nodeId) return
    const reading = readClock(this.others.get(node), clock)
    switch (reading._tag) {
      case 'Current':
        return
      case 'Restarted':
        this.dropNode(node)
        return this.clockFrom(node, clock)
      case 'Empty':
        return this.snapshotFrom(node, { clock, entries: [] })
      case 'Behind':
        return this.catchUp.behind(node, clock)
    }
  }

  /** Another node's whole state: merged when newer than the copy held, then its waiting deltas on top. */
  snapshotFrom(node: string, snapshot: NodeSnapshot): void {
    if (node === this.link.nodeId || this.closed) return
    this.catchUp.heard(node, snapshot.clock)
    const merged = mergeSnapshot(this.others.get(node), snapshot)
    if (merged !== undefined) {
      this.others.set(node, merged.state)
      this.deliver(node, merged)
    }
    this.catchUp.merged(node)
  }

  /** A node died (or left): its entries leave, and catching up with it stops. */
  dropNode(node: string): void {
    this.catchUp.forget(node)
    const state = this.others.get(node)
    if (state === undefined) return
    this.others.delete(node)
    this.deliver(node, { joins: [], leaves: [...state.entries.values()] })
  }

  /** The server is closing: no more fetches or retries. */
  close(): void {
    this.closed = true
    this.catchUp.close()
  }

  /** A local client is gone for good. */
  clientGone(clientId: number): void {
    this.untrack(clientId)
  }

  /** Whether the topic holds nothing and nobody listens (the hub may forget it). */
  get idle(): boolean {
    return this.counts.size === 0 && this.listeners.size === 0 && this.dirty.size === 0
  }

  private *states(): Iterable<readonly [string, NodeState]> {
    yield [this.link.nodeId, this.published]
    yield* this.others
  }

  private changed(ref: string): void {
    this.dirty.add(ref)
    if (this.scheduled) return
    this.scheduled = true
    this.link.later(() => this.flush())
  }

  // The turn's changes as one delta: the next clock, published, then delivered here.
  private flush(): void {
    this.scheduled = false
    const entries = this.published.entries as Map<string, PresenceEntry>
    const joins: PresenceEntry[] = []
    const leaves: PresenceEntry[] = []
    for (const ref of this.dirty) {
      const before = entries.get(ref)
      const now = this.own.get(ref)
      if (before === now) continue
      if (before !== undefined) {
        leaves.push(before)
        entries.delete(ref)
      }
      if (now !== undefined) {
        joins.push(now)
        entries.set(ref, now)
      }
    }
    this.dirty.clear()
    if (joins.length === 0 && leaves.length === 0) return
    const base: NodeClock = this.published.clock
    const clock: NodeClock = { epoch: base.epoch, n: base.n + 1 }
    this.published = { clock, entries }
    this.link.publish(this.topic, { base, clock, joins, leaves })
    this.deliver(this.link.nodeId, { joins, leaves })
  }

  // One node's changes to the key counts, the subscribers and the room.
  private deliver(node: string, changes: EntryChanges): void {
    const before = new Map<string, number>()
    const touch = (key: string, by: number): void => {
      const count = this.counts.get(key) ?? 0
      if (!before.has(key)) before.set(key, count)
      if (count + by === 0) this.counts.delete(key)
      else this.counts.set(key, count + by)
    }
    for (const entry of changes.leaves) touch(entry.key, -1)
    for (const entry of changes.joins) touch(entry.key, 1)
    const joined: string[] = []
    const left: string[] = []
    for (const [key, was] of before) {
      const now = this.counts.get(key) ?? 0
      if (was === 0 && now > 0) joined.push(key)
      else if (was > 0 && now === 0) left.push(key)
    }
    const change = (entry: PresenceEntry): PresenceChange => ({ key: entry.key, ref: presenceRef(node, entry), meta: entry.meta })
    const diff: PresenceDiff = { joins: changes.joins.map(change), leaves: changes.leaves.map(change), joined, left }
    for (const listener of this.listeners) {
      try {
        listener(diff)
      } catch (error) {
        this.link.onError(error)
      }
    }
    this.link.toRoom?.(this.topic, diff)
  }
}
