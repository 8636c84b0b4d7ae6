/**
 * A server's RSS growth over one measured run, from Linux `/proc`: the resident set before
 * (`VmRSS`), then the peak during the run, taken two ways and the larger kept: the kernel's
 * high-water mark (`VmHWM`, reset to the current RSS by writing `5` to `/proc/<pid>/clear_refs`
 * at the start, where allowed) and `VmRSS` sampled every few milliseconds (what is left when
 * the reset is not allowed, where `VmHWM` would count from the process's start).
 */
import { readFileSync, writeFileSync } from 'node:fs'

/** What a meter measured, in bytes. */
export interface RssGrowth {
  readonly before: number
  readonly peak: number
  /** peak − before. */
  readonly growth: number
  /** Whether the kernel's peak was reset at the start (else it is the sampled peak alone). */
  readonly exactPeak: boolean
}

const statusKb = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m?.[1] === undefined ? Number.NaN : Number(m[1]) * 1024
  } catch {
    return Number.NaN
  }
}

/**
 * Starts measuring `pid`; `stop()` answers the growth.
 *
 * @example
 * const meter = startRssMeter(server.pid)
 * await download(...)
 * const { growth } = meter.stop()
 */
export const startRssMeter = (pid: number, everyMs = 5): { stop(): RssGrowth } => {
  let exactPeak = true
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {
    exactPeak = false
  }
  const before = statusKb(pid, 'VmRSS')
  let sampled = before
  const timer = setInterval(() => {
    const now = statusKb(pid, 'VmRSS')
    if (now > sampled) sampled = now
  }, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      const now = statusKb(pid, 'VmRSS')
      const hwm = exactPeak ? statusKb(pid, 'VmHWM') : Number.NaN
      const peak = Math.max(sampled, now, Number.isNaN(hwm) ? 0 : hwm)
      return { before, peak, growth: peak - before, exactPeak: exactPeak && !Number.isNaN(hwm) }
    },
  }
}
