/**
 * `createPendingRequests`: the requests of one client waiting for their answers, queued or
 * sent: their ids, one time-out timer for them all, and how each is settled (answered,
 * failed, taken out of the offline queue). Part of `connect`.
 *
 * A closure whose functions come back as a tuple, not a record: in a browser bundle its
 * state and its parts minify to single letters (a record's property names would stay).
 * Portable like the core: imports nothing at run time from outside this folder; time comes
 * from the client's clock.
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
  /** Its listener of `signal`, once added. */
  onAbort?: () => void
}

/** How requests fail once their link closed (for good, or for those that may not be sent again). */
export type Closed = RequestFailure & { readonly _tag: 'Closed' }

/** What the offline queue holds: an emit's text or a request not yet sent. */
export type Queued = string | Pending

/**
 * The pending requests' parts:
 * - `pending`: the requests by id, oldest first (a Map may lose entries while it is walked);
 * - `nextId()`: the id of a new request (every id below the next was a request);
 * - `add(p, failure)`: counts `p` pending and arms its time-out and its signal, or fails it
 *   at once with `failure`;
 * - `fail(p, failure)`: rejects `p`, if still pending, and takes it out of the queue;
 * - `answer(id, data, error?)`: an ack, or an error event (`error`: the server's `data`
 *   becomes a `ServerError` failure), answers its request; one that answers none is
 *   reported, unless it is late news about a request already settled;
 * - `close(closed, all?)`: fails with `closed` every pending request (`all`, and the time-out
 *   timer stops), or those sent that may not be sent again.
 */
export type PendingRequests = readonly [
  pending: ReadonlyMap<number, Pending>,
  nextId: () => number,
  add: (p: Pending, failure: RequestFailure | undefined) => void,
  fail: (p: Pending, failure: RequestFailure) => void,
  answer: (id: EventId | undefined, data: unknown, error?: boolean) => void,
  close: (closed: Closed, all?: boolean) => void,
]

/**
 * The pending requests of one client, sharing its offline `queue` (a settled request leaves
 * it) and reporting answers to no request through `report`.
 *
 * @example
 * const [pending, nextId, add, fail, answer, close] = createPendingRequests(clock, queue, report)
 */
export const createPendingRequests = (clock: Clock, queue: Queued[], report: (problem: ClientProblem) => void): PendingRequests => {
  const pending = new Map<number, Pending>()
  let lastId = 0
  // Takes a request out of every list; answers whether it was still pending.
  const settle = (p: Pending): boolean => {
    if (!pending.delete(p.id)) return false
    // A listener of `undefined` (failed before it was added) is ignored.
    p.signal?.removeEventListener('abort', p.onAbort as () => void)
    const at = queue.indexOf(p)
    if (at >= 0) queue.splice(at, 1)
    return true
  }
  const fail = (p: Pending, failure: RequestFailure): void => {
    if (settle(p)) p.reject(new RequestError(p.event, p.id, failure))
  }

  // Time-outs: not a timer per request (armed and cleared thousands of times a second) but
  // one, for the earliest deadline; its sweep fails what is due and arms the next. It is not
  // stopped when requests are answered: it wakes once more, finds nothing due, arms nothing.
  // A deadline later than the armed one costs nothing.
  let sweepAt = Infinity
  let sweepTimer: unknown
  const arm = (due: number): void => {
    if (due >= sweepAt) return
    clock.clearTimeout(sweepTimer)
    sweepAt = due
    // Always in the future: a new deadline is now + a time-out, and one the sweep hands on is
    // not yet due (a timer that fired a little early is armed again for the rest).
    sweepTimer = clock.setTimeout(sweep, due - clock.now())
  }
  const sweep = (): void => {
    const now = clock.now()
    let next = (sweepAt = Infinity)
    for (const p of pending.values()) {
      if (p.due <= now) fail(p, { _tag: 'Timeout', ms: p.ms })
      else if (p.due < next) next = p.due
    }
    arm(next)
  }

  return [
    pending,
    () => ++lastId,
    (p, failure) => {
      pending.set(p.id, p)
      if (failure) return fail(p, failure)
      const { ms, signal } = p
      if (ms > 0 && ms < 2 ** 31) arm((p.due = clock.now() + ms))
      if (signal) {
        p.onAbort = () => fail(p, { _tag: 'Aborted', reason: signal.reason })
        signal.addEventListener('abort', p.onAbort)
      }
    },
    fail,
    (id, data, error) => {
      const d = (data ?? {}) as Record<string, unknown>
      const failure: (RequestFailure & { readonly _tag: 'ServerError' }) | undefined = error
        ? {
            _tag: 'ServerError',
            code: String(d['error'] ?? 'unknown'),
            message: String(d['message'] ?? ''),
            ...(d['details'] !== undefined && { details: d['details'] }),
          }
        : undefined
      const p = pending.get(id as number)
      if (p) {
        if (failure) fail(p, failure)
        else if (settle(p)) p.resolve(data as never)
        // Every id up to the last was a request, so one not pending was settled: a late
        // answer to it (after a time-out, an abort, or a replay) is dropped quietly, however old.
      } else if (!(Number.isSafeInteger(id) && (id as number) > 0 && (id as number) <= lastId)) {
        report(
          !failure
            ? { _tag: 'UnknownAck', id: id as EventId, message: `ack for unknown id ${JSON.stringify(id)}` }
            : { ...failure, ...(id !== undefined && { id }), message: `server error ${failure.code}: ${failure.message}` },
        )
      }
    },
    (closed, all) => {
      if (all) clock.clearTimeout(sweepTimer)
      for (const p of pending.values()) if (all || (p.sent && !p.resend)) fail(p, closed)
    },
  ]
}
