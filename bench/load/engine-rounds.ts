/**
 * The in-process engine benchmarks' measure (bench/http-engine.ts, bench/ws-echo-engine.ts):
 * this process's CPU time per operation over rounds of a fixed CPU budget, after one
 * round of warm-up, sorted so that the min and the median read off the ends.
 */

/** This process's CPU time so far (user + system), in ns. */
export const cpuNs = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) * 1000
}

/**
 * ns of CPU per operation of `step` (which returns how many operations it did), over
 * `rounds` rounds of `ms` of CPU each, after one warm-up round; sorted, fastest first.
 */
export const cpuRounds = (step: () => number, rounds: number, ms: number): number[] => {
  const round = (): number => {
    let ops = 0
    const start = cpuNs()
    let elapsed = 0
    while (elapsed < ms * 1e6) {
      for (let i = 0; i < 20; i++) ops += step()
      elapsed = cpuNs() - start
    }
    return elapsed / ops
  }
  round() // warm-up
  return Array.from({ length: rounds }, round).sort((a, b) => a - b)
}

/** `min X unit, median Y unit` of sorted figures. */
export const minMedian = (figures: readonly number[], unit: string): string =>
  `min ${figures[0]!.toFixed(0)} ${unit}, median ${figures[figures.length >> 1]!.toFixed(0)} ${unit}`
