/**
 * Benchmark helper (not a test): what the two-contender request benches (`server-requests.ts`,
 * `fallback-acks.ts`) share: their rounds, each contender's server started afresh and driven
 * in an order that alternates per round; the median and count formats of their tables; and
 * the printing and saving of their report. Must not be imported by lib/ or spec/.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { type RunningServer, startServer } from './start-server.js'

/** The median of `xs` (NaN when empty). */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/** A count as a whole number with thousands separators ('n/a' when not finite). */
export const int = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a')

/** How one contender's server is started in a round. */
export interface Contender {
  readonly script: string
  readonly flags?: readonly string[]
  readonly env?: Readonly<Record<string, string>>
}

/**
 * `rounds` rounds over `sides` (in order on even rounds, reversed on odd ones): each side's
 * server started afresh, `drive`n, stopped. Answers each side's runs and why others failed.
 */
export const pairedRounds = async <Side extends string, R>(
  sides: readonly Side[],
  rounds: number,
  contender: (side: Side) => Contender,
  drive: (side: Side, server: RunningServer, round: number) => Promise<R>,
): Promise<{ readonly runs: Record<Side, R[]>; readonly failures: string[] }> => {
  const runs = Object.fromEntries(sides.map((side) => [side, [] as R[]])) as Record<Side, R[]>
  const failures: string[] = []
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const { script, flags = [], env = {} } = contender(side)
      const server = await startServer(script, 20_000, flags, env)
      if (typeof server === 'string') {
        failures.push(`round ${round + 1}, ${side}: ${server}`)
        continue
      }
      try {
        runs[side].push(await drive(side, server, round))
      } catch (error) {
        failures.push(`round ${round + 1}, ${side}: ${error instanceof Error ? error.message : String(error)}`)
      } finally {
        await server.stop()
      }
    }
  }
  return { runs, failures }
}

/** Prints the report and writes it to `out` (its directory made). */
export const writeReport = (md: string, out: string): void => {
  console.log(md)
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, md)
}
