/**
 * Timers that run only when a spec says so (portable: Node, Bun, Deno): `advance(ms)` moves
 * the clock and runs every timer due on the way, in order; `io()` runs what waits for the end
 * of the I/O turn (`afterIo`), as the runtime would after reading. No real time passes, so a
 * spec of time-outs, the heartbeat or a sliced broadcast has no timing in it.
 */
import type { Timers } from '../../lib/engine/platform.js'

interface Timer {
  readonly id: number
  at: number
  readonly every: number | undefined
  readonly run: () => void
}

export interface ManualTimers extends Timers {
  /** Moves the clock `ms` forward, running each timer when its time comes. */
  advance(ms: number): void
  /**
   * Moves the clock `ms` forward running nothing, as a long synchronous task of the server
   * would: the timers due meanwhile run once each at the next `advance` (an interval is then
   * due again a period after it ran, as Node's are).
   */
  stall(ms: number): void
  /** Runs what `afterIo` queued (and what that queues in turn); answers how many ran. */
  io(): number
  /** How many `afterIo` callbacks are waiting. */
  readonly pendingIo: number
}

export const manualTimers = (start = 1_000_000): ManualTimers => {
  let clock = start
  let nextId = 1
  const timers = new Map<number, Timer>()
  let afterIo: (() => void)[] = []
  const add = (run: () => void, ms: number, every: number | undefined): number => {
    const id = nextId++
    timers.set(id, { id, at: clock + Math.max(1, ms), every, run })
    return id
  }
  const due = (until: number): Timer | undefined => {
    let first: Timer | undefined
    for (const timer of timers.values()) if (timer.at <= until && (first === undefined || timer.at < first.at)) first = timer
    return first
  }
  return {
    now: () => clock,
    setTimeout: (run, ms) => add(run, ms, undefined),
    clearTimeout: (id) => void timers.delete(id as number),
    setInterval: (run, ms) => add(run, ms, Math.max(1, ms)),
    clearInterval: (id) => void timers.delete(id as number),
    afterIo: (run) => void afterIo.push(run),
    advance(ms) {
      const until = clock + ms
      for (let timer = due(until); timer !== undefined; timer = due(until)) {
        clock = Math.max(clock, timer.at)
        if (timer.every === undefined) timers.delete(timer.id)
        else timer.at = clock + timer.every
        timer.run()
      }
      clock = until
    },
    stall(ms) {
      clock += ms
    },
    io() {
      let ran = 0
      while (afterIo.length > 0) {
        const batch = afterIo
        afterIo = []
        for (const run of batch) run()
        ran += batch.length
      }
      return ran
    },
    get pendingIo() {
      return afterIo.length
    },
  }
}
