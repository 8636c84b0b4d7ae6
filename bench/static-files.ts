/**
 * Static files and HTTP compression under load (issue 30, "Measured"). Every workload is
 * `wrk -t1 -c50` over keep-alive (pinned to CPU 1) against one server pinned to CPU 0
 * (bench/load/start-server.ts), in interleaved rounds: each round starts every contender in
 * turn (the order rotated each round), checks one answer of each workload (bench/static/probe.ts),
 * then measures them (a warm-up, then the window). The workloads and targets are data in
 * bench/static/workloads.ts; the report (medians, min–max, server CPU per request, how busy the
 * rest of the machine was, ratios and targets) is bench/static/render-static.ts's.
 *
 * Files live in a temporary directory deleted at exit: a 1 KiB and a 1 MiB file, and a 1 GiB
 * sparse file for the 64 KiB ranges. twinport on Node runs compiled (tsc -p tsconfig.bench.json,
 * as bench/run.ts runs it); `--source` runs it under tsx.
 *
 *   npx tsx bench/static-files.ts                                   # 3 rounds, 4 s windows, everything
 *   npx tsx bench/static-files.ts --rounds 1 --ms 1000              # a smoke run
 *   npx tsx bench/static-files.ts --only file-1k,range-64k --contenders twinport,fastify-static,nginx
 *   npx tsx bench/static-files.ts --only gzip-100k,br-100k --rounds 5
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { JSON_BYTES } from './peers/compress-json.js'
import type { Runtime } from './peers/contenders.js'
import { CLK_TCK, childrenCpuTicks, machineTicks, processCpuTicks } from './load/proc.js'
import { waitForQuiet } from './load/quiet.js'
import { LIVE, type RunningServer, startServer } from './load/start-server.js'
import { parseWrk } from './load/wrk-output.js'
import { probeWorkload } from './static/probe.js'
import { renderStatic, type StaticFailure, type StaticRun } from './static/render-static.js'
import { startNginx } from './static/start-nginx.js'
import { HUGE, LARGE, RANGE_SIZE, SMALL, type StaticWorkload, TARGETS, WORKLOADS } from './static/workloads.js'

interface Contender {
  readonly id: string
  readonly kind: StaticWorkload['kind']
  readonly start: (root: string) => Promise<RunningServer | string>
}

const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? undefined : process.argv[at + 1]
}
const rounds = Number(arg('rounds') ?? 3)
const seconds = Math.max(1, Math.round(Number(arg('ms') ?? 4000) / 1000))
const warmup = Math.max(1, Math.round(Number(arg('warmup') ?? 1000) / 1000))
const quietWaitMs = Number(arg('quiet-wait') ?? 3000)
const onlyContenders = arg('contenders')?.split(',')
const onlyWorkloads = arg('only')?.split(',')
const fromSource = process.argv.includes('--source')
const outFile = arg('out') ?? join(tmpdir(), 'twinport-bench', 'static-files.md')
const CORES = 2

const STARTUP_MS = 30_000
const compiled = (name: string): string => `bench/.tmp/dist/bench/peers/${name}.js`

const build = (): boolean => {
  if (fromSource) return false
  console.error('compiling (tsc -p tsconfig.bench.json)…')
  return spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json'], { stdio: 'inherit', timeout: 300_000 }).status === 0
}

const contenders = (built: boolean): readonly Contender[] => {
  const twinportNode = (name: string): string => (built ? compiled(name) : `bench/peers/${name}.ts`)
  const peer = (id: string, kind: Contender['kind'], script: string, runtime: Runtime = 'node'): Contender => ({
    id,
    kind,
    start: (root) => startServer(script, STARTUP_MS, [], { STATIC_ROOT: root }, runtime),
  })
  return [
    peer('twinport', 'files', twinportNode('static-twinport')),
    peer('fastify-static', 'files', 'bench/peers/static-fastify.ts'),
    peer('express', 'files', 'bench/peers/static-express.ts'),
    peer('twinport-bun', 'files', 'bench/peers/static-twinport.ts', 'bun'),
    peer('bun-file', 'files', 'bench/peers/plain-bun.ts', 'bun'),
    peer('twinport-deno', 'files', 'bench/peers/static-twinport.ts', 'deno'),
    { id: 'nginx', kind: 'files', start: startNginx },
    peer('twinport', 'compression', twinportNode('compress-twinport')),
    peer('fastify-compress', 'compression', 'bench/peers/compress-fastify.ts'),
  ]
}

const wrkArgs = (port: number, workload: StaticWorkload, duration: number): string[] => [
  '-c', '1', 'wrk', '-t1', '-c50', `-d${duration}s`, '--timeout', '4s',
  ...Object.entries(workload.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
  ...(workload.ranges ? ['-s', 'bench/static/range.lua'] : []),
  `http://127.0.0.1:${port}${workload.path}`,
  ...(workload.ranges ? ['--', String(HUGE.size / RANGE_SIZE)] : []),
]

type Measured = Omit<StaticRun, 'round' | 'workload' | 'contender' | 'bodyBytes'>

const measure = (server: RunningServer, workload: StaticWorkload): Measured | string => {
  spawnSync('taskset', wrkArgs(server.port, workload, warmup), { encoding: 'utf8' })
  const server0 = processCpuTicks(server.pid)
  const machine0 = machineTicks()
  const client0 = childrenCpuTicks()
  const ran = spawnSync('taskset', wrkArgs(server.port, workload, seconds), { encoding: 'utf8' })
  const server1 = processCpuTicks(server.pid)
  const machine1 = machineTicks()
  const client1 = childrenCpuTicks()
  const result = parseWrk(ran.stdout ?? '')
  if (result === undefined || result.requests === 0) return `wrk failed: ${(ran.stderr || ran.stdout || '').trim().slice(0, 200)}`
  const serverTicks = server0 === undefined || server1 === undefined ? Number.NaN : server1 - server0
  const clientTicks = client1 - client0
  const total = machine1.total - machine0.total
  const busy = machine1.busy - machine0.busy
  const usPerTick = 1e6 / CLK_TCK
  return {
    requestsPerSecond: result.requestsPerSecond,
    errors: result.socketErrors + result.non2xx,
    serverUsPerRequest: (serverTicks * usPerTick) / result.requests,
    clientUsPerRequest: (clientTicks * usPerTick) / result.requests,
    otherCores: total > 0 ? Math.max(0, ((busy - (Number.isNaN(serverTicks) ? 0 : serverTicks) - clientTicks) / total) * CORES) : Number.NaN,
  }
}

let root: string | undefined
const cleanUp = (): void => {
  for (const child of LIVE) child.kill('SIGKILL')
  if (root !== undefined) spawnSync('rm', ['-rf', root])
}
process.on('exit', cleanUp)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))

const makeFiles = async (dir: string): Promise<void> => {
  // A script-like text, not one byte repeated; nothing here is compressed anyway.
  const line = 'export const value = "twinport static bench";\n'
  for (const file of [SMALL, LARGE]) await writeFile(join(dir, file.name), line.repeat(Math.ceil(file.size / line.length)).slice(0, file.size))
  const huge = await open(join(dir, HUGE.name), 'w')
  await huge.truncate(HUGE.size)
  await huge.close()
}

const main = async (): Promise<void> => {
  if (spawnSync('wrk', ['--version']).error !== undefined) throw new Error('wrk is not installed (apt-get install -y wrk)')
  const workloads = WORKLOADS.filter((w) => onlyWorkloads === undefined || onlyWorkloads.includes(w.id))
  const built = build()
  const all = contenders(built).filter((c) => (onlyContenders === undefined || onlyContenders.includes(c.id)) && workloads.some((w) => w.kind === c.kind))
  root = await mkdtemp(join(tmpdir(), 'twinport-static-'))
  // nginx's worker runs as another user (nobody or www-data) when the bench runs as root.
  await chmod(root, 0o755)
  await makeFiles(root)
  const runs: StaticRun[] = []
  const failures: StaticFailure[] = []
  for (let round = 0; round < rounds; round++) {
    const order = all.map((_, i) => all[(i + round) % all.length] as Contender)
    for (const contender of order) {
      const mine = workloads.filter((w) => w.kind === contender.kind)
      const server = await contender.start(root)
      if (typeof server === 'string') {
        failures.push({ contender: contender.id, workload: mine.map((w) => w.id).join(', '), reason: server })
        continue
      }
      try {
        for (const workload of mine) {
          const bodyBytes = await probeWorkload(server.port, workload, JSON_BYTES)
          if (typeof bodyBytes === 'string') {
            failures.push({ contender: contender.id, workload: workload.id, reason: bodyBytes })
            continue
          }
          const quiet = await waitForQuiet(quietWaitMs)
          const m = measure(server, workload)
          if (typeof m === 'string') failures.push({ contender: contender.id, workload: workload.id, reason: m })
          else runs.push({ round, workload: workload.id, contender: contender.id, bodyBytes, ...m })
          console.error(
            `round ${round + 1}/${rounds} ${workload.id} ${contender.id}: ${typeof m === 'string' ? m : `${Math.round(m.requestsPerSecond)} req/s, ${m.serverUsPerRequest.toFixed(1)} µs CPU/req, other load ${m.otherCores.toFixed(2)} cores`}${quiet.quiet ? '' : ` (machine busy before: ${quiet.busyCores.toFixed(2)} cores)`}`,
          )
        }
      } finally {
        await server.stop()
      }
    }
  }
  const command = `npx tsx ${process.argv.slice(1).map((a) => a.replace(/^.*\/bench\//, 'bench/')).join(' ')}`
  const text = renderStatic('Static files and compression', command, workloads, TARGETS, runs, failures)
  console.log(text)
  await mkdir(dirname(outFile), { recursive: true })
  await writeFile(outFile, `${text}\n`)
  await writeFile(outFile.replace(/\.md$/, '.json'), JSON.stringify({ runs, failures }, null, 1))
  await rm(root, { recursive: true, force: true })
  root = undefined
  if (!existsSync(outFile)) process.exitCode = 1
}

await main()
