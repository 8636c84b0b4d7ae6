/**
 * What checking a request costs (issue 27, "Measured"): a typed `POST /users` with a small
 * JSON body (bench/validation/user-body.ts) checked by io-ts, Zod and Valibot in twinport,
 * beside Fastify with its JSON Schema (Ajv) and Hono with `@hono/zod-validator`, in the same
 * run. Each server is pinned to CPU 0 (bench/load/start-server.ts) and loaded over loopback
 * (127.0.0.1 only) by `wrk -t1 -c50` pinned to CPU 1, with bench/validation/post-user.lua
 * posting the body; each run is bounded (`--ms`). Rounds rotate the order of the contenders.
 * Before measuring, each contender must answer the body with `{"ok":true,…}` and refuse a
 * body that does not fit (so validation is on). Prints medians, server CPU per request and
 * the ratios: each twinport contender against Fastify, and twinport with Zod against Hono
 * with Zod (the same schema library).
 *
 * twinport runs compiled (tsc -p tsconfig.bench.json, as the other benches run it); `--source`
 * runs it under tsx, `--no-build` takes the compiled output already there. The peers' few lines of glue run under tsx (their libraries are plain JS).
 *
 *   node --import tsx bench/validation.ts                          # 3 rounds, 4 s windows
 *   node --import tsx bench/validation.ts --rounds 1 --ms 2000     # a short run
 *   node --import tsx bench/validation.ts --contenders twinport-zod,hono-zod
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { CLK_TCK, processCpuTicks } from './load/proc.js'
import { waitForQuiet } from './load/quiet.js'
import { LIVE, type RunningServer, startServer } from './load/start-server.js'
import { parseWrk } from './load/wrk-output.js'
import { BAD_BODY, USER_ANSWER, USER_BODY } from './validation/user-body.js'

const { values: opt } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    ms: { type: 'string', default: '4000' },
    warmup: { type: 'string', default: '1000' },
    contenders: { type: 'string' },
    source: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
})
const rounds = Number(opt.rounds)
const seconds = Math.max(1, Math.round(Number(opt.ms) / 1000))
const warmup = Math.max(1, Math.round(Number(opt.warmup) / 1000))
const STARTUP_MS = 30_000

interface Contender {
  readonly id: string
  readonly script: string
  readonly env: Readonly<Record<string, string>>
}

const build = (): boolean => {
  if (opt.source) return false
  if (opt['no-build'] && existsSync('bench/.tmp/dist/bench/peers/validation-twinport.js')) return true
  console.error('compiling (tsc -p tsconfig.bench.json)…')
  return spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json'], { stdio: 'inherit', timeout: 300_000 }).status === 0
}

const contenders = (built: boolean): readonly Contender[] => {
  const twinport = built ? 'bench/.tmp/dist/bench/peers/validation-twinport.js' : 'bench/peers/validation-twinport.ts'
  return [
    { id: 'twinport-io-ts', script: twinport, env: { SCHEMA: 'io-ts' } },
    { id: 'twinport-zod', script: twinport, env: { SCHEMA: 'zod' } },
    { id: 'twinport-valibot', script: twinport, env: { SCHEMA: 'valibot' } },
    { id: 'fastify-json-schema', script: 'bench/peers/validation-fastify.ts', env: {} },
    { id: 'hono-zod', script: 'bench/peers/validation-hono.ts', env: {} },
  ]
}

// One request of each kind: the body answered as expected, the bad body refused with a 4xx.
const probe = async (port: number): Promise<string | undefined> => {
  const post = (body: string): Promise<Response> =>
    fetch(`http://127.0.0.1:${port}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const good = await post(USER_BODY)
  const text = await good.text()
  if (good.status !== 200 || JSON.stringify(JSON.parse(text)) !== USER_ANSWER) return `answered ${good.status} ${text.slice(0, 100)}`
  const bad = await post(BAD_BODY)
  await bad.arrayBuffer()
  return bad.status >= 400 && bad.status < 500 ? undefined : `a body that does not fit got ${bad.status}`
}

const wrk = (port: number, duration: number): ReturnType<typeof spawnSync> =>
  spawnSync(
    'taskset',
    ['-c', '1', 'wrk', '-t1', '-c50', `-d${duration}s`, '--timeout', '4s', '-s', 'bench/validation/post-user.lua', `http://127.0.0.1:${port}/users`, '--', USER_BODY],
    { encoding: 'utf8' },
  )

interface Run {
  readonly contender: string
  readonly round: number
  readonly rps: number
  readonly cpuUsPerRequest: number
  readonly errors: number
  readonly busyBefore: number
}

const measure = (server: RunningServer, contender: string, round: number, busyBefore: number): Run | string => {
  wrk(server.port, warmup)
  const cpu0 = processCpuTicks(server.pid)
  const ran = wrk(server.port, seconds)
  const cpu1 = processCpuTicks(server.pid)
  const result = parseWrk(String(ran.stdout ?? ''))
  if (result === undefined || result.requests === 0) return `wrk failed: ${String(ran.stderr || ran.stdout || '').trim().slice(0, 200)}`
  const ticks = cpu0 === undefined || cpu1 === undefined ? Number.NaN : cpu1 - cpu0
  return {
    contender,
    round,
    rps: result.requestsPerSecond,
    cpuUsPerRequest: (ticks * (1e6 / CLK_TCK)) / result.requests,
    errors: result.socketErrors + result.non2xx,
    busyBefore,
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

process.on('exit', () => {
  for (const child of LIVE) child.kill('SIGKILL')
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))

const main = async (): Promise<void> => {
  if (spawnSync('wrk', ['--version']).error !== undefined) throw new Error('wrk is not installed (apt-get install -y wrk)')
  const only = opt.contenders?.split(',')
  const all = contenders(build()).filter((c) => only === undefined || only.includes(c.id))
  const runs: Run[] = []
  const failures: string[] = []
  for (let round = 0; round < rounds; round++) {
    for (const contender of all.map((_, i) => all[(i + round) % all.length] as Contender)) {
      const server = await startServer(contender.script, STARTUP_MS, [], contender.env)
      if (typeof server === 'string') {
        failures.push(`${contender.id}: ${server}`)
        continue
      }
      try {
        const wrong = await probe(server.port)
        if (wrong !== undefined) {
          failures.push(`${contender.id}: ${wrong}`)
          continue
        }
        const quiet = await waitForQuiet(3000)
        const run = measure(server, contender.id, round, quiet.busyCores)
        if (typeof run === 'string') failures.push(`${contender.id}: ${run}`)
        else runs.push(run)
        console.error(
          `round ${round + 1}/${rounds} ${contender.id}: ${typeof run === 'string' ? run : `${Math.round(run.rps)} req/s, ${run.cpuUsPerRequest.toFixed(1)} µs CPU/req`}${quiet.quiet ? '' : ` (machine busy before: ${quiet.busyCores.toFixed(2)} cores)`}`,
        )
      } finally {
        await server.stop()
      }
    }
  }
  const of = (id: string): readonly Run[] => runs.filter((r) => r.contender === id)
  const rps = (id: string): number => (of(id).length === 0 ? Number.NaN : median(of(id).map((r) => r.rps)))
  const lines = [
    `command: node --import tsx ${process.argv.slice(1).map((a) => a.replace(/^.*\/bench\//, 'bench/')).join(' ')}`,
    `${rounds} round(s), ${seconds} s windows after ${warmup} s of warm-up, wrk -t1 -c50 on CPU 1, each server alone on CPU 0; body ${USER_BODY.length} bytes`,
    '',
    '| contender | req/s (median) | min–max | server CPU µs/req | errors | busy cores before (max) |',
    '|---|---:|---|---:|---:|---:|',
    ...all.map((c) => {
      const mine = of(c.id)
      if (mine.length === 0) return `| ${c.id} | n/a | | | | |`
      const r = mine.map((m) => m.rps)
      return `| ${c.id} | ${Math.round(rps(c.id)).toLocaleString('en')} | ${Math.round(Math.min(...r)).toLocaleString('en')}–${Math.round(Math.max(...r)).toLocaleString('en')} | ${median(mine.map((m) => m.cpuUsPerRequest)).toFixed(1)} | ${mine.reduce((s, m) => s + m.errors, 0)} | ${Math.max(...mine.map((m) => m.busyBefore)).toFixed(2)} |`
    }),
    '',
    '| ratio | value | target |',
    '|---|---:|---|',
    ...['twinport-io-ts', 'twinport-zod', 'twinport-valibot'].map(
      (id) => `| ${id} / fastify-json-schema | ${(rps(id) / rps('fastify-json-schema')).toFixed(2)}× | ≥ 1.5× |`,
    ),
    `| twinport-zod / hono-zod (same library) | ${(rps('twinport-zod') / rps('hono-zod')).toFixed(2)}× | |`,
    ...(failures.length > 0 ? ['', 'not measured:', ...failures.map((f) => `- ${f}`)] : []),
  ]
  console.log(lines.join('\n'))
}

await main()
