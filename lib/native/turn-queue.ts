/**
 * `createTurnQueue`: the engine's `afterIo` on the native transport. Work deferred while the
 * addon's `batch` runs (the metrics' one clock read per turn, the flush batcher's uncork, a
 * broadcast's turn end) waits in a list the addon has run by one `turnEnd` call once the
 * wake-up is done and its promise jobs and nextTicks have run: the contract `setImmediate`
 * keeps on node:net, without an `Immediate` per turn, the immediate queue's reference toggles
 * and a second pass through the loop's check phase. Work deferred anywhere else (a timer, an
 * `acceptFailed`, a binary without `turnEnd`) goes to `setImmediate` as before. Part of
 * lib/native: imports `node:timers` only.
 */
import { setImmediate } from 'node:timers'

/** The turn's deferred work, and the hooks `batch` and `turnEnd` call. */
export interface TurnQueue {
  /** The engine's `Timers.afterIo`. */
  readonly afterIo: (run: () => void) => void
  /** `batch` begins: deferred work joins this turn's list. */
  readonly open: () => void
  /**
   * `batch` ends: true when work waits (the addon calls `turnEnd` after the microtasks);
   * `failed` (the batch is about to rethrow a handler's error, so its answer is lost): the
   * work goes to `setImmediate` instead.
   */
  readonly close: (failed: boolean) => boolean
  /** Runs the turn's list (the addon's `turnEnd`); a throw is rethrown after the rest ran. */
  readonly run: () => void
}

/**
 * A turn queue; `turnEnds` false (a binary that never calls `turnEnd`) makes it
 * `setImmediate` throughout.
 *
 * @example
 * const turn = createTurnQueue(binding.turnEnds === true)
 * const timers = { ...nodeTimers, afterIo: turn.afterIo }
 * // batch: turn.open(); ...records...; return turn.close(false)
 * // turnEnd: turn.run()
 */
export const createTurnQueue = (turnEnds: boolean): TurnQueue => {
  let list: (() => void)[] = []
  // From a batch's start until `turnEnd` runs its list (or until the batch ends with none).
  let collecting = false
  const run = (): void => {
    collecting = false
    const work = list
    if (work.length === 0) return
    list = []
    let thrown: { error: unknown } | undefined
    for (const job of work) {
      try {
        job()
      } catch (error) {
        thrown ??= { error }
      }
    }
    if (thrown !== undefined) throw thrown.error
  }
  return {
    afterIo(job) {
      if (collecting) list.push(job)
      else setImmediate(job)
    },
    open() {
      collecting = turnEnds
    },
    close(failed) {
      if (list.length === 0) {
        collecting = false
        return false
      }
      if (!failed) return true
      collecting = false
      setImmediate(run)
      return false
    },
    run,
  }
}
