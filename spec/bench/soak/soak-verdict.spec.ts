/**
 * bench/soak/soak-verdict.ts: the soak's slopes and checks, on made-up samples.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type HeapPoint, loadChecks, serverChecks, slope } from '../../../bench/soak/soak-verdict.js'

const test = suite('bench/soak/soak-verdict')
const bounds = { heapMbPerMin: 0.3, rssMbPerMin: 1, handlesPerMin: 5, loopP99Ms: 100 }
const MB = 2 ** 20

test('slope :: least squares of a line is its slope; flat noise is near 0; one point is 0', () => {
  assert.is(slope([0, 1, 2, 3], [5, 7, 9, 11]), 2)
  assert.ok(Math.abs(slope([0, 1, 2, 3, 4, 5], [10, 11, 10, 11, 10, 11])) < 0.2)
  assert.is(slope([1], [3]), 0)
  assert.is(slope([2, 2], [1, 5]), 0)
})

// The heap after a full GC every half minute for 10 minutes: 20 MB then flat, or growing.
const heapOf = (mbAt: (minute: number) => number): HeapPoint[] => Array.from({ length: 20 }, (_, i) => ({ at: i * 30_000, heapUsedAfterGc: mbAt(i / 2) * MB }))
const flatHeap = heapOf((m) => (m < 2 ? 10 + 5 * m : 20))

test('serverChecks :: flat RSS passes, growing RSS fails, warm-up samples ignored', () => {
  const flat = Array.from({ length: 10 }, (_, i) => ({ at: i * 60_000, rss: (i < 2 ? 50 + i * 40 : 130) * MB, handles: 100, loopP99Ms: 12 }))
  assert.ok(serverChecks('a', flat, flatHeap, 2 * 60_000, bounds).every((c) => c.ok))
  const growing = flat.map((p, i) => ({ ...p, rss: (100 + 3 * i) * MB }))
  const rss = serverChecks('a', growing, flatHeap, 2 * 60_000, bounds).find((c) => c.name === 'a: RSS slope')
  assert.is(rss?.ok, false)
  assert.match(rss?.detail ?? '', /^3\.00 MB\/min/)
})

test('serverChecks :: too few samples after warm-up and a slow loop fail', () => {
  const points = [{ at: 0, rss: MB, handles: 1, loopP99Ms: 500 }]
  const checks = serverChecks('b', points, flatHeap, 0, bounds)
  assert.is(checks.find((c) => c.name === 'b: samples after warm-up')?.ok, false)
  assert.is(checks.find((c) => c.name === 'b: event-loop p99')?.ok, false)
})

test('serverChecks :: the heap after GC is the leak signal: growing fails even with RSS flat, flat passes with RSS growing within its bound', () => {
  const points = Array.from({ length: 10 }, (_, i) => ({ at: i * 60_000, rss: 200 * MB, handles: 100, loopP99Ms: 12 }))
  const leaking = serverChecks('c', points, heapOf((m) => 20 + 0.5 * m), 2 * 60_000, bounds).find((c) => c.name === 'c: heap-after-GC slope')
  assert.is(leaking?.ok, false)
  assert.match(leaking?.detail ?? '', /^0\.50 MB\/min over 16 full GCs/)
  const rising = points.map((p, i) => ({ ...p, rss: (200 + 0.8 * i) * MB }))
  const checks = serverChecks('c', rising, flatHeap, 2 * 60_000, bounds)
  assert.ok(checks.every((c) => c.ok), JSON.stringify(checks))
  assert.match(checks.find((c) => c.name === 'c: heap-after-GC slope')?.detail ?? '', /^0\.00 MB\/min/)
})

test('serverChecks :: fewer than 3 full GCs after warm-up fail the heap check (not measured is not flat)', () => {
  const points = Array.from({ length: 10 }, (_, i) => ({ at: i * 60_000, rss: 200 * MB, handles: 100, loopP99Ms: 12 }))
  const heap = serverChecks('d', points, flatHeap.slice(0, 6), 2 * 60_000, bounds).find((c) => c.name === 'd: heap-after-GC slope')
  assert.is(heap?.ok, false)
  assert.match(heap?.detail ?? '', /^2 full GCs after warm-up/)
})

test('loadChecks :: a seq gap or an unanswered request fails; reported-only kinds do not', () => {
  assert.ok(loadChecks({ connect_failed: 3, http_conn_lost: 2 }, 0, 0, 0).every((c) => c.ok))
  assert.is(loadChecks({ seq_gap: 1 }, 0, 0, 0)[1]?.ok, false)
  assert.is(loadChecks({ recovery_gap: 1 }, 0, 0, 0)[1]?.ok, false)
  assert.is(loadChecks({}, 2, 0, 0)[0]?.ok, false)
  assert.is(loadChecks({}, 0, 1, 0)[2]?.ok, false)
  assert.is(loadChecks({}, 0, 0, 4)[3]?.ok, false)
})

test.run()
