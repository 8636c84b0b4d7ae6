/**
 * What makes a `Deno.serve` answer slow, each candidate in isolation (bench/embed/deno-shapes-server.ts):
 * reading the request's headers (touched, one `get`, all copied) and the shape of the answer's
 * headers (one `Content-Type`; a second header as a record, lower case, pairs, a `Headers`
 * object, with `Vary`, a bytes body, `Response.json`). Keep-alive load from `wrk -t1 -c50`
 * after a 1 s warm-up; rounds rotate the order. Besides requests per second (which swing with
 * the machine's load), the server's own CPU time per request (utime + stime from
 * `/proc/<pid>/stat` over the measured window, every thread of the process), which survives
 * load far better; both as medians, with the ratio to `const` in the same run. Needs `wrk`.
 *
 * `--host bun` runs the same handlers under `Bun.serve`; `--paired` loads every shape's server
 * at the same time each round (bench/embed/paired-contenders.ts: each meets the same moment of
 * the machine's load; compare CPU per request, not rates) (session 13).
 *
 *   node --import tsx bench/deno-shapes.ts [--rounds 3] [--seconds 3] [--host deno|bun] [--shapes const,cors-record,...]
 */
import { loadavg } from 'node:os'
import { runFetchContender, median } from './embed/fetch-contender.js'
import { runPaired } from './embed/paired-contenders.js'

const at = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? undefined : process.argv[i + 1]
}
const ROUNDS = Number(at('rounds') ?? 3)
const SECONDS = Number(at('seconds') ?? 3)
const ALL = ['const', 'req-touch', 'req-get', 'req-copy', 'req-get-cors', 'const-fresh', 'cors-fresh', 'cors-built', 'const-arg', 'cors-arg', 'cors-record', 'cors-lower', 'cors-pairs', 'cors-headers', 'cors-vary', 'cors-bytes', 'cors-json', 'one-other', 'cors-shared', 'cors-clone', 'cors-set', 'cors-append', 'cors-set2', 'cors-bytes-set', 'cors-json-set']
const SHAPES = (at('shapes') ?? ALL.join(',')).split(',')
const SCRIPT = 'bench/embed/deno-shapes-server.ts'
const HOST = at('host') ?? 'deno'
const command = (shape: string): readonly string[] =>
  HOST === 'bun' ? ['node_modules/bun/bin/bun.exe', SCRIPT, shape] : ['node_modules/deno/deno', 'run', '-A', '--sloppy-imports', SCRIPT, shape]

const PAIRED = process.argv.includes('--paired')
const rates = new Map<string, number[]>()
const cpu = new Map<string, number[]>()
const loads: string[] = []
if (PAIRED) {
  const runs = await runPaired(Object.fromEntries(SHAPES.map((shape) => [shape, command(shape)])), ROUNDS, SECONDS, () => loads.push(loadavg()[0]!.toFixed(1)))
  for (const shape of SHAPES) {
    rates.set(shape, [...runs.rates.get(shape)!])
    cpu.set(shape, [...runs.cpu.get(shape)!])
    console.error(`${shape}: µs CPU/request by round ${runs.cpu.get(shape)!.map((c) => c.toFixed(1)).join(', ')}`)
  }
}
for (let round = 0; round < (PAIRED ? 0 : ROUNDS); round++) {
  const turned = [...SHAPES.slice(round % SHAPES.length), ...SHAPES.slice(0, round % SHAPES.length)]
  loads.push(loadavg()[0]!.toFixed(1))
  for (const shape of round % 2 === 0 ? turned : turned.reverse()) {
    const run = await runFetchContender(command(shape), SECONDS)
    rates.set(shape, [...(rates.get(shape) ?? []), run.rate])
    cpu.set(shape, [...(cpu.get(shape) ?? []), run.cpuMicros])
    console.error(`round ${round + 1} ${shape}: ${Math.round(run.rate)} req/s, ${run.cpuMicros.toFixed(1)} µs CPU/request`)
  }
}
loads.push(loadavg()[0]!.toFixed(1))

const base = { rate: median(rates.get('const') ?? [NaN]), cpu: median(cpu.get('const') ?? [NaN]) }
console.log(`${HOST}${PAIRED ? ' (paired)' : ''}: load average (1 min) at each round's start and at the end: ${loads.join(', ')}`)
console.log('')
console.log('| shape | req/s | vs const | server CPU µs/request | vs const |')
console.log('|---|---|---|---|---|')
for (const shape of SHAPES) {
  const r = median(rates.get(shape)!)
  const c = median(cpu.get(shape)!)
  console.log(`| ${shape} | ${Math.round(r).toLocaleString('en')} | ${(r / base.rate).toFixed(2)}× | ${c.toFixed(1)} | ${(c / base.cpu).toFixed(2)}× |`)
}
