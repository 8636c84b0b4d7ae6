/**
 * Scheduler times of bench/c1m's server processes, from Linux `/proc/<pid>/task/<tid>/schedstat`
 * (three numbers: ns on a CPU, ns runnable but waiting on a run queue for one, timeslices).
 * On a shared machine a loop that does not turn is often a process that was not scheduled, not
 * one that was busy: the second field tells the two apart. The file is read and parsed by bench/load/proc.ts;
 * here, every thread of a process at once and the growth between two readings. `schedDelta` is
 * pure; `readTaskSched` does one synchronous read per thread. Imports bench/load/proc.ts only.
 */
import { threadIds, threadSchedTimes } from '../load/proc.js'

/** Time on a CPU and time runnable but waiting for one, ns. */
export interface SchedTimes {
  readonly cpuNs: number
  readonly waitNs: number
}

/** The zero of `SchedTimes`. */
export const NO_SCHED: SchedTimes = { cpuNs: 0, waitNs: 0 }

/**
 * What the threads did between two readings (`readTaskSched`'s maps, keyed by thread id):
 * each thread's growth, summed. A thread that started in between counts from zero; one that
 * ended in between is lost (its last time is not in `after`), and never makes the sum shrink.
 *
 * @example
 * schedDelta(new Map([[1, { cpuNs: 10, waitNs: 5 }]]), new Map([[1, { cpuNs: 30, waitNs: 9 }], [2, { cpuNs: 4, waitNs: 1 }]]))
 * // { cpuNs: 24, waitNs: 5 }
 */
export const schedDelta = (before: ReadonlyMap<number, SchedTimes>, after: ReadonlyMap<number, SchedTimes>): SchedTimes => {
  let cpuNs = 0
  let waitNs = 0
  for (const [tid, now] of after) {
    const was = before.get(tid) ?? NO_SCHED
    cpuNs += Math.max(0, now.cpuNs - was.cpuNs)
    waitNs += Math.max(0, now.waitNs - was.waitNs)
  }
  return { cpuNs, waitNs }
}

/** Adds scheduler times. */
export const addSched = (a: SchedTimes, b: SchedTimes): SchedTimes => ({ cpuNs: a.cpuNs + b.cpuNs, waitNs: a.waitNs + b.waitNs })

/**
 * Every thread of process `pid` now, keyed by thread id (empty once the process is gone or
 * where /proc has no schedstat). With `mainOnly`, the main thread alone (the event loop).
 */
export const readTaskSched = (pid: number, mainOnly = false): Map<number, SchedTimes> => {
  const out = new Map<number, SchedTimes>()
  for (const tid of mainOnly ? [pid] : threadIds(pid)) {
    const times = threadSchedTimes(pid, tid)
    if (times !== undefined) out.set(tid, { cpuNs: times.onCpuNs, waitNs: times.waitingNs })
  }
  return out
}
