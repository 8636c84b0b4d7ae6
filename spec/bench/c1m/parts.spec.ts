/**
 * The pure parts of bench/c1m: /proc parsers, source addresses, delay percentiles and the
 * renderer (a run in, Markdown and SVG out, targets judged against the run's own floor).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { sourceAddress, sumStats } from '../../../bench/c1m/idle-clients.js'
import { parseListenOverflows, parseMemInfo, parseOpenFileLimit } from '../../../bench/c1m/meminfo.js'
import { broadcastBoundMs, delayMisses, explainDelayMiss, renderC1m, renderCostSvg } from '../../../bench/c1m/render-c1m.js'
import { delayFigures, type C1mRun, type StepResult } from '../../../bench/c1m/step-result.js'
import { memorySlope } from '../../../bench/c1m/worker-memory.js'

test('parseMemInfo :: reads total, available, slab and unreclaimable in bytes, TCP pages of sockstat', () => {
  const meminfo = 'MemTotal:       24576000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\nSlab:             512000 kB\nSReclaimable: 1 kB\nSUnreclaim:       256000 kB\n'
  const sockstat = 'sockets: used 300\nTCP: inuse 12 orphan 0 tw 3 alloc 20 mem 7\nUDP: inuse 1 mem 2\n'
  assert.equal(parseMemInfo(meminfo, sockstat), { total: 24576000 * 1024, available: 20000000 * 1024, slab: 512000 * 1024, sunreclaim: 256000 * 1024, tcpMem: 7 * 4096 })
  assert.equal(parseMemInfo('', ''), { total: 0, available: 0, slab: 0, sunreclaim: 0, tcpMem: 0 })
})

test('parseOpenFileLimit :: the soft limit of /proc/self/limits, unlimited as the largest safe integer', () => {
  const limits = 'Limit                     Soft Limit           Hard Limit           Units\nMax processes             unlimited            unlimited            processes\nMax open files            20000                20000                files\n'
  assert.is(parseOpenFileLimit(limits), 20000)
  assert.is(parseOpenFileLimit('Max open files            unlimited            unlimited            files\n'), Number.MAX_SAFE_INTEGER)
  assert.is(parseOpenFileLimit('nothing here'), undefined)
})

test('parseListenOverflows :: the TcpExt value under its header', () => {
  const netstat = 'TcpExt: SyncookiesSent ListenOverflows ListenDrops\nTcpExt: 1 42 43\nIpExt: InNoRoutes\nIpExt: 0\n'
  assert.is(parseListenOverflows(netstat), 42)
  assert.is(parseListenOverflows(''), 0)
})

test('sourceAddress :: distinct 127.31.x.y addresses, never .0 or .255', () => {
  const all = Array.from({ length: 1000 }, (_, i) => sourceAddress(i))
  assert.is(new Set(all).size, 1000)
  assert.is(all[0], '127.31.1.1')
  for (const a of all) assert.ok(/^127\.31\.(\d+)\.(\d+)$/.test(a) && !a.endsWith('.0') && !a.endsWith('.255'), a)
})

test('sumStats :: counters add up, the last receipt is the latest', () => {
  const s = sumStats([
    { open: 2, failed: 1, closed: 0, recv: 5, pings: 1, last: 10 },
    { open: 3, failed: 0, closed: 1, recv: 7, pings: 2, last: 30 },
  ])
  assert.equal(s, { open: 5, failed: 1, closed: 1, recv: 12, pings: 3, last: 30 })
})

test('delayFigures :: percentiles of the answered probes, failures counted apart', () => {
  const ms = [...Array.from({ length: 99 }, () => 1), 50, Number.NaN]
  assert.equal(delayFigures(ms), { p50: 1, p99: 50, max: 50, samples: 100, failed: 1 })
  assert.equal(delayFigures([]).samples, 0)
})

const step = (n: number, over: Partial<StepResult> = {}): StepResult => ({
  n, workers: Math.ceil(n / 19000), clients: Math.ceil(n / 19000), opened: n, failed: 0, closed: 0, connectMs: 1000, acceptPerS: n, acceptCpuUs: 100,
  rssKiB: 2.5, primaryRssKiB: 0.1, slabKiB: 6, sunreclaimKiB: 5, tcpMemKiB: 0.5, heartbeatMs: 30000, idleCpuUs: 20, idleCpuRawUs: 21, baselineCpuMsPerS: 3, pingsPerConn: 2, idleIntervals: 2,
  broadcastMs: [100, 120, 110], broadcastMissing: 0, broadcastCpuUs: 10,
  delay: { connect: { p50: 1, p99: 5, max: 9, samples: 10, failed: 0 } }, sharedDelay: {}, listenOverflows: 0, peakUsed: 0, ...over,
})
const run = (steps: readonly StepResult[]): C1mRun => ({
  started: '2026-11-27T00:00:00.000Z', command: 'npm run bench:c1m', machine: '2 × CPU, 23.5 GiB', fdLimit: 20000, perProcess: 19000,
  floorPing: { pairs: 5000, bytes: 2, writeUs: 10, readUs: 5, roundTripUs: 15 },
  floorMessage: { pairs: 5000, bytes: 34, writeUs: 12, readUs: 5, roundTripUs: 17 },
  steps, notes: ['N = 1,000,000 skipped: test'],
})

test('renderC1m :: a row per step, targets judged against the run\'s floor, notes kept', () => {
  const r = run([step(10_000), step(100_000, { rssKiB: 3.5, idleCpuUs: 19, broadcastMs: [900, 1000, 1100] })])
  const md = renderC1m(r)
  assert.ok(md.includes('| 10k | 1 | 10,000 (0) |'), md)
  assert.ok(md.includes('| 100k | 6 |'), md)
  assert.ok(md.includes('3.50 KiB: **not met**'), md)
  // 1.3 × 100,000 × 12 µs / 2 cores = 780 ms; the median broadcast took 1,000.
  assert.is(broadcastBoundMs(r, r.steps[1] as StepResult), 780)
  assert.ok(md.includes('1,000 vs 780 ms (2 cores): **not met**'), md)
  assert.ok(md.includes('21.00 (raw) vs 18.00 µs: **not met**'), md)
  assert.ok(md.includes('N = 1,000,000 skipped: test'), md)
})

test('renderC1m :: per-phase scheduler rows, and a delay miss marked waiting-bound or CPU-bound with its figures', () => {
  const sched = {
    connect: { wallMs: 40_000, load1: 9.5, processes: [{ cpuMs: 4000, waitMs: 9000 }, { cpuMs: 300, waitMs: 200 }] },
    broadcast: { wallMs: 2000, load1: 10.25, processes: [{ cpuMs: 500, waitMs: 100 }, { cpuMs: 0, waitMs: 0 }], harness: { cpuMs: 700, waitMs: 50 } },
  }
  const starved = step(10_000, {
    delay: { connect: { p50: 30, p99: 150, max: 300, samples: 100, failed: 0 }, broadcast: { p50: 1, p99: 5, max: 9, samples: 10, failed: 0 } },
    processes: ['worker 11', 'primary 10'], sched,
    stalls: { connect: { stalls: 40, ms: 2000, cpuMs: 200, waitMs: 1500, probeWaitMs: 100 }, broadcast: { stalls: 0, ms: 0, cpuMs: 0, waitMs: 0, probeWaitMs: 0 } },
  })
  const busy = step(100_000, {
    delay: { broadcast: { p50: 1, p99: 50, max: 60, samples: 10, failed: 0 } },
    stalls: { broadcast: { stalls: 3, ms: 150, cpuMs: 120, waitMs: 20, probeWaitMs: 5 } },
  })
  assert.equal(delayMisses(starved), ['connect'])
  assert.is(explainDelayMiss(step(10_000)), '')
  const md = renderC1m({ ...run([starved, busy]), transport: 'native' })
  assert.ok(md.includes('`TRANSPORT=native npm run bench:c1m`'), md)
  assert.ok(md.includes('| 10k | connect | 40.0 | 9.50 | 4,000 / 9,000, 300 / 200 | 4,300 / 9,200 | 68 % | – | 40, 2,000, 200 / 1,500, 100 (waiting-bound) |'), md)
  assert.ok(md.includes('| 10k | broadcast | 2.0 | 10.25 | 500 / 100, 0 / 0 | 500 / 100 | 17 % | 700 / 50 | none |'), md)
  assert.ok(md.includes('**not met**: connect waiting-bound (40 stalls over 2,000 ms: own CPU 200 ms, waiting 1,500 ms + probe 100 ms)'), md)
  assert.ok(md.includes('**not met**: broadcast CPU-bound (3 stalls over 150 ms: own CPU 120 ms, waiting 20 ms + probe 5 ms)'), md)
  // A run recorded before these figures renders without the table.
  assert.not.ok(renderC1m(run([step(10_000)])).includes('| phase |'))
})

test('renderC1m :: memory as the slope between the waves, with the heap, the old base figure and the descriptors per worker', () => {
  const md = renderC1m(run([step(100_000, { memoryFrom: 50_000, heapKiB: 0.42, rssBaseKiB: -0.9, workerFds: { min: 16_500, max: 16_900 }, pinned: true })]))
  assert.ok(md.includes("100k: 50,000 → 100,000; JS heap 0.42 KiB of it; raw RSS slope – KiB; the growth from the start-up base would read -0.90 KiB; descriptors per worker 16,500–16,900"), md)
  assert.ok(md.includes('Pinned (--pin)'), md)
  // Runs recorded before session 14 have no slope: no such line.
  assert.not.ok(renderC1m(run([step(10_000)])).includes('slope between two readings'))
})

test('memorySlope :: KiB per connection between two readings, NaN when none opened in between', () => {
  const a = { opened: 50_000, rss: 400e6, heapUsed: 30e6, heapFree: 0, slab: 1e9, sunreclaim: 0.8e9, tcpMem: 0 }
  const b = { opened: 100_000, rss: 400e6 + 50_000 * 2048, heapUsed: 30e6 + 50_000 * 512, heapFree: 50_000 * 1024, slab: 1e9 + 50_000 * 6144, sunreclaim: 0.8e9 + 50_000 * 5120, tcpMem: 0 }
  assert.equal(memorySlope(a, b), { rssKiB: 2, liveKiB: 1, heapKiB: 0.5, slabKiB: 6, sunreclaimKiB: 5, tcpMemKiB: 0 })
  assert.ok(Number.isNaN(memorySlope(a, a).rssKiB))
})

test('renderCostSvg :: four panels, a point per step, no NaN in coordinates', () => {
  const svg = renderCostSvg(run([step(10_000), step(100_000), step(250_000, { broadcastMs: [] })]))
  assert.ok(svg.startsWith('<svg'), svg.slice(0, 40))
  assert.is((svg.match(/font-weight="bold"/g) ?? []).length, 4)
  assert.not.ok(svg.includes('NaN'))
})

test.run()
