/**
 * One twinport process for bench/c1m's diagnosis (`bench/c1m/diagnose.ts`): the echo app
 * (the `/bcast` room) on PORT, on the Redis adapter when REDIS_URL is set, and a plain
 * node:http probe port on the same event loop that answers `GET /` (the driver's loop probe)
 * and `GET /diag` (what the process saw of itself since the last `/diag?reset`: its CPU time,
 * its event-loop delay from a 1 ms `monitorEventLoopDelay` timer, p50/p99/max, and each GC
 * pause with its kind). Prints `DIAG_READY {"pid":…,"probe":port}`. Loopback only.
 * Must not import the drivers (they start it).
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PerformanceObserver, monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { runServer, silentLogger } from '../../lib/index.js'
import { redisAdapter } from '../../lib/redis/index.js'
import { echoOptions, echoRoutes } from '../../examples/echo-routes.js'

const heartbeat = process.env.HEARTBEAT_MS === undefined ? {} : { heartbeatIntervalMs: Number(process.env.HEARTBEAT_MS) }
const adapter = process.env.REDIS_URL === undefined || process.env.REDIS_URL === '' ? undefined
  : redisAdapter({ url: process.env.REDIS_URL, prefix: process.env.PREFIX ?? 'c1mdiag' })
await runServer({
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  routes: echoRoutes,
  ...echoOptions,
  logger: silentLogger,
  limits: { ...echoOptions.limits, ...heartbeat, maxConnections: 19_000 },
  ...(adapter === undefined ? {} : { cluster: adapter }),
})
await adapter?.ready()

const lag = monitorEventLoopDelay({ resolution: 1 })
lag.enable()
let gc: { at: number; ms: number; kind: number }[] = []
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gc.push({ at: Math.round(e.startTime), ms: Number(e.duration.toFixed(2)), kind: (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0 })
}).observe({ entryTypes: ['gc'] })
// The main thread's CPU time and its wait for a CPU on the run queue, ns (/proc/thread-self/schedstat:
// on-CPU time, run-queue wait, time slices), so a stall can be split into the loop's own work
// and the machine's scheduler.
const sched = (): [number, number] => {
  const f = readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')
  return [Number(f[0]), Number(f[1])]
}
// Stalls: a 2 ms interval that came late by more than 40 ms; `fromUs` is the monotonic clock
// (µs, the clock of a --cpu-prof profile's timestamps) of the tick before the stall; `cpuMs`
// the main thread's CPU in it, `waitMs` its wait on the run queue.
let stalls: { fromUs: number; ms: number; cpuMs: number; waitMs: number }[] = []
let lastTick = process.hrtime.bigint()
let lastSched = sched()
let sched0 = lastSched
setInterval(() => {
  const now = process.hrtime.bigint()
  const s = sched()
  const ms = Number(now - lastTick) / 1e6
  if (ms > 40) stalls.push({ fromUs: Number(lastTick / 1000n), ms: Number(ms.toFixed(1)), cpuMs: Number(((s[0] - lastSched[0]) / 1e6).toFixed(1)), waitMs: Number(((s[1] - lastSched[1]) / 1e6).toFixed(1)) })
  lastTick = now
  lastSched = s
}, 2)
let cpu = process.cpuUsage()
let since = performance.now()

const probe = createServer((req, res) => {
  if (req.url?.startsWith('/diag') !== true) return void res.end('ok')
  const used = process.cpuUsage(cpu)
  const body = {
    ms: performance.now() - since,
    cpuUs: used.user + used.system,
    lagMs: { p50: lag.percentile(50) / 1e6, p99: lag.percentile(99) / 1e6, max: lag.max / 1e6, count: lag.count },
    gc: { count: gc.length, totalMs: gc.reduce((a, g) => a + g.ms, 0), maxMs: gc.reduce((a, g) => Math.max(a, g.ms), 0), long: gc.filter((g) => g.ms >= 5) },
    heapMiB: process.memoryUsage().heapUsed / 2 ** 20,
    stalls,
    mainCpuMs: (sched()[0] - sched0[0]) / 1e6,
    runQueueWaitMs: (sched()[1] - sched0[1]) / 1e6,
  }
  if (req.url.includes('reset')) {
    lag.reset()
    gc = []
    stalls = []
    sched0 = sched()
    cpu = process.cpuUsage()
    since = performance.now()
  }
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(body))
})
await new Promise<void>((resolve) => probe.listen({ host: '127.0.0.1', port: 0 }, resolve))
console.log(`DIAG_READY ${JSON.stringify({ pid: process.pid, probe: (probe.address() as AddressInfo).port })}`)
process.on('SIGTERM', () => process.exit(0))
