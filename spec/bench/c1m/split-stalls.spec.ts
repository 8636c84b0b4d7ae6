/**
 * bench/c1m/split-stalls.ts: a stalled loop's window read off cumulative schedstat series,
 * pipelined probe samples merged per worker, and the waiting-bound verdict.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { bracket, isWaitingBound, mergeIntervals, splitStalls, windowSched, type SchedPoint } from '../../../bench/c1m/split-stalls.js'

const series = (...points: readonly [number, number, number][]): SchedPoint[] => points.map(([at, cpuMs, waitMs]) => ({ at, cpuNs: cpuMs * 1e6, waitNs: waitMs * 1e6 }))

test('windowSched :: from the last reading at or before the start to the first at or after the end', () => {
  const s = series([0, 0, 0], [10, 5, 1], [20, 6, 9], [30, 20, 9])
  assert.equal(windowSched(s, 12, 18), { cpuNs: 1e6, waitNs: 8e6 })
  assert.equal(windowSched(s, 10, 20), { cpuNs: 1e6, waitNs: 8e6 })
  assert.equal(windowSched(s, 0, 30), { cpuNs: 20e6, waitNs: 9e6 })
  assert.is(windowSched(s, -1, 5), undefined)
  assert.is(windowSched(s, 25, 31), undefined)
  assert.is(windowSched([], 0, 1), undefined)
})

test('bracket :: the indices of the readings around a window', () => {
  const s = series([0, 0, 0], [10, 5, 1], [20, 6, 9], [30, 20, 9])
  assert.equal(bracket(s, 12, 18), [1, 2])
  assert.equal(bracket(s, 10, 10), [1, 1])
  assert.equal(bracket(s, 0, 30), [0, 3])
  assert.is(bracket(s, -1, 5), undefined)
  assert.is(bracket(s, 29, 31), undefined)
})

test('splitStalls :: two stalls of one worker between the same late readings are read once', () => {
  // The sampler ran late: one reading at 0, the next at 100; stalls [10, 40] and [60, 90] are apart
  // in time but both widen to [0, 100].
  const w = series([0, 0, 0], [100, 10, 90])
  const split = splitStalls([{ at: 10, ms: 30, target: 0 }, { at: 60, ms: 30, target: 0 }], [w], w, 20)
  assert.equal(split, { stalls: 2, ms: 60, cpuMs: 10, waitMs: 90, probeWaitMs: 90 })
})

test('mergeIntervals :: overlapping and touching windows become one, in order', () => {
  assert.equal(mergeIntervals([[5, 9], [0, 3], [2, 4]]), [[0, 4], [5, 9]])
  assert.equal(mergeIntervals([[0, 2], [2, 3]]), [[0, 3]])
  assert.equal(mergeIntervals([[0, 10], [1, 2]]), [[0, 10]])
  assert.equal(mergeIntervals([]), [])
})

test('splitStalls :: samples over the threshold only; one worker\'s overlapping stalls counted once', () => {
  const w0 = series([0, 0, 0], [50, 2, 40], [100, 5, 80])
  const probe = series([0, 0, 0], [100, 1, 2])
  // Three pipelined requests waiting through one stall of [10, 70], and a fast one.
  const samples = [{ at: 10, ms: 60, target: 0 }, { at: 20, ms: 50, target: 0 }, { at: 30, ms: 40, target: 0 }, { at: 40, ms: 1, target: 0 }]
  const split = splitStalls(samples, [w0], probe, 20)
  assert.equal(split, { stalls: 3, ms: 60, cpuMs: 5, waitMs: 80, probeWaitMs: 2 })
  assert.ok(isWaitingBound(split))
})

test('splitStalls :: each worker read off its own series; the probe over the union of all windows', () => {
  const busy = series([0, 0, 0], [100, 90, 5])
  const starved = series([0, 0, 0], [100, 3, 95])
  const probe = series([0, 0, 0], [50, 0, 1], [100, 0, 2])
  const a = splitStalls([{ at: 10, ms: 80, target: 0 }], [busy, starved], probe, 20)
  assert.equal(a, { stalls: 1, ms: 80, cpuMs: 90, waitMs: 5, probeWaitMs: 2 })
  assert.not.ok(isWaitingBound(a))
  const b = splitStalls([{ at: 10, ms: 80, target: 1 }, { at: 10, ms: 80, target: 0 }], [busy, starved], probe, 20)
  // Two workers: their windows add (each stalled 80 ms); the probe's wait is over [10, 90] once.
  assert.equal(b, { stalls: 2, ms: 160, cpuMs: 93, waitMs: 100, probeWaitMs: 2 })
})

test('splitStalls :: failed samples (NaN) and a worker without a series add no time; no stall is not waiting-bound', () => {
  const split = splitStalls([{ at: 10, ms: Number.NaN, target: 0 }, { at: 10, ms: 30, target: 4 }], [], [], 20)
  assert.equal(split, { stalls: 1, ms: 30, cpuMs: 0, waitMs: 0, probeWaitMs: 0 })
  assert.not.ok(isWaitingBound(split))
  assert.not.ok(isWaitingBound(splitStalls([], [], [], 20)))
})

test.run()
