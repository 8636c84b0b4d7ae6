/**
 * `splitStalls`: what the stalled server was doing while bench/c1m's loop probe waited. For
 * every probe sample over a threshold (a stall of one worker's event loop), the worker's main
 * thread's CPU and run-queue wait over the stall's window (from a series of schedstat readings
 * taken every few ms), and the probe's own run-queue wait over it (the probe is a process on
 * the same cores: its answer is late when it is not scheduled either). A stall is
 * *waiting-bound* when the waiting outweighs the worker's own CPU: the loop did not turn
 * because nobody ran it, not because it was busy. Pure; imports types only.
 */
import type { SchedTimes } from './schedstat.js'

/** A probe sample over this is a stall (issue 31's p99 bound on the event-loop delay), ms. */
export const STALL_THRESHOLD_MS = 20

/** A cumulative reading of one thread's scheduler times, at `at` (ms, performance clock). */
export interface SchedPoint extends SchedTimes {
  readonly at: number
}

/** A probe sample of one worker: sent at `at`, answered `ms` later; `target` is the worker's index. */
export interface TargetedSample {
  readonly at: number
  readonly ms: number
  readonly target: number
}

/** The stalls of a phase, and what their windows held (ms). */
export interface StallSplit {
  /** probe samples over the threshold, and the time they cover (per worker, the union of their windows, summed over workers) */
  readonly stalls: number
  readonly ms: number
  /** the stalled workers' main-thread CPU and run-queue wait over the stall windows */
  readonly cpuMs: number
  readonly waitMs: number
  /** the probe's own main-thread run-queue wait over them */
  readonly probeWaitMs: number
}

/**
 * Growth of a cumulative series over [from, to]: from the last reading at or before `from`
 * to the first at or after `to` (a window a little wider than asked, never narrower);
 * `undefined` when the series does not cover it.
 *
 * @example
 * windowSched([{ at: 0, cpuNs: 0, waitNs: 0 }, { at: 10, cpuNs: 5, waitNs: 1 }, { at: 20, cpuNs: 6, waitNs: 9 }], 12, 18)
 * // { cpuNs: 1, waitNs: 8 }
 */
export const windowSched = (series: readonly SchedPoint[], from: number, to: number): SchedTimes | undefined => {
  let start: SchedPoint | undefined
  let end: SchedPoint | undefined
  for (const point of series) {
    if (point.at <= from) start = point
    if (point.at >= to) {
      end = point
      break
    }
  }
  if (start === undefined || end === undefined) return undefined
  return { cpuNs: Math.max(0, end.cpuNs - start.cpuNs), waitNs: Math.max(0, end.waitNs - start.waitNs) }
}

/**
 * Merges time intervals [from, to] that overlap or touch into their union, in order.
 *
 * @example
 * mergeIntervals([[5, 9], [0, 3], [2, 4]]) // [[0, 4], [5, 9]]
 */
export const mergeIntervals = (intervals: readonly (readonly [number, number])[]): [number, number][] => {
  const out: [number, number][] = []
  for (const [from, to] of [...intervals].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1]
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to)
    else out.push([from, to])
  }
  return out
}

/**
 * The stalls among `samples` (answered after more than `thresholdMs`), with each worker's
 * main-thread series (`workers[target]`) and the probe's. Probe requests are pipelined, so the
 * stalls of one worker overlap: its windows are merged first (`ms` is the union, not the sum),
 * and the probe's wait is taken over the union of all workers' windows. A window outside a
 * series' cover adds no scheduler time.
 *
 * @example
 * const w = [{ at: 0, cpuNs: 0, waitNs: 0 }, { at: 100, cpuNs: 5e6, waitNs: 80e6 }]
 * const p = [{ at: 0, cpuNs: 0, waitNs: 0 }, { at: 100, cpuNs: 1e6, waitNs: 2e6 }]
 * splitStalls([{ at: 10, ms: 60, target: 0 }, { at: 20, ms: 30, target: 0 }, { at: 20, ms: 1, target: 0 }], [w], p, 20)
 * // { stalls: 2, ms: 60, cpuMs: 5, waitMs: 80, probeWaitMs: 2 }
 */
export const splitStalls = (
  samples: readonly TargetedSample[],
  workers: readonly (readonly SchedPoint[])[],
  probe: readonly SchedPoint[],
  thresholdMs: number,
): StallSplit => {
  const stalled = samples.filter((s) => s.ms > thresholdMs)
  let ms = 0
  let cpuNs = 0
  let waitNs = 0
  for (const target of new Set(stalled.map((s) => s.target))) {
    for (const [from, to] of mergeIntervals(stalled.filter((s) => s.target === target).map((s) => [s.at, s.at + s.ms] as const))) {
      ms += to - from
      const own = windowSched(workers[target] ?? [], from, to)
      cpuNs += own?.cpuNs ?? 0
      waitNs += own?.waitNs ?? 0
    }
  }
  let probeWaitNs = 0
  for (const [from, to] of mergeIntervals(stalled.map((s) => [s.at, s.at + s.ms] as const))) probeWaitNs += windowSched(probe, from, to)?.waitNs ?? 0
  return { stalls: stalled.length, ms, cpuMs: cpuNs / 1e6, waitMs: waitNs / 1e6, probeWaitMs: probeWaitNs / 1e6 }
}

/** Stalls whose waiting (the worker's and the probe's) outweighs the worker's own CPU. */
export const isWaitingBound = (split: StallSplit): boolean => split.stalls > 0 && split.waitMs + split.probeWaitMs > split.cpuMs
