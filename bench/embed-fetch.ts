/**
 * Issue 24's `toFetch` bench: twinport's `toFetch` against Hono's own router answering the
 * same JSON route (`GET /hello`), each as a fetch handler under the same host in the same run
 * (bench/embed/fetch-server.ts): `@hono/node-server` on Node, `Bun.serve` on Bun, `Deno.serve`
 * on Deno. Four contenders: twinport's defaults (CORS for any origin: an
 * `Access-Control-Allow-Origin: *` header), twinport with `cors: false`, a bare Hono app, and
 * Hono with `cors()` (the same header); each twinport one is compared with the Hono one that
 * sends the same answer, and the defaults with bare Hono (the issue's figure). A fifth,
 * `twinport-record` (the defaults with the answer's headers as a record, as before session 13),
 * gives the before/after of the host's own way of building the answer in the same run. Every contender
 * runs the same way (TypeScript run directly by the host, tsx on Node). Keep-alive load from
 * `wrk -t1 -c50` on loopback after a 1 s warm-up; rounds rotate the order of the contenders;
 * figures are medians: requests per second, and the server's own CPU time per request
 * (`/proc/<pid>/stat` over the window: it moves far less with the machine's load than the rate;
 * its ratio is printed inverted, so above 1× means twinport spends less), with the load average
 * at each round (bench/embed/fetch-contender.ts). Bounded: wrk runs for the window, every server is killed after its run.
 * Needs `wrk` (Debian package).
 *
 * `--paired` (session 13) starts every contender of a host once and loads them all at the same
 * time each round (bench/embed/paired-contenders.ts), so each meets the same moment of a loaded
 * machine: compare the CPU per request then; the rates share the cores.
 *
 *   node --import tsx bench/embed-fetch.ts [--paired] [--rounds 2] [--seconds 3] [--hosts node,bun,deno] [--contenders twinport,hono,...]
 */
import { loadavg } from 'node:os'
import { median, runFetchContender } from './embed/fetch-contender.js'
import { runPaired } from './embed/paired-contenders.js'

const at = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? undefined : process.argv[i + 1]
}
const ROUNDS = Number(at('rounds') ?? 2)
const SECONDS = Number(at('seconds') ?? 3)
const HOSTS = (at('hosts') ?? 'node,bun,deno').split(',') as Host[]
const ALL = ['twinport', 'hono', 'twinport-nocors', 'hono-cors', 'twinport-record', 'twinport-bare', 'bare', 'hono-loaded'] as const
type Contender = (typeof ALL)[number]
const CONTENDERS = (at('contenders') ?? ALL.join(',')).split(',') as Contender[]
// The ratios printed: each twinport contender against the Hono app giving the same answer on the
// wire (twinport's default CORS header against Hono's `cors()`; neither), and the issue's own
// (twinport's defaults against a bare Hono app).
const PAIRS: readonly (readonly [Contender, Contender, string])[] = [
  ['twinport', 'hono', 'twinport defaults / bare Hono (the issue\'s)'],
  ['twinport', 'hono-cors', 'twinport defaults / Hono + cors() (same answer)'],
  ['twinport-nocors', 'hono', 'twinport cors: false / bare Hono (same answer)'],
  ['twinport', 'twinport-record', 'twinport defaults / the same built as a record (session 12)'],
  ['twinport-bare', 'hono', 'twinport cors: false, metrics: false / bare Hono'],
  ['hono', 'bare', 'bare Hono / a handler with no framework'],
  ['twinport-bare', 'hono-loaded', 'twinport cors: false, metrics: false / bare Hono beside an unused twinport app'],
  ['hono-loaded', 'hono', 'bare Hono beside an unused twinport app / bare Hono'],
]
type Host = 'node' | 'bun' | 'deno'

