/**
 * Paired runs for the embedding benches (`embed-fetch.ts --paired`, `deno-shapes.ts --paired`):
 * every contender's server is started once, and each round loads all of them at the same time
 * (one `wrk -t1 -c50` each, for the same window), so every contender meets the same moment of
 * a loaded machine; the figure that counts is each server's own CPU time per request over the
 * window (`/proc/<pid>/stat`), median over rounds. Rates are printed too, but contenders that
 * run at once share the cores, so a rate is only comparable within a round. Every server is
 * killed at the end, whatever happens. Bench code.
 */
import type { ChildProcess } from 'node:child_process'
import { CLK_TCK, processCpuTicks } from '../load/proc.js'
import { start, stop, wrk } from './fetch-contender.js'

/** What each contender measured, round by round. */
export interface PairedRuns {
  readonly rates: ReadonlyMap<string, readonly number[]>
  /** Server CPU time per request, in µs, per round. */
  readonly cpu: ReadonlyMap<string, readonly number[]>
}

/**
 * Runs `contenders` (name → server command) `rounds` times, all at once each round.
 *
 * @example
 * const { cpu } = await runPaired({ a: ['deno', 'run', '-A', 'a.ts'], b: ['deno', 'run', '-A', 'b.ts'] }, 3, 2)
 */
export const runPaired = async (contenders: Readonly<Record<string, readonly string[]>>, rounds: number, seconds: number, onRound?: (round: number) => void): Promise<PairedRuns> => {
  const servers = new Map<string, { child: ChildProcess; port: number }>()
  const rates = new Map<string, number[]>()
  const cpu = new Map<string, number[]>()
  try {
    for (const [name, command] of Object.entries(contenders)) servers.set(name, await start(command))
    for (const [name, { port }] of servers) {
      const check = await (await fetch(`http://127.0.0.1:${port}/hello`)).text()
      if (check !== '{"hello":"world"}') throw new Error(`${name}: unexpected answer ${check}`)
    }
    await Promise.all([...servers.values()].map(({ port }) => wrk(port, 1))) // warm-up
    for (let round = 0; round < rounds; round++) {
      onRound?.(round)
      const before = new Map([...servers].map(([name, { child }]) => [name, processCpuTicks(child.pid!) ?? NaN]))
      const runs = await Promise.all([...servers].map(async ([name, { port, child }]) => {
        const run = await wrk(port, seconds)
        return { name, run, after: processCpuTicks(child.pid!) ?? NaN }
      }))
      for (const { name, run, after } of runs) {
        rates.set(name, [...(rates.get(name) ?? []), run.rate])
        cpu.set(name, [...(cpu.get(name) ?? []), (((after - before.get(name)!) / CLK_TCK) * 1e6) / run.requests])
      }
    }
    return { rates, cpu }
  } finally {
    for (const { child } of servers.values()) await stop(child)
  }
}
