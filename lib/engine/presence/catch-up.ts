/**
 * `CatchUp`: how one topic's copies of the other nodes catch up with them. It keeps the newest
 * clock heard from each node (a delta, a snapshot, a digest); a copy older than that fetches
 * the node's state, one fetch at a time per node, retried with back-off (100 ms doubling to
 * 5 s) until the copy is current, the node leaves or the server closes; the node's deltas that
 * did not apply meanwhile (gaps) are kept and applied on top of the state once it is in.
 * The topic (presence-topic.ts) owns the copies. Must not import `node:*`, Buffer or process.
 */
import { applyDelta } from '../../core/presence/apply-delta.js'
import { compareClocks, type EntryChanges, type NodeClock, type NodeSnapshot, type NodeState, type PresenceDelta } from '../../core/presence/presence-state.js'

/** The first wait before fetching a node's state again (ms); it doubles per failure. */
export const CATCH_UP_RETRY_MS = 100
/** The longest wait between two fetches of a node's state (ms). */
export const CATCH_UP_RETRY_MAX_MS = 5_000
/** The most deltas of one node kept while its state is fetched (past it they are dropped: the fetch brings them). */
const MAX_WAITING = 1_000

/** What catching up needs of the topic. */
export interface CatchUpHost {
  /** The copy held of `node`. */
  readonly copyOf: (node: string) => NodeState | undefined
  /** Sets the copy of `node` and delivers what changed. */
  readonly changed: (node: string, state: NodeState, changes: EntryChanges) => void
  /** Asks `node` for its state in the topic. */
  readonly fetch: (node: string) => Promise<{ readonly snapshots: readonly { readonly node: string; readonly snapshot: NodeSnapshot }[] }>
  /** Merges a snapshot of `node` into its copy (`PresenceTopic.snapshotFrom`). */
  readonly merge: (node: string, snapshot: NodeSnapshot) => void
  /** Runs `run` in `ms`; answers a function that cancels it. */
  readonly after: (ms: number, run: () => void) => () => void
}

// Catching up with one other node.
interface Peer {
  /** The newest clock heard from the node. */
  heard: NodeClock
  /** A fetch of its state is on its way. */
  fetching: boolean
  /** Fetches in a row that left the copy behind. */
  failures: number
  /** Cancels the retry waiting, when one is. */
  retry: (() => void) | undefined
  /** Its deltas that did not apply (a gap), in the order they came. */
  waiting: PresenceDelta[]
}

export class CatchUp {
  private readonly peers = new Map<string, Peer>()
  private closed = false

  constructor(private readonly host: CatchUpHost) {}

  /** Something of `node` at `clock` was heard: the copy must reach it. */
  heard(node: string, clock: NodeClock): void {
    const peer = this.peers.get(node)
    if (peer === undefined) this.peers.set(node, { heard: clock, fetching: false, failures: 0, retry: undefined, waiting: [] })
    else if (compareClocks(clock, peer.heard) > 0) peer.heard = clock
  }

  /** A delta of `node` that did not apply (a gap): kept, and the node's state fetched. */
  gap(node: string, delta: PresenceDelta): void {
    this.heard(node, delta.clock)
    const peer = this.peers.get(node) as Peer
    if (peer.waiting.length >= MAX_WAITING) peer.waiting.length = 0
    peer.waiting.push(delta)
    this.fetch(node)
  }

  /** `node` announced `clock`, later than its copy: its state is fetched. */
  behind(node: string, clock: NodeClock): void {
    this.heard(node, clock)
    this.fetch(node)
  }

  /** The copy of `node` was merged with a snapshot: its kept deltas go on top, in order. */
  merged(node: string): void {
    const peer = this.peers.get(node)
    if (peer === undefined || peer.waiting.length === 0) return
    const waiting = peer.waiting.sort((a, b) => compareClocks(a.base, b.base))
    peer.waiting = []
    for (const delta of waiting) {
      const outcome = applyDelta(this.host.copyOf(node), delta)
      if (outcome._tag === 'Applied') this.host.changed(node, outcome.state, outcome)
      else if (outcome._tag === 'Gap') peer.waiting.push(delta)
    }
  }

  /** `node` left: no more fetches of it (one on its way is ignored). */
  forget(node: string): void {
    this.peers.get(node)?.retry?.()
    this.peers.delete(node)
  }

  /** The server is closing: no more fetches or retries. */
  close(): void {
    this.closed = true
    for (const node of [...this.peers.keys()]) this.forget(node)
  }

  // Whether the copy of the node is older than the newest clock heard from it.
  private isBehind(node: string, peer: Peer): boolean {
    const held = this.host.copyOf(node)
    return held === undefined ? peer.heard.n > 0 : compareClocks(peer.heard, held.clock) > 0
  }

  // Fetches the node's state unless a fetch is on its way or a retry waits; a copy still
  // behind once it is in (or not) waits and fetches again, twice as long each time.
  private fetch(node: string): void {
    const peer = this.peers.get(node)
    if (peer === undefined || peer.fetching || peer.retry !== undefined || this.closed) return
    peer.fetching = true
    void this.host.fetch(node).then(({ snapshots }) => {
      if (this.peers.get(node) !== peer) return // the node left (or the server closed) meanwhile
      peer.fetching = false
      for (const s of snapshots) if (s.node === node) this.host.merge(node, s.snapshot)
      if (!this.isBehind(node, peer)) {
        peer.failures = 0
        return
      }
      peer.failures += 1
      const wait = Math.min(CATCH_UP_RETRY_MS * 2 ** (peer.failures - 1), CATCH_UP_RETRY_MAX_MS)
      peer.retry = this.host.after(wait, () => {
        peer.retry = undefined
        this.fetch(node)
      })
    })
  }
}
