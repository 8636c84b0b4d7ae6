/**
 * `PresenceTopic`: one topic's presence on one node. This node's own entries change at once
 * (`track`, `untrack`, a client gone) and are published once per turn as one delta with the
 * next node clock: subscribers here and on every other node get the same diff, in the same
 * order. The other nodes' states are copies, changed by their deltas and snapshots
 * (`applyDelta`, `mergeSnapshot` of lib/core/presence/) and dropped when a node dies.
 * Must not import `node:*`, Buffer or process.
 */
import { applyDelta } from '../../core/presence/apply-delta.js'
import { listPresence, type PresenceList, type PresenceMeta, presenceRef } from '../../core/presence/list-presence.js'
import { mergeSnapshot } from '../../core/presence/merge-snapshot.js'
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
  private scheduled = false

  constructor(
    readonly topic: string,
    private readonly link: TopicLink,
    /** When this node's presence started (ms): the epoch of its clock. */
    epoch: number,
  ) {
    this.published = { clock: { epoch, n: 0 }, entries: new Map() }
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

  /** Another node's delta: applied in order; a gap asks that node for its whole state. */
  deltaFrom(node: string, delta: PresenceDelta): void {
    const outcome = applyDelta(this.others.get(node), delta)
    if (outcome._tag === 'Applied') {
      this.others.set(node, outcome.state)
      this.deliver(node, outcome)
    } else if (outcome._tag === 'Gap') {
      void this.link.fetch(this.topic, node).then(({ snapshots }) => {
        for (const s of snapshots) this.snapshotFrom(s.node, s.snapshot)
      })
    }
  }

  /** Another node's whole state: merged when newer than the copy held. */
  snapshotFrom(node: string, snapshot: NodeSnapshot): void {
    if (node === this.link.nodeId) return
    const merged = mergeSnapshot(this.others.get(node), snapshot)
    if (merged === undefined) return
    this.others.set(node, merged.state)
    this.deliver(node, merged)
  }

  /** A node died (or left): its entries leave. */
  dropNode(node: string): void {
    const state = this.others.get(node)
    if (state === undefined) return
    this.others.delete(node)
    this.deliver(node, { joins: [], leaves: [...state.entries.values()] })
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
