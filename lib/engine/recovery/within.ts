/**
 * `within`: a promise bounded in time by the engine's timers (a store that does not answer
 * must not hold a client's upgrade). Must not import `node:*`, Buffer or process.
 */
import type { Timers } from '../platform.js'

/**
 * Resolves with `fallback()` (or rejects with what it throws) when `work` has not settled
 * within `ms`; otherwise settles as `work`.
 *
 * @example
 * await within(timers, 100, new Promise(() => {}), () => 'late') // 'late'
 */
export const within = <A>(timers: Timers, ms: number, work: Promise<A>, fallback: () => A): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const timer = timers.setTimeout(() => {
      try {
        resolve(fallback())
      } catch (error) {
        reject(error)
      }
    }, ms)
    work.then(
      (value) => {
        timers.clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        timers.clearTimeout(timer)
        reject(error)
      },
    )
  })

