/**
 * `BroadcastSlices`: the queue of large broadcasts delivered a slice at a time (issue 31). A
 * broadcast to more than `BROADCAST_SLICE` receivers, or any broadcast while another is still
 * being delivered, joins the queue; each slice writes to at most `BROADCAST_SLICE` receivers,
 * the oldest broadcast first, and the next slice runs after the I/O that came meanwhile
 * (`afterIo`), so no broadcast holds the event loop for more than one slice and a broadcast
 * started during another keeps its place behind it. The receivers are read through a live
 * iterator (a room's member set, the client table): a client that joins before its turn gets
 * the message, one that leaves before it does not.
 *
 * A slice is bounded by time as well as by count: given a clock, it ends at the first check
 * (every `BROADCAST_CHECK_EVERY` receivers) past `BROADCAST_SLICE_MS`. A write's cost is the
 * kernel's and the machine's: 512 of them took 35 ms on a loaded 2-core box (~70 µs each, issue
 * 31's harness), which held the event loop p99 44 ms during a broadcast to 10,000.
 *
 * Each broadcast of the queue has a number (`seq`); a connection remembers the last one it
 * got (delivery's `Outlet.lastBroadcast`), so one reached early (a direct write to it caught it
 * up first, delivery's `catchUp`) is not written twice. Must not import `node:*`, Buffer or process.
 */
import type { BroadcastTarget } from '../../core/route/socket-context.js'
import type { FrameSource } from '../recovery/client-session.js'

/**
 * Receivers written in one slice, and the largest broadcast written at once when none is
 * queued: at the ~23 µs per receiver of a Node write to a real socket (issue 31), about 12 ms.
 */
export const BROADCAST_SLICE = 512

/** The longest a slice writes, in milliseconds of the engine's clock, before it yields to I/O. */
export const BROADCAST_SLICE_MS = 4

/** Receivers written between two reads of the clock in a slice (a clock read costs ~0.2 µs here). */
export const BROADCAST_CHECK_EVERY = 16

/** One queued broadcast: what it sends and to whom, and how far it got. */
export interface SlicedBroadcast {
  /** Its place in the queue, from 1 (compared with `Outlet.lastBroadcast`). */
  readonly seq: number
  readonly bytes: Uint8Array
  readonly target: BroadcastTarget | undefined
  readonly text: string | undefined
  readonly source: FrameSource | undefined
  /** The receivers not reached yet (a live iterator over the target's members, never closed by a `break`). */
  readonly receivers: IterableIterator<number>
}

// An iterator a `for…of` can leave and come back to: the built-in ones of Set, Map and Array
// have no `return`; a generator's is hidden (a `break` would end it).
const resumable = (receivers: Iterable<number>): IterableIterator<number> => {
  const iterator = receivers[Symbol.iterator]() as IterableIterator<number>
  if (iterator.return === undefined) return iterator
  const next = iterator.next.bind(iterator)
  return { next, [Symbol.iterator]() { return this } }
}

export class BroadcastSlices {
  /** The broadcasts not delivered to the end yet, oldest first (read by delivery's catch-up). */
  readonly pending: SlicedBroadcast[] = []
  private seq = 0
  private scheduled = false
  private readonly next = (): void => {
    this.scheduled = false
    this.slice()
  }

  constructor(
    /** Receivers per slice (`BROADCAST_SLICE`). */
    readonly size: number,
    private readonly afterIo: (run: () => void) => void,
    /** Writes `job` to client `id` (delivery: unless it got it already). */
    private readonly deliver: (id: number, job: SlicedBroadcast) => void,
    /** The clock a slice's time is read from (ms); absent: slices bounded by count only. */
    private readonly now?: () => number,
    /** The longest a slice writes (`BROADCAST_SLICE_MS`). */
    readonly budgetMs: number = BROADCAST_SLICE_MS,
    /**
     * Writes what `deliver` collected (delivery's shared write): called before each read of the
     * clock, so the time a slice reads includes its writes, and at the slice's end.
     */
    private readonly flush?: () => void,
  ) {}

  /**
   * Queues a broadcast behind the pending ones. When it is the only one, its first slice is
   * written now; the rest follow a slice per turn.
   */
  add(bytes: Uint8Array, target: BroadcastTarget | undefined, text: string | undefined, source: FrameSource | undefined, receivers: Iterable<number>): void {
    this.seq += 1
    this.pending.push({ seq: this.seq, bytes, target, text, source, receivers: resumable(receivers) })
    if (this.pending.length === 1) this.slice()
  }

  // One slice: up to `size` receivers, across the queue's broadcasts in order, and no longer
  // than `budgetMs` (a `for…of` over the live iterator, left with `break` and resumed by the
  // next slice: no result object per receiver).
  private slice(): void {
    const pending = this.pending
    const now = this.now
    const until = now === undefined ? Number.POSITIVE_INFINITY : now() + this.budgetMs
    let budget = this.size
    let check = BROADCAST_CHECK_EVERY
    while (budget > 0 && pending.length > 0) {
      const job = pending[0] as SlicedBroadcast
      const except = job.target?.except
      let done = true
      for (const id of job.receivers) {
        if (id !== except) this.deliver(id, job)
        if (--check === 0) {
          check = BROADCAST_CHECK_EVERY
          this.flush?.()
          if (now !== undefined && now() >= until) budget = 1
        }
        if (--budget === 0) {
          done = false
          break
        }
      }
      if (done) pending.shift()
    }
    this.flush?.()
    if (pending.length > 0 && !this.scheduled) {
      this.scheduled = true
      this.afterIo(this.next)
    }
  }
}
