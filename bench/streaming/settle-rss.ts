/**
 * A settled RSS baseline for the streaming bench: asks a peer server for a full GC (`SIGUSR2`,
 * handled by `bench/peers/gc-on-signal.ts` when the server runs with `--expose-gc`), then
 * samples its `VmRSS` every 100 ms until three samples in a row lie within 256 KiB of each
 * other, or `maxMs` passed. Only signal servers that import that hook: Node's default action
 * for SIGUSR2 ends the process. Linux only (`/proc`).
 */
import { processRssBytes } from '../load/proc.js'

/** Where the RSS settled, in bytes, and whether it did within the time. */
export interface Settled {
  readonly rss: number
  readonly settled: boolean
  readonly waitedMs: number
}

const STABLE_BYTES = 256 * 1024
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * Collects and waits, as above. `gc` false skips the signal (a server without the hook).
 *
 * @example const { rss } = await settleRss(server.pid, true, 3000)
 */
export const settleRss = async (pid: number, gc: boolean, maxMs = 3000): Promise<Settled> => {
  const start = Date.now()
  if (gc) {
    try {
      process.kill(pid, 'SIGUSR2')
    } catch {
      // Gone: the samples below say so (NaN).
    }
  }
  const samples: number[] = []
  for (;;) {
    await sleep(100)
    samples.push(processRssBytes(pid) ?? Number.NaN)
    const last = samples.slice(-3)
    const waitedMs = Date.now() - start
    const rss = samples[samples.length - 1] as number
    if (last.length === 3 && Math.max(...last) - Math.min(...last) <= STABLE_BYTES) return { rss, settled: true, waitedMs }
    if (Number.isNaN(rss) || waitedMs >= maxMs) return { rss, settled: false, waitedMs }
  }
}
