/**
 * The order of one target's broadcasts on a receiving node. Redis numbers each target's
 * broadcasts (epoch, 1, 2, 3, …) as it stores them in the target's stream; pub/sub brings
 * them in that order unless some were lost (a reconnect) or the node joined late. This
 * state machine says what to deliver now, what is a duplicate, and when a gap must be filled
 * from the stream (XRANGE), holding what comes meanwhile so nothing is delivered out of
 * order or twice. The first broadcast of a new epoch (a Redis Cluster failover) is such a
 * fill too: the old epoch may have more after the last place (check-target-tail.ts reads a
 * session's cursor the same way). Pure (no I/O); one instance per subscribed target.
 */
import { sequenceBefore as before } from '../core/cluster/sequence-before.js'
import type { Sequence } from '../core/cluster/cluster-message.js'

/** A message with its place. */
export interface Placed<T> {
  readonly seq: Sequence
  readonly item: T
}

/** What to do after an offer or a fill. */
export interface OrderStep<T> {
  /** Deliver these now, in this order. */
  readonly deliver: readonly T[]
  /** Start filling from the stream after this place (entries strictly after it). */
  readonly fillFrom?: Sequence
  /** Messages known to be gone (trimmed from the stream before they could be read). */
  readonly lost: number
  /** Offers dropped as duplicates or from an older epoch. */
  readonly dropped: number
  /**
   * The last place delivered in an epoch this step moved on from (a failover started a new
   * one): the caller compares it with where that epoch ended in Redis (`pe`, `pn`).
   */
  readonly left?: Sequence
}

const next = (last: Sequence | undefined, seq: Sequence): boolean =>
  last === undefined || (seq.epoch === last.epoch && seq.n === last.n + 1) || (seq.epoch > last.epoch && seq.n === 1)

export class ScopeOrder<T> {
  /** The last place delivered (or skipped as lost); undefined before the first message. */
  last: Sequence | undefined = undefined
  /** Filling from the stream: offers are held until `filled`. */
  filling = false
  private held: Placed<T>[] = []

  /** A message from pub/sub. */
  offer(seq: Sequence, item: T): OrderStep<T> {
    if (seq.n === 0) return { deliver: [item], lost: 0, dropped: 0 }
    if (this.filling) {
      this.held.push({ seq, item })
      return { deliver: [], lost: 0, dropped: 0 }
    }
    const last = this.last
    if (last !== undefined && !before(last, seq)) return { deliver: [], lost: 0, dropped: 1 }
    if (last === undefined || (seq.epoch === last.epoch && seq.n === last.n + 1)) {
      this.last = seq
      return { deliver: [item], lost: 0, dropped: 0 }
    }
    // A gap, or a new epoch (a failover): fill from the last place first. The stream runs
    // through the epochs in order, so that is the rest of the old epoch (what pub/sub did not
    // bring before the failover) and then the new epoch from its first broadcast. An old
    // epoch that ended behind the last place (a failover took back what was delivered) has
    // no rest: the adapter counts what it took back (`rolledBack`).
    this.filling = true
    this.held.push({ seq, item })
    return { deliver: [], fillFrom: last, lost: 0, dropped: 0 }
  }

  /** A fill is needed though nothing arrived (a reconnect): from the last place. */
  refill(): Sequence | undefined {
    if (this.filling || this.last === undefined) return undefined
    this.filling = true
    return this.last
  }

  /**
   * The stream's entries after the place filled from, in order (a fill that failed gives
   * none). Delivers them and what was held, in order, each once (a held message is usually
   * in the stream too); counts what is gone for good.
   */
  filled(entries: readonly Placed<T>[]): OrderStep<T> {
    const all = [...entries, ...this.held].sort((a, b) => (before(a.seq, b.seq) ? -1 : before(b.seq, a.seq) ? 1 : 0))
    this.held = []
    this.filling = false
    const deliver: T[] = []
    let lost = 0
    let left: Sequence | undefined
    for (const { seq, item } of all) {
      const last = this.last
      if (last !== undefined && !before(last, seq)) continue
      if (last !== undefined && !next(last, seq)) lost += seq.epoch === last.epoch ? seq.n - last.n - 1 : seq.n - 1
      if (last !== undefined && seq.epoch > last.epoch) left = last
      this.last = seq
      deliver.push(item)
    }
    return left === undefined ? { deliver, lost, dropped: 0 } : { deliver, lost, dropped: 0, left }
  }
}