const SCRIPT = 'bench/embed/fetch-server.ts'
const commands: Record<Host, (which: Contender) => readonly string[]> = {
  node: (which) => [process.execPath, '--import', 'tsx', SCRIPT, which],
  bun: (which) => ['node_modules/bun/bin/bun.exe', SCRIPT, which],
  deno: (which) => ['node_modules/deno/deno', 'run', '-A', '--sloppy-imports', '--node-modules-dir=manual', SCRIPT, which],
}

const rates = new Map<string, number[]>()
const cpu = new Map<string, number[]>()
const loads: string[] = []
const failed = new Map<Host, string>()
const PAIRED = process.argv.includes('--paired')
for (const host of PAIRED ? HOSTS : []) {
  try {
    const runs = await runPaired(Object.fromEntries(CONTENDERS.map((which) => [which, commands[host](which)])), ROUNDS, SECONDS, (round) =>
      loads.push(`${host} round ${round + 1}: ${loadavg()[0]!.toFixed(1)}`),
    )
    for (const which of CONTENDERS) {
      rates.set(`${host} ${which}`, [...runs.rates.get(which)!])
      cpu.set(`${host} ${which}`, [...runs.cpu.get(which)!])
      console.error(`${host} ${which}: µs server CPU/request by round ${runs.cpu.get(which)!.map((c) => c.toFixed(1)).join(', ')}`)
    }
  } catch (error) {
    failed.set(host, String(error))
    console.error(`${host}: not measured: ${String(error)}`)
  }
}
for (const host of PAIRED ? [] : HOSTS) {
  for (let round = 0; round < ROUNDS && !failed.has(host); round++) {
    // Each round starts with another contender and alternates direction.
    const turned = [...CONTENDERS.slice(round % CONTENDERS.length), ...CONTENDERS.slice(0, round % CONTENDERS.length)]
    loads.push(`${host} round ${round + 1}: ${loadavg()[0]!.toFixed(1)}`)
    for (const which of round % 2 === 0 ? turned : turned.reverse()) {
      try {
        const run = await runFetchContender(commands[host](which), SECONDS)
        rates.set(`${host} ${which}`, [...(rates.get(`${host} ${which}`) ?? []), run.rate])
        cpu.set(`${host} ${which}`, [...(cpu.get(`${host} ${which}`) ?? []), run.cpuMicros])
        console.error(`round ${round + 1} ${host} ${which}: ${Math.round(run.rate)} req/s, ${run.cpuMicros.toFixed(1)} µs server CPU/request`)
      } catch (error) {
        failed.set(host, String(error))
        console.error(`${host}: not measured: ${String(error)}`)
        break
      }
    }
  }
}
loads.push(`end: ${loadavg()[0]!.toFixed(1)}`)

console.log(`${PAIRED ? 'paired; ' : ''}load average (1 min): ${loads.join(', ')}`)
console.log('')
console.log(`| host | ${CONTENDERS.map((c) => `${c} (req/s)`).join(' | ')} |`)
console.log(`|---|${CONTENDERS.map(() => '---').join('|')}|`)
for (const host of HOSTS) {
  if (failed.has(host)) console.log(`| ${host} | not measured: ${failed.get(host)} |`)
  else console.log(`| ${host} | ${CONTENDERS.map((c) => `${Math.round(median(rates.get(`${host} ${c}`) ?? [NaN])).toLocaleString('en')} (${median(cpu.get(`${host} ${c}`) ?? []).toFixed(1)} µs)`).join(' | ')} |`)
}
console.log('')
console.log('| host | ratio | req/s ratio | server CPU per request, inverse ratio |')
console.log('|---|---|---|---|')
for (const host of HOSTS) {
  for (const [a, b, what] of PAIRS) {
    const x = rates.get(`${host} ${a}`)
    const y = rates.get(`${host} ${b}`)
    const cx = cpu.get(`${host} ${a}`)
    const cy = cpu.get(`${host} ${b}`)
    if (x !== undefined && y !== undefined && cx !== undefined && cy !== undefined) {
      console.log(`| ${host} | ${what} | **${(median(x) / median(y)).toFixed(2)}×** | **${(median(cy) / median(cx)).toFixed(2)}×** |`)
    }
  }
}
