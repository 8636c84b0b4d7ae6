/**
 * Waits until the machine is quiet before a measured run: busy CPU over short
 * windows of `/proc/stat`, in cores, below a threshold. Other engineers share
 * this machine, so it gives up after a while and says the run may be disturbed.
 */
import { machineTicks } from './proc.js'

/** How the wait ended. */
export interface Quiet {
  readonly quiet: boolean
  /** busy cores (0..nproc) in the last window. */
  readonly busyCores: number
  readonly waitedMs: number
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * Samples 300 ms windows until one shows less than `maxBusyCores` busy, or
 * `maxWaitMs` passed.
 */
export const waitForQuiet = async (maxWaitMs: number, maxBusyCores = 0.25, cores = 2): Promise<Quiet> => {
  const start = Date.now()
  let busyCores = Number.NaN
  for (;;) {
    const a = machineTicks()
    await sleep(300)
    const b = machineTicks()
    const total = b.total - a.total
    busyCores = total > 0 ? ((b.busy - a.busy) / total) * cores : 0
    const waitedMs = Date.now() - start
    if (busyCores < maxBusyCores) return { quiet: true, busyCores, waitedMs }
    if (waitedMs >= maxWaitMs) return { quiet: false, busyCores, waitedMs }
  }
}
