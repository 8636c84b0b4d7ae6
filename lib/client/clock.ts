/**
 * Time as the client sees it: the current time and one-shot timers. The client takes a
 * clock as an option, so tests can drive reconnect delays, time-outs and liveness by hand.
 */

/** What the client needs of time. */
export interface Clock {
  /** Milliseconds since some fixed origin (only differences are used). */
  now(): number
  /** Calls `callback` once after `ms` milliseconds; the handle goes to `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown
  /** Cancels a timer; `undefined` or a spent handle is ignored. */
  clearTimeout(handle: unknown): void
}

/**
 * The runtime's own clock: `Date.now` and the global timers.
 *
 * @example
 * const t = systemClock.setTimeout(() => undefined, 10)
 * systemClock.clearTimeout(t)
 */
export const systemClock: Clock = {
  // `Date.now` ignores its receiver, so it can be called as a method of this object.
  now: Date.now,
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
}
