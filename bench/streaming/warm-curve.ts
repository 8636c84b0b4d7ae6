/**
 * The download's warm-up curve: for each contender, a fresh server (pinned to CPU 0 by
 * `load/start-server.ts`, with `--expose-gc` like the bench's), then `runs` downloads of the
 * full size in a row, each printed as MiB/s and server CPU ms per GiB; at the end, per
 * contender, the median of the first (cold) runs and of the last runs over the rounds. It shows
 * how many downloads a server needs before its per-chunk path is compiled (Session 10: one
 * 16 MiB warm-up was not enough for twinport) and so how long `bench/streaming.ts`'s warm-up
 * must be. Not part of any harness.
 *
 *   node --import tsx bench/streaming/warm-curve.ts [runs=5] [rounds=2] [contenders=twinport,raw-net,node-http] [chunks=4096]
 *
 * Servers run compiled when `bench/.tmp/dist/bench/peers/` holds them (`npx tsc -p
 * tsconfig.bench.json`, or a run of bench/streaming.ts), else from source under tsx (the
 * output says which). This process pins itself to CPU 1. Loopback only; at most 20 runs and
 * 10 rounds; each download given up after 60 s; every server stopped at exit.
 */
import { existsSync } from 'node:fs'
import { CLK_TCK, processCpuTicks } from '../load/proc.js'
import { pinSelf } from '../load/own-cpu.js'
import { LIVE, startServer } from '../load/start-server.js'
import { download } from './download-client.js'

const MIB = 1024 * 1024
const SCRIPTS: Record<string, string> = { twinport: 'stream-twinport', 'raw-net': 'stream-raw-net', 'node-http': 'stream-node-http' }
const bounded = (text: string | undefined, fallback: number, max: number): number => {
  const v = Number(text ?? fallback)
  return Number.isInteger(v) && v > 0 ? Math.min(v, max) : fallback
}
const runs = bounded(process.argv[2], 5, 20)
const rounds = bounded(process.argv[3], 2, 10)
const contenders = (process.argv[4] ?? 'twinport,raw-net,node-http').split(',').filter((c) => c in SCRIPTS)
const chunks = bounded(process.argv[5], 4096, 1 << 20)
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN

const scriptOf = (contender: string): string => {
  const js = `bench/.tmp/dist/bench/peers/${SCRIPTS[contender]}.js`
  return existsSync(js) ? js : `bench/peers/${SCRIPTS[contender]}.ts`
}
process.on('exit', () => {
  for (const child of LIVE) child.kill('SIGKILL')
})
pinSelf(1)

const first = new Map<string, number[]>()
const last = new Map<string, number[]>()
for (let round = 1; round <= rounds; round++) {
  for (const contender of contenders) {
    const server = await startServer(scriptOf(contender), 20_000, ['--expose-gc'])
    if (typeof server === 'string') {
      console.log(`${contender}: did not start: ${server}`)
      continue
    }
    const row: string[] = []
    for (let i = 0; i < runs; i++) {
      const c0 = processCpuTicks(server.pid) ?? Number.NaN
      const d = await download(server.port, `/stream?chunks=${chunks}&size=65536`, 60_000)
      const c1 = processCpuTicks(server.pid) ?? Number.NaN
      if (!d.complete) {
        row.push(`FAILED (${d.error ?? 'incomplete'})`)
        break
      }
      const mibs = d.bodyBytes / MIB / (d.ms / 1000)
      if (i === 0) first.set(contender, [...(first.get(contender) ?? []), mibs])
      if (i === runs - 1) last.set(contender, [...(last.get(contender) ?? []), mibs])
      row.push(`${mibs.toFixed(0)} MiB/s ${(((c1 - c0) * 1000) / CLK_TCK / (d.bodyBytes / (1024 * MIB))).toFixed(0)} ms/GiB`)
    }
    await server.stop()
    console.log(`round ${round} ${contender.padEnd(10)} (${scriptOf(contender)}): ${row.join(' | ')}`)
  }
}
for (const contender of contenders) {
  console.log(`${contender.padEnd(10)} first run median ${median(first.get(contender) ?? []).toFixed(0)} MiB/s, run ${runs} median ${median(last.get(contender) ?? []).toFixed(0)} MiB/s`)
}
