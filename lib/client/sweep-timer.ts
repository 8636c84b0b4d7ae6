/**
 * `sweepTimer`: one timer for many deadlines. Request time-outs are rarely reached, so
 * instead of a timer per request (armed and cleared on every request) the client keeps each
 * request's deadline beside it and arms one timer for the earliest; when it fires, a sweep
 * fails what is due and names the next deadline. Under a steady load with the same time-out
 * this is one timer and one sweep per time-out period, however many requests pass.
 *
 * Portable: time comes from the client's `Clock`.
 */
import type { Clock } from './clock.js'

/** The timer of a set of deadlines kept by its owner. */
export interface SweepTimer {
  /** Makes sure the timer fires no later than `deadline` (clock ms). */
  arm(deadline: number): void
  /** Cancels the timer (nothing is left to watch). */
  stop(): void
}

/**
 * A timer that calls `sweep(now)` once the earliest armed deadline has come; `sweep` settles
 * what is due and answers the earliest deadline left (`Infinity` for none), which is armed next.
 * A deadline later than the one armed costs nothing: the sweep finds it.
 *
 * @example
 * const due: number[] = [clock.now() + 100, clock.now() + 250]
 * const timer = sweepTimer(clock, (now) => {
 *   for (const d of due.splice(0)) if (d > now) due.push(d)
 *   return Math.min(...due)
 * })
 * for (const d of due) timer.arm(d) // one timer, at +100; after it, one at +250
 */
export const sweepTimer = (clock: Clock, sweep: (now: number) => number): SweepTimer => {
  let handle: unknown
  let armed = Infinity
  const stop = (): void => {
    clock.clearTimeout(handle)
    armed = Infinity
  }
  const fire = (): void => {
    armed = Infinity
    arm(sweep(clock.now()))
  }
  const arm = (deadline: number): void => {
    if (deadline >= armed) return
    stop()
    armed = deadline
    // A timer may fire a little before the clock reaches its time: the sweep then finds the
    // deadline not yet due and arms it again, at least 1 ms on.
    handle = clock.setTimeout(fire, Math.max(1, deadline - clock.now()))
  }
  return { arm, stop }
}
