/**
 * `PendingRequests`: the requests of one client waiting for their answers, queued or sent:
 * their ids, one time-out timer for them all, and how each is settled (answered, failed,
 * taken out of the offline queue). Part of `connect`.
 *
 * A class with private fields, not a record of closures: its state minifies to nothing in a
 * browser bundle. Portable like the core: imports nothing at run time from outside this
 * folder; time comes from the client's clock.
 */
import type { EventId } from '../core/ws/event.js'
import type { Clock } from './clock.js'
import type { ClientProblem } from './client-problem.js'
import { RequestError, type RequestFailure } from './request-error.js'

/**
 * A request waiting for its answer, queued or sent. No closures of its own unless it has a
 * signal: thousands of these are made per second.
 */
export interface Pending {
  readonly id: number
  readonly event: string
  text: string
  readonly resend: boolean
  sent: boolean
  /** When it times out (clock ms); `Infinity` for never. */
  due: number
  /** The time-out in ms, for the failure. */
  readonly ms: number
  readonly resolve: (data: never) => void
  readonly reject: (error: RequestError) => void
  readonly signal: AbortSignal | undefined
  onAbort: (() => void) | undefined
}

/** How requests fail once their link closed (for good, or for those that may not be sent again). */
export type Closed = RequestFailure & { readonly _tag: 'Closed' }

/** What the offline queue holds: an emit's text or a request not yet sent. */
export type Queued = string | Pending

/**
 * The pending requests of one client by id (a Map, oldest first, that may lose entries while
 * it is walked), sharing its offline `queue` (a settled request leaves
 * it) and reporting answers to no request through `report`.
 *
 * @example
 * const requests = new PendingRequests(clock, queue, report)
 * requests.add(p) // then requests.answer(p.id, data) resolves it
 */
export class PendingRequests extends Map<number, Pending> {
  /** The id of the next request; every id below it was a request. */
  nextId = 1
  readonly #clock: Clock
  readonly #queue: Queued[]
  readonly #report: (problem: ClientProblem) => void
  // Time-outs: not a timer per request (armed and cleared thousands of times a second) but
  // one, for the earliest deadline; its sweep fails what is due and arms the next. It is not
  // stopped when requests are answered: it wakes once more, finds nothing due, arms nothing.
  // A deadline later than the armed one costs nothing.
  #sweepAt = Infinity
  #sweepTimer: unknown

  constructor(clock: Clock, queue: Queued[], report: (problem: ClientProblem) => void) {
    super()
    this.#clock = clock
    this.#queue = queue
    this.#report = report
  }

  /** Counts `p` pending, and arms its time-out unless it has none (or fails at once). */
  add(p: Pending, failure: RequestFailure | undefined): void {
    this.set(p.id, p)
    if (failure) return this.fail(p, failure)
    const { ms } = p
    if (ms > 0 && ms < 2 ** 31) this.#arm((p.due = this.#clock.now() + ms))
    const { signal } = p
    if (signal) {
      p.onAbort = () => this.fail(p, { _tag: 'Aborted', reason: signal.reason })
      signal.addEventListener('abort', p.onAbort)
    }
  }

  /** Takes a request out of every list; answers whether it was still pending. */
  settle(p: Pending): boolean {
    if (!this.delete(p.id)) return false
    // A listener of `undefined` (failed before it was added) is ignored.
    p.signal?.removeEventListener('abort', p.onAbort as () => void)
    const at = this.#queue.indexOf(p)
    if (at >= 0) this.#queue.splice(at, 1)
    return true
  }

  /** Rejects `p` with `failure`, if it is still pending. */
  fail(p: Pending, failure: RequestFailure): void {
    if (this.settle(p)) p.reject(new RequestError(p.event, p.id, failure))
  }

  /**
   * An ack (no `failure`) or an error event answers its request; one that answers none is
   * reported, unless it is late news about a request already settled.
   */
  answer(id: EventId | undefined, data: unknown, failure?: RequestFailure & { readonly _tag: 'ServerError' }): void {
    const p = this.get(id as number)
    if (p) {
      if (failure) this.fail(p, failure)
      else if (this.settle(p)) p.resolve(data as never)
      // Every id below `nextId` was a request, so one not pending was settled: a late answer
      // to it (after a time-out, an abort, or a replay) is dropped quietly, however old.
    } else if (!(Number.isSafeInteger(id) && (id as number) > 0 && (id as number) < this.nextId)) {
      this.#report(
        !failure
          ? { _tag: 'UnknownAck', id: id as EventId, message: `ack for unknown id ${JSON.stringify(id)}` }
          : { ...failure, ...(id !== undefined && { id }), message: `server error ${failure.code}: ${failure.message}` },
      )
    }
  }

  /**
   * Fails with `closed` every pending request (`all`, and the time-out timer stops), or those
   * sent that may not be sent again.
   */
  close(closed: Closed, all?: boolean): void {
    if (all) this.#clock.clearTimeout(this.#sweepTimer)
    for (const p of this.values()) if (all || (p.sent && !p.resend)) this.fail(p, closed)
  }

  #arm(due: number): void {
    if (due >= this.#sweepAt) return
    const clock = this.#clock
    clock.clearTimeout(this.#sweepTimer)
    this.#sweepAt = due
    // Always in the future: a new deadline is now + a time-out, and one the sweep hands on is
    // not yet due (a timer that fired a little early is armed again for the rest).
    this.#sweepTimer = clock.setTimeout(this.#sweep, due - clock.now())
  }

  readonly #sweep = (): void => {
    const now = this.#clock.now()
    let next = (this.#sweepAt = Infinity)
    for (const p of this.values()) {
      if (p.due <= now) this.fail(p, { _tag: 'Timeout', ms: p.ms })
      else if (p.due < next) next = p.due
    }
    this.#arm(next)
  }
}
