/**
 * `nodeProbe`: what a presence bench server (bench/presence/*-node.ts) tells the driver about
 * itself between two marks, for the single-change phase (session 13): its CPU time
 * (`process.cpuUsage`, microseconds, not /proc's 10 ms ticks), its GC pauses (count, total and
 * longest, from `PerformanceObserver` 'gc' entries, by kind) and its event loop's longest delay
 * (`monitorEventLoopDelay`). `mark()` starts a window; `read()` answers what happened since.
 * Bench code: node:* is fine here.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

/** What one server did between a mark and a read. */
export interface ProbeReading {
  readonly cpuMs: number
  readonly gcCount: number
  readonly gcMs: number
  readonly gcMaxMs: number
  /** The longest GC pause's kind (V8's `detail.kind`: 1 minor, 2 major, 4 incremental, 8 weak callbacks). */
  readonly gcMaxKind: number
  readonly loopDelayMaxMs: number
  /** The window on the monotonic clock in µs (a `--cpu-prof` profile's clock), to cut a profile to it. */
  readonly windowUs: readonly [number, number]
}

/** Starts observing GC and the event loop; `mark()` opens a window, `read()` reads it. */
export const nodeProbe = (): { mark(): void; read(): ProbeReading; readonly observer: PerformanceObserver } => {
  const nowUs = (): number => Number(process.hrtime.bigint() / 1000n)
  let cpu = process.cpuUsage()
  let since = nowUs()
  let gc: { count: number; ms: number; max: number; kind: number } = { count: 0, ms: 0, max: 0, kind: 0 }
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1
      gc.ms += entry.duration
      if (entry.duration > gc.max) {
        gc.max = entry.duration
        gc.kind = (entry as { detail?: { kind?: number } }).detail?.kind ?? 0
      }
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  const loop = monitorEventLoopDelay({ resolution: 1 })
  loop.enable()
  return {
    // Held by the caller, so the observer lives as long as the probe.
    observer,
    mark: () => {
      since = nowUs()
      cpu = process.cpuUsage()
      gc = { count: 0, ms: 0, max: 0, kind: 0 }
      loop.reset()
    },
    read: () => {
      const used = process.cpuUsage(cpu)
      return { cpuMs: (used.user + used.system) / 1000, gcCount: gc.count, gcMs: gc.ms, gcMaxMs: gc.max, gcMaxKind: gc.kind, loopDelayMaxMs: loop.max / 1e6, windowUs: [since, nowUs()] }
    },
  }
}
