/**
 * What building one `Response` costs the runtime this runs in (Deno or Bun; Node too), shape by
 * shape, in one process with no socket: the same JSON body and answer headers (`Content-Type`
 * alone, or with the CORS grant) given as a record, as pairs, as a fresh or a shared `Headers`,
 * set on the answer's `headers` after it is built, as bytes, through `Response.json`. Building
 * is only part of an answer's cost (Deno builds its native response for a two-header answer at
 * construction, but sends it later), so this ranks shapes; `bench/deno-shapes.ts` serves them.
 * Rounds interleave the shapes; each figure is the median over rounds of the process's CPU time
 * per Response (`process.cpuUsage`, which a loaded machine moves less than the wall clock).
 * Bench code: node:process is fine here.
 *
 *   node_modules/deno/deno run -A --sloppy-imports bench/embed/response-build.ts [rounds] [perRound]
 *   node_modules/bun/bin/bun.exe bench/embed/response-build.ts [rounds] [perRound]
 */
import process from 'node:process'
import { answerShapes } from './answer-shapes.js'


const shapes = answerShapes

const args = (globalThis as { Deno?: { args: string[] } }).Deno?.args ?? process.argv.slice(2)
const ROUNDS = Number(args[0] ?? 7)
const PER_ROUND = Number(args[1] ?? 50_000)
const names = Object.keys(shapes)
const per = new Map<string, number[]>(names.map((n) => [n, []]))
let keep = 0
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? names : [...names].reverse()
  for (const name of order) {
    const build = shapes[name]!
    const before = process.cpuUsage()
    for (let i = 0; i < PER_ROUND; i++) keep += build().status
    const used = process.cpuUsage(before)
    per.get(name)!.push(((used.user + used.system) * 1000) / PER_ROUND)
  }
}
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const base = median(per.get('const')!)
const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node'
console.log(`${runtime}: ${ROUNDS} rounds × ${PER_ROUND} Responses (checksum ${keep})`)
console.log('| shape | CPU ns per Response (median) | vs const |')
console.log('|---|---|---|')
for (const name of names) console.log(`| ${name} | ${median(per.get(name)!).toFixed(0)} | ${(median(per.get(name)!) / base).toFixed(2)}× |`)
