/**
 * bench/soak/soak-verdict.ts: the soak's slopes and checks, on made-up samples.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type FaultWindow, type HeapPoint, judgeRefusal, loadChecks, loopExcess, type Refusal, refusalChecks, serverChecks, slope } from '../../../bench/soak/soak-verdict.js'

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
  assert.is(checks.find((c) => c.name === "b: event-loop p99 beyond the idle probe's")?.ok, false)
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

test('loadChecks :: a seq gap or an unanswered request fails; reported-only kinds and refused resumes (judged by cause apart) do not', () => {
  assert.ok(loadChecks({ connect_failed: 3, http_conn_lost: 2, recovery_gap: 4, recovery_unavailable: 9 }, 0, 0, 0).every((c) => c.ok))
  assert.is(loadChecks({ seq_gap: 1 }, 0, 0, 0)[1]?.ok, false)
  assert.is(loadChecks({ replay_mismatch: 1 }, 0, 0, 0)[1]?.ok, false)
  assert.is(loadChecks({}, 2, 0, 0)[0]?.ok, false)
  assert.is(loadChecks({}, 0, 1, 0)[2]?.ok, false)
  assert.is(loadChecks({}, 0, 0, 4)[3]?.ok, false)
})

// ---- the event loop against an idle probe -------------------------------------------------------

const loopPoints = (p99: (i: number) => number) => Array.from({ length: 10 }, (_, i) => ({ at: i * 5000, rss: 100 * MB, handles: 100, loopP99Ms: p99(i) }))

test('serverChecks :: a slow loop while the idle probe is as slow (a loaded machine) passes; the same loop beside an idle probe fails', () => {
  const points = loopPoints((i) => (i === 6 ? 700 : 20))
  const loaded = points.map((p) => ({ at: p.at + 300, loopP99Ms: p.loopP99Ms === 700 ? 650 : 15 }))
  const quiet = points.map((p) => ({ at: p.at + 300, loopP99Ms: 11 }))
  const name = "e: event-loop p99 beyond the idle probe's"
  const underLoad = serverChecks('e', points, flatHeap, 0, bounds, loaded).find((c) => c.name === name)
  assert.is(underLoad?.ok, true, underLoad?.detail)
  assert.match(underLoad?.detail ?? '', /raw worst 700\.0 ms; 10\/10 samples probed, 1 disturbed \(the idle probe itself past the bound\), 0 not judged/)
  const ownFault = serverChecks('e', points, flatHeap, 0, bounds, quiet).find((c) => c.name === name)
  assert.is(ownFault?.ok, false)
  assert.match(ownFault?.detail ?? '', /^worst 689\.0 ms beyond the probe \(the probe 11\.0 ms then; bound 100\)/)
})

test('loopExcess :: samples with no probe sample near them are judged raw; a probe slower than the server counts as no excess', () => {
  const points = loopPoints(() => 50)
  assert.equal(loopExcess(points, [], 100), { worst: 50, rawWorst: 50, probeThen: 0, disturbed: 0, probed: 0, forcedGc: 0, starved: 0 })
  const far = loopExcess(points, [{ at: 10_000_000, loopP99Ms: 50 }], 100)
  assert.is(far.worst, 50)
  assert.is(far.probed, 0)
  const slower = loopExcess(points, points.map((p) => ({ at: p.at, loopP99Ms: 400 })), 100)
  assert.is(slower.worst, 0)
  assert.is(slower.disturbed, 10)
})

test("loopExcess :: a sample holding the soak's own forced full GC is not judged, and is counted", () => {
  const points = loopPoints((i) => (i === 3 ? 1200 : 30)).map((p, i) => (i === 3 ? { ...p, forcedGcMs: 1100 } : p))
  const judged = loopExcess(points, [], 100)
  assert.is(judged.worst, 30)
  assert.is(judged.forcedGc, 1)
  assert.is(serverChecks('g', points, flatHeap, 0, bounds).find((c) => c.name === "g: event-loop p99 beyond the idle probe's")?.ok, true)
})

test('loopExcess :: a sample whose loop thread waited for a CPU a quarter of the time is starved by the machine: not judged, counted', () => {
  const points = loopPoints((i) => (i === 5 ? 3000 : 40)).map((p, i) => ({ ...p, runQueueShare: i === 5 ? 0.6 : 0.05 }))
  const judged = loopExcess(points, points.map((p) => ({ at: p.at, loopP99Ms: 12 })), 100)
  assert.is(judged.starved, 1)
  assert.is(judged.worst, 28)
  const notStarved = loopExcess(points.map((p) => ({ ...p, runQueueShare: 0.1 })), [], 100)
  assert.is(notStarved.worst, 3000, 'a slow loop that had the CPU is the server\'s own')
})

// ---- refused resumes judged by cause ---------------------------------------------------------------

const partition: FaultWindow = { from: 100_000, to: 115_000, label: 'partition 15 s', nodes: ['B'] }
const refusal = (over: Partial<Refusal>): Refusal => ({ node: 'B', at: 110_000, ms: 3000, reason: 'unavailable', cause: 'load_timeout', local: false, ...over })

test('judgeRefusal :: the store failing on the node cut off, during the fault or its grace, is right', () => {
  assert.equal(judgeRefusal(refusal({}), [partition], 10_000), { right: true, fault: 'partition 15 s' })
  assert.is(judgeRefusal(refusal({ cause: 'load_error', at: 124_000, ms: 1000 }), [partition], 10_000).right, true, 'asked within the grace')
  assert.is(judgeRefusal(refusal({ cause: 'tails_timeout', at: 101_000, ms: 3300 }), [partition], 10_000).right, true, 'asked before, answered during')
})

test('judgeRefusal :: the same cause in calm, or on a node the fault did not cut off, is wrong', () => {
  assert.equal(judgeRefusal(refusal({ at: 130_000, ms: 3000 }), [partition], 10_000), { right: false, fault: undefined })
  assert.is(judgeRefusal(refusal({ at: 99_000, ms: 50 }), [partition], 10_000).right, false, 'answered before the fault began')
  assert.is(judgeRefusal(refusal({ node: 'A' }), [partition], 10_000).right, false)
  assert.is(judgeRefusal(refusal({}), [], 10_000).right, false)
})

test('judgeRefusal :: a write lost to the fault is right on any node; a record behind the client, an unknown session or a local refusal never is', () => {
  assert.is(judgeRefusal(refusal({ node: 'A', reason: 'gap', cause: 'log_trimmed' }), [partition], 10_000).right, true)
  assert.is(judgeRefusal(refusal({ node: 'A', reason: 'gap', cause: 'target_gap' }), [partition], 10_000).right, true)
  assert.is(judgeRefusal(refusal({ reason: 'gap', cause: 'ahead_of_record' }), [partition], 10_000).right, false)
  assert.is(judgeRefusal(refusal({ reason: 'unknown_session', cause: 'unknown_session' }), [partition], 10_000).right, false)
  assert.is(judgeRefusal(refusal({ reason: 'unknown_session', cause: 'unknown_session', local: true, ms: 0 }), [partition], 10_000).right, false)
  assert.is(judgeRefusal(refusal({ cause: 'no_cursor', reason: 'gap' }), [partition], 10_000).right, false)
})

test('refusalChecks :: right refusals pass and are counted; one wrong fails; clients seeing more than the servers logged fails', () => {
  const right = [refusal({}), refusal({ cause: 'load_error', ms: 800 }), refusal({ node: 'A', reason: 'gap', cause: 'log_trimmed' })]
  const ok = refusalChecks(right, [partition], 10_000, 3)
  assert.ok(ok.checks.every((c) => c.ok), JSON.stringify(ok.checks))
  assert.is(ok.right, 3)
  assert.is(ok.wrong, 0)
  assert.equal(
    ok.rows.map((r) => [r.node, r.key, r.right, r.n, r.msMean, r.msMax]),
    [
      ['A', 'gap/log_trimmed', true, 1, 3000, 3000],
      ['B', 'unavailable/load_error', true, 1, 800, 800],
      ['B', 'unavailable/load_timeout', true, 1, 3000, 3000],
    ],
  )
  const wrong = refusalChecks([...right, refusal({ reason: 'gap', cause: 'ahead_of_record', at: 200_000, ms: 2500 })], [partition], 10_000, 4)
  assert.is(wrong.wrong, 1)
  assert.is(wrong.checks[0]?.ok, false)
  assert.match(wrong.checks[0]?.detail ?? '', /^1 wrong, 3 right/)
  assert.is(wrong.rows.find((r) => r.key === 'gap/ahead_of_record')?.right, false)
  const unlogged = refusalChecks(right, [partition], 10_000, 5)
  assert.is(unlogged.checks[1]?.ok, false)
  assert.is(unlogged.checks[1]?.detail, 'clients 5, servers 3')
})

test.run()
