/**
 * The soak's idle probe (`bench/soak.ts`), as a child process: it does nothing but measure its
 * own event-loop delay (same resolution as the servers', `soak-node.ts`) and read the load
 * average, and every SAMPLE_MS sends the parent a `ProbeSample`. An idle process's timers are
 * late only by what the machine does to it (other processes on the cores), so the servers'
 * event-loop p99 is judged beyond the probe's at the same time (`soak-verdict.ts` `loopExcess`).
 * Imports no lib code; Node only (perf_hooks, fs, process).
 */
import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'

/** What the probe reports every SAMPLE_MS. */
export interface ProbeSample {
  readonly op: 'probe'
  readonly at: number
  readonly loopP99Ms: number
  readonly loopMaxMs: number
  /** The 1-minute load average (`/proc/loadavg`), -1 where unreadable. */
  readonly load1: number
}

const sampleMs = Number(process.env.SAMPLE_MS ?? 5000)

const load1 = (): number => {
  try {
    return Number(readFileSync('/proc/loadavg', 'latin1').split(' ')[0])
  } catch {
    return -1
  }
}

const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()
setInterval(() => {
  const sample: ProbeSample = { op: 'probe', at: Date.now(), loopP99Ms: loop.percentile(99) / 1e6, loopMaxMs: loop.max / 1e6, load1: load1() }
  loop.reset()
  process.send?.(sample)
}, sampleMs)
process.on('SIGTERM', () => process.exit(0))
process.send?.({ op: 'ready' })
