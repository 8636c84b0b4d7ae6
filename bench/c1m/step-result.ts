/**
 * The record of one bench/c1m step (N connections) and of the run's kernel floor, shared by
 * the driver (bench/c1m/run.ts) and the renderer (bench/c1m/render-c1m.ts). Types and the
 * percentile summary of the delay samples; pure.
 */
import type { StallSplit } from './split-stalls.js'

/** Event-loop delay seen by the 10 ms probe in one phase, in ms. */
export interface DelayFigures {
  readonly p50: number
  readonly p99: number
  readonly max: number
  readonly samples: number
  /** probe requests that failed or timed out (5 s) */
  readonly failed: number
}

/** The phases a step goes through. */
export type Phase = 'connect' | 'idle' | 'heartbeat' | 'broadcast'

/** The kernel floor measured by bench/c1m/floor.c in the same run (µs). */
export interface Floor {
  readonly pairs: number
  readonly bytes: number
  readonly writeUs: number
  readonly readUs: number
  readonly roundTripUs: number
}

/** One server process's scheduler times in one phase (all its threads, /proc/<pid>/task/<tid>/schedstat), ms. */
export interface ProcessSched {
  /** on a CPU */
  readonly cpuMs: number
  /** runnable but waiting on a run queue for a CPU */
  readonly waitMs: number
}

/** A phase's wall time, the machine's load and what each server process did in it. */
export interface PhaseSched {
  readonly wallMs: number
  /** the 1-minute load average at the phase's end (the highest, for phases in several pieces) */
  readonly load1: number
  /** in `StepResult.processes`' order */
  readonly processes: readonly ProcessSched[]
  /** the harness's own: the driver, the load clients and Redis, summed (absent in runs before session 14) */
  readonly harness?: ProcessSched
}

/** One step. Per-connection figures are over the connections that opened. */
export interface StepResult {
  readonly n: number
  readonly workers: number
  readonly clients: number
  readonly opened: number
  readonly failed: number
  /** connections closed after they opened, by the end of the step */
  readonly closed: number
  readonly connectMs: number
  /** opened / connect time */
  readonly acceptPerS: number
  /** server CPU (workers + primary) per connection accepted and upgraded, µs */
  readonly acceptCpuUs: number
  /**
   * Σ workers' RSS per connection, KiB: since session 14 the slope between the first wave of
   * connections (`memoryFrom` open) and all, each read a second after a full GC in every
   * worker, of RSS less the heaps' free committed room (heapTotal − heapUsed); before, the
   * growth of raw RSS from a base taken 3 s after start-up / opened (the primary's reported apart)
   */
  readonly rssKiB: number
  readonly primaryRssKiB: number
  /** the old figure beside the slope: Σ workers' RSS growth from the base after start-up / opened, KiB */
  readonly rssBaseKiB?: number
  /** the slope of Σ workers' raw RSS, KiB (`rssKiB` is it less the heaps' free committed room, heapTotal − heapUsed after GC) */
  readonly rssRawKiB?: number
  /** Σ workers' JS heap (heapUsed after GC) per connection, the same slope, KiB */
  readonly heapKiB?: number
  /** connections open at the first memory reading (the slope's start) */
  readonly memoryFrom?: number
  /** fewest and most open descriptors of a worker once all connected (its connections and ~40 others) */
  readonly workerFds?: { readonly min: number; readonly max: number }
  /** servers and harness on cores of their own (--pin) */
  readonly pinned?: boolean
  /** /proc/meminfo Slab and SUnreclaim, and TCP buffer pages, per client+server socket pair, KiB (the same slope since session 14) */
  readonly slabKiB: number
  readonly sunreclaimKiB: number
  readonly tcpMemKiB: number
  readonly heartbeatMs: number
  /** server CPU over the idle window per connection per heartbeat interval, µs, less the CPU the workers used with no client (probes, timers) */
  readonly idleCpuUs: number
  /** the same before that subtraction */
  readonly idleCpuRawUs: number
  /** the workers' CPU with no client connected and the probes running, ms per s */
  readonly baselineCpuMsPerS: number
  /** pings received per connection over the idle window, and the window's heartbeat intervals */
  readonly pingsPerConn: number
  readonly idleIntervals: number
  /** time from the send to the last receipt, per broadcast, ms; and receipts short of N */
  readonly broadcastMs: readonly number[]
  readonly broadcastMissing: number
  /** server CPU per delivered message, µs */
  readonly broadcastCpuUs: number
  /** the server processes of `sched`'s rows: `worker <pid>` each, then `primary <pid>` */
  readonly processes?: readonly string[]
  /** per phase: wall time, load average, each server process's CPU and run-queue wait */
  readonly sched?: Readonly<Partial<Record<Phase, PhaseSched>>>
  /** per phase: the loop probe's samples over 20 ms, split into the stalled worker's main-thread CPU and waiting */
  readonly stalls?: Readonly<Partial<Record<Phase, StallSplit>>>
  /** the workers' own event loops (kept-alive probe to each in turn) */
  readonly delay: Readonly<Partial<Record<Phase, DelayFigures>>>
  /** `GET /hello` on a fresh connection through the shared port (accept queue and hand-off included) */
  readonly sharedDelay: Readonly<Partial<Record<Phase, DelayFigures>>>
  /** growth of the kernel's ListenOverflows counter (/proc/net/netstat): SYNs dropped, full accept queue */
  readonly listenOverflows: number
  /** peak machine memory in use during the step (MemTotal − MemAvailable), bytes */
  readonly peakUsed: number
  /** why the step stopped early, if it did */
  readonly stopped?: string
}

/** The whole run. */
export interface C1mRun {
  readonly started: string
  readonly command: string
  readonly machine: string
  readonly fdLimit: number
  readonly perProcess: number
  /** the server's transport (`net`: node:net through node:cluster; `native`: the addon, SO_REUSEPORT per worker); absent in runs before it was recorded */
  readonly transport?: string
  readonly floorPing: Floor
  readonly floorMessage: Floor
  readonly steps: readonly StepResult[]
  readonly notes: readonly string[]
}

/** p50/p99/max of the finite samples, and the failures. */
export const delayFigures = (ms: readonly number[]): DelayFigures => {
  const ok = ms.filter(Number.isFinite).sort((a, b) => a - b)
  const at = (q: number): number => (ok.length === 0 ? Number.NaN : (ok[Math.min(ok.length - 1, Math.floor(q * ok.length))] as number))
  return { p50: at(0.5), p99: at(0.99), max: ok.length === 0 ? Number.NaN : (ok[ok.length - 1] as number), samples: ok.length, failed: ms.length - ok.length }
}
