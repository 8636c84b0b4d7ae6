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
 * The readings that bracket [from, to] in a series ordered by time: the last at or before
 * `from` and the first at or after `to` (a window a little wider than asked, never narrower);
 * `undefined` when the series does not cover it.
 *
 * @example
 * bracket([{ at: 0, cpuNs: 0, waitNs: 0 }, { at: 10, cpuNs: 5, waitNs: 1 }, { at: 20, cpuNs: 6, waitNs: 9 }], 12, 18) // [1, 2]
 */
export const bracket = (series: readonly SchedPoint[], from: number, to: number): [number, number] | undefined => {
  // Binary search: the first reading after `from`; the one before it starts the window.
  let lo = 0
  let hi = series.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((series[mid] as SchedPoint).at <= from) lo = mid + 1
    else hi = mid
  }
  const start = lo - 1
  if (start < 0) return undefined
  let end = start
  while (end < series.length && (series[end] as SchedPoint).at < to) end++
  return end < series.length ? [start, end] : undefined
}

/**
 * Growth of a cumulative series over [from, to], between the readings that bracket it.
 *
 * @example
 * windowSched([{ at: 0, cpuNs: 0, waitNs: 0 }, { at: 10, cpuNs: 5, waitNs: 1 }, { at: 20, cpuNs: 6, waitNs: 9 }], 12, 18)
 * // { cpuNs: 1, waitNs: 8 }
 */
export const windowSched = (series: readonly SchedPoint[], from: number, to: number): SchedTimes | undefined => {
  const at = bracket(series, from, to)
  return at === undefined ? undefined : growth(series, [at])
}

// Σ growth over index ranges that do not overlap (they may share an end reading).
const growth = (series: readonly SchedPoint[], ranges: readonly (readonly [number, number])[]): SchedTimes => {
  let cpuNs = 0
  let waitNs = 0
  for (const [i, j] of ranges) {
    const a = series[i] as SchedPoint
    const b = series[j] as SchedPoint
    cpuNs += Math.max(0, b.cpuNs - a.cpuNs)
    waitNs += Math.max(0, b.waitNs - a.waitNs)
  }
  return { cpuNs, waitNs }
}

// The scheduler time over the union of `windows`: each widened to the readings that bracket it,
// and windows whose widened ranges overlap read once (the sampler may itself run late, so
// neighbouring stalls can share readings).
const overWindows = (series: readonly SchedPoint[], windows: readonly (readonly [number, number])[]): SchedTimes => {
  const ranges = windows.flatMap(([from, to]) => {
    const at = bracket(series, from, to)
    return at === undefined ? [] : [at]
  })
  const merged: [number, number][] = []
  for (const [i, j] of ranges.sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1]
    if (last !== undefined && i < last[1]) last[1] = Math.max(last[1], j)
    else merged.push([i, j])
  }
  return growth(series, merged)
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
 * and the probe's wait is taken over the union of all workers' windows. Each window is read
 * between the readings that bracket it, and windows sharing readings are read once, so no
 * scheduler time is counted twice. A window outside a series' cover adds none.
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
    const windows = mergeIntervals(stalled.filter((s) => s.target === target).map((s) => [s.at, s.at + s.ms] as const))
    for (const [from, to] of windows) ms += to - from
    const own = overWindows(workers[target] ?? [], windows)
    cpuNs += own.cpuNs
    waitNs += own.waitNs
  }
  const probeWaitNs = overWindows(probe, mergeIntervals(stalled.map((s) => [s.at, s.at + s.ms] as const))).waitNs
  return { stalls: stalled.length, ms, cpuMs: cpuNs / 1e6, waitMs: waitNs / 1e6, probeWaitMs: probeWaitNs / 1e6 }
}

/** Stalls whose waiting (the worker's and the probe's) outweighs the worker's own CPU. */
export const isWaitingBound = (split: StallSplit): boolean => split.stalls > 0 && split.waitMs + split.probeWaitMs > split.cpuMs
