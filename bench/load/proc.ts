/**
 * Reads what the harness needs from Linux `/proc`: a process's CPU time
 * (utime + stime from `/proc/<pid>/stat`), its resident set (`VmRSS` from
 * `/proc/<pid>/status`), the machine-wide busy/total ticks (`/proc/stat`), and a thread's
 * scheduler times (`/proc/<pid>/task/<tid>/schedstat`: on a CPU, and runnable but waiting for
 * one), which tell a process waiting for the CPU apart from one waiting for work.
 * The parsers are pure; the readers do one synchronous file read each.
 */
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of `/proc` CPU counters (`getconf CLK_TCK`, 100 on Linux). */
export const CLK_TCK = 100

/** Machine-wide CPU ticks, summed over all cores. */
export interface MachineTicks {
  readonly busy: number
  readonly total: number
}

/**
 * utime + stime in clock ticks from the text of `/proc/<pid>/stat` (fields 14
 * and 15, counted after the parenthesised command name, which may hold spaces);
 * with `first` = 16, cutime + cstime (the CPU of children already waited for).
 * `undefined` if the text is not such a line.
 */
export const parseProcStat = (text: string, first = 14): number | undefined => {
  const close = text.lastIndexOf(')')
  if (close < 0) return undefined
  // Field 3 (state) is the first one after ") ".
  const fields = text.slice(close + 2).trim().split(/\s+/)
  const a = fields[first - 3]
  const b = fields[first + 1 - 3]
  return a !== undefined && b !== undefined && /^\d+$/.test(a) && /^\d+$/.test(b) ? Number(a) + Number(b) : undefined
}

/** Resident set size in bytes from the text of `/proc/<pid>/status`; `undefined` without a `VmRSS` line. */
export const parseVmRss = (text: string): number | undefined => {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(text)
  return m?.[1] === undefined ? undefined : Number(m[1]) * 1024
}

/**
 * Busy and total ticks from the aggregate `cpu` line of `/proc/stat`. Idle and
 * iowait count as not busy; guest time is already inside user time, so it is not
 * added again.
 */
export const parseMachineStat = (text: string): MachineTicks | undefined => {
  const m = /^cpu\s+([\d ]+)$/m.exec(text)
  if (m?.[1] === undefined) return undefined
  const v = m[1].trim().split(/\s+/).map(Number)
  if (v.length < 4) return undefined
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = v
  const busy = user + nice + system + irq + softirq + steal
  return { busy, total: busy + idle + iowait }
}

/** A thread's scheduler times so far (`/proc/<pid>/task/<tid>/schedstat`), in nanoseconds. */
export interface SchedTimes {
  /** Time spent running on a CPU. */
  readonly onCpuNs: number
  /** Time spent runnable on a run queue, waiting for a CPU (other tasks had it). */
  readonly waitingNs: number
}

/**
 * The first two fields of a `schedstat` file (time on a CPU, time waiting on a run queue, both
 * in ns; the third, the number of time slices, is left); `undefined` if the text is not one
 * (the file is empty without CONFIG_SCHED_INFO).
 */
export const parseSchedStat = (text: string): SchedTimes | undefined => {
  const m = /^(\d+) (\d+) \d+\s*$/.exec(text)
  return m?.[1] === undefined || m[2] === undefined ? undefined : { onCpuNs: Number(m[1]), waitingNs: Number(m[2]) }
}

const readOr = (path: string): string => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** CPU ticks a live process has used so far; `undefined` once it is gone. */
export const processCpuTicks = (pid: number): number | undefined => parseProcStat(readOr(`/proc/${pid}/stat`))

/** Resident set of a live process in bytes; `undefined` once it is gone. */
export const processRssBytes = (pid: number): number | undefined => parseVmRss(readOr(`/proc/${pid}/status`))

/** Machine-wide busy/total ticks now. */
export const machineTicks = (): MachineTicks => parseMachineStat(readOr('/proc/stat')) ?? { busy: 0, total: 0 }

/** CPU ticks used by this process's children that have exited and been reaped. */
export const childrenCpuTicks = (): number => parseProcStat(readOr('/proc/self/stat'), 16) ?? 0

/**
 * Scheduler times of one thread of a live process (`tid` = `pid`: its main thread, where a
 * JavaScript runtime runs the event loop); `undefined` once it is gone.
 */
export const threadSchedTimes = (pid: number, tid = pid): SchedTimes | undefined => parseSchedStat(readOr(`/proc/${pid}/task/${tid}/schedstat`))

/** The thread ids of a live process (empty once it is gone). */
export const threadIds = (pid: number): number[] => {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number).filter((tid) => Number.isInteger(tid))
  } catch {
    return []
  }
}
