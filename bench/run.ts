/**
 * `npm run bench`: the end-to-end benchmark of issue 6. Starts each contender
 * pinned to CPU 0, drives it from CPU 1 (wrk for HTTP, bench/load/ws-client.ts
 * for WebSocket), interleaves the contenders round by round, waits for a quiet
 * machine before each run and flags disturbed runs, then writes RESULTS.md and
 * ratios.svg, with the micro-benchmarks (`bench/ws-codec.ts`, `bench/http-codec.ts`,
 * `bench/route-match.ts`) and the client's bundle size (`bench/client-bundle.ts`) appended
 * when they exist.
 *
 *   npm run bench                      full run (3 rounds, ~12 min), writes bench/RESULTS.md
 *   npm run bench -- --quick           1 short round, 2,000 clients, writes to $TMPDIR/twinport-bench/
 *   npm run bench -- --only ws-echo-10,ws-bcast --contenders ws,twinport --rounds 5 --out DIR
 *   npm run bench -- --no-micro        skip the micro-benchmarks
 *   npm run bench -- --from FILE       re-render from the raw runs (results.json) of an earlier run
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { parseClientResult } from './load/client-result.js'
import { waitForQuiet } from './load/quiet.js'
import { runLoad } from './load/run-load.js'
import { LIVE, pinned, startServer } from './load/start-server.js'
import { SIZING, WORKLOADS, type Workload } from './load/workloads.js'
import { CONTENDERS, type ContenderId } from './peers/contenders.js'
import { chartGroups, renderResults } from './report/render-results.js'
import { renderSvg } from './report/render-svg.js'
import type { Failure, MicroOutcome, Report, Sample } from './report/sample.js'

const { values: opt } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    only: { type: 'string' },
    contenders: { type: 'string' },
    out: { type: 'string' },
    'no-micro': { type: 'boolean', default: false },
    from: { type: 'string' },
  },
})

// `--from results.json`: render RESULTS.md and ratios.svg again from the raw runs of an earlier
// invocation (after a change to the report's layout), without measuring anything.
if (opt.from !== undefined) {
  const earlier = JSON.parse(readFileSync(opt.from, 'utf8')) as Report
  const ids = new Set(earlier.samples.map((s) => s.workload).concat(earlier.failures.map((f) => f.workload)))
  const partialRun = earlier.quick || earlier.sizing.rounds < 3 || ids.size < WORKLOADS.length
  const dir = opt.out ?? (partialRun ? join(tmpdir(), 'twinport-bench') : 'bench')
  mkdirSync(dir, { recursive: true })
  const shown = WORKLOADS.filter((w) => ids.has(w.id))
  writeFileSync(join(dir, 'RESULTS.md'), renderResults(earlier, shown))
  writeFileSync(join(dir, 'ratios.svg'), renderSvg('twinport vs peers', chartGroups(earlier, shown)))
  console.log(`[bench] rendered ${join(dir, 'RESULTS.md')} and ${join(dir, 'ratios.svg')} from ${opt.from}`)
  process.exit(0)
}

const started = Date.now()
const quick = opt.quick === true
const base = SIZING[quick ? 'quick' : 'full']
const sizing = { ...base, rounds: opt.rounds === undefined ? base.rounds : Math.max(1, Number(opt.rounds)) }
const partial = quick || opt.only !== undefined || opt.contenders !== undefined || sizing.rounds < 3
// Only a full run may replace the committed RESULTS.md.
const outDir = opt.out ?? (partial ? join(tmpdir(), 'twinport-bench') : 'bench')
const pick = <T extends string>(csv: string | undefined): readonly T[] | undefined => csv?.split(',').map((s) => s.trim() as T)
const onlyWorkloads = pick<string>(opt.only)
const onlyContenders = pick<ContenderId>(opt.contenders)
const workloads: Workload[] = WORKLOADS.filter((w) => onlyWorkloads === undefined || onlyWorkloads.includes(w.id)).map((w) => ({
  ...w,
  contenders: w.contenders.filter((c) => onlyContenders === undefined || onlyContenders.includes(c)),
}))

const log = (s: string): void => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${s}`)

// Kill whatever we started if we are interrupted or crash.
const killAll = (): void => {
  for (const c of LIVE) c.kill('SIGKILL')
}
process.on('exit', killAll)
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    killAll()
    process.exit(130)
  })
}

if (!existsSync('/proc/self/stat')) throw new Error('bench needs Linux /proc (server CPU and RSS are read from it)')
const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
if (!has('taskset')) throw new Error('bench needs taskset (Debian: apt-get install -y util-linux)')

const unavailable: Partial<Record<ContenderId, string>> = {}
const needsWrk = workloads.some((w) => w.kind === 'wrk' || w.kind === 'wrk-pipeline')
if (needsWrk && !has('wrk')) {
  console.error('[bench] wrk is not installed; the HTTP workloads are skipped. Install it with:\n\n  apt-get update && apt-get install -y wrk\n')
}
const wrkMissing = needsWrk && !has('wrk')
// twinport (the echo server and the micro-benchmarks) runs compiled, built fresh so the
// figures are those of this lib/: under tsx every closure would also pay esbuild's keepNames.
log('compiling twinport for the benchmarks (tsc -p tsconfig.bench.json)')
const built = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json'], { encoding: 'utf8' })
const buildFailure = built.status === 0 ? undefined : `tsc -p tsconfig.bench.json failed: ${(built.stdout + built.stderr).trim().split('\n')[0] ?? ''}`
if (buildFailure !== undefined) unavailable.twinport = buildFailure
if (unavailable.twinport === undefined && !existsSync(CONTENDERS.twinport.script)) {
  unavailable.twinport = `${CONTENDERS.twinport.script} does not exist`
}
if (unavailable.twinport !== undefined) unavailable['twinport-young1'] = unavailable.twinport
for (const id of Object.keys(unavailable)) log(`${id}: not available (${unavailable[id as ContenderId]})`)

const samples: Sample[] = []
const failures: Failure[] = []

// Issue 6: the whole run stays under 20 minutes: 14 for the end-to-end runs (a full run needs
// about 10 without retries), then the micro-benchmarks share what is left of 19, at most 150 s
// each. Past the budget the remaining runs are skipped (and listed); waiting for a quiet machine
// has its own cap, since others share it.
const BUDGET_MS = (quick ? 5 : 14) * 60_000
const TOTAL_MS = (quick ? 8 : 19) * 60_000
const MICRO_MAX_MS = 150_000
const RETRY_UNTIL_MS = BUDGET_MS * 0.7
let quietBudgetMs = quick ? 30_000 : 150_000
const runs = { total: 0, disturbed: 0 }
const startFailures: Partial<Record<ContenderId, number>> = {}

/** One measured run on a fresh server: a Sample, or why there is none. */
const measure = async (w: Workload, id: ContenderId, round: number): Promise<Sample | string> => {
  const contender = CONTENDERS[id]
  const quiet = await waitForQuiet(Math.min(quick ? 3000 : 8000, quietBudgetMs))
  quietBudgetMs = Math.max(0, quietBudgetMs - quiet.waitedMs)
  const server = await startServer(contender.script, undefined, contender.nodeFlags, { ...w.serverEnv, ...contender.env })
  if (typeof server === 'string') {
    log(`${w.id} round ${round} ${id}: server failed: ${server}`)
    // Others edit lib/ while this runs: one failed start is a failed run; three in a row, and
    // the contender is reported as not available for the rest of the run.
    startFailures[id] = (startFailures[id] ?? 0) + 1
    if ((startFailures[id] ?? 0) >= 3) unavailable[id] = `failed to start 3 times in a row; last: ${server}`
    return `server failed: ${server}`
  }
  startFailures[id] = 0
  try {
    const r = await runLoad(w, contender, server, sizing, round, quiet.quiet)
    if (typeof r === 'string') {
      log(`${w.id} round ${round} ${id}: FAILED ${r}`)
      return r
    }
    const extra = Object.entries(r.extra ?? {}).map(([k, v]) => ` ${k} ${v.toFixed(2)}`).join('')
    log(`${w.id} round ${round} ${id}: ${r.value.toFixed(r.value < 100 ? 3 : 0)} ${w.unit}${extra}, server ${r.serverCpuUs.toFixed(2)} µs/op, ` +
      `load ${(r.clientCpuUs ?? Number.NaN).toFixed(2)} µs/op, others ${r.otherCores.toFixed(2)} cores${r.disturbed ? ' DISTURBED' : ''}`)
    return r
  } finally {
    await server.stop()
  }
}

const isHttp = (w: Workload): boolean => w.kind === 'wrk' || w.kind === 'wrk-pipeline'
if (wrkMissing) {
  for (const w of workloads.filter(isHttp)) {
    for (const c of w.contenders) failures.push({ workload: w.id, contender: c, round: 0, reason: 'wrk not installed (apt-get install -y wrk)' })
  }
}
// Rounds outermost: every workload sees A B C, A B C, …; if the budget runs out, it is a last
// round that is cut short, not a whole workload.
for (let round = 1; round <= sizing.rounds; round++) {
  for (const w of workloads) {
    if (wrkMissing && isHttp(w)) continue
    for (const id of w.contenders) {
      if (unavailable[id] !== undefined) continue
      if (Date.now() - started > BUDGET_MS) {
        failures.push({ workload: w.id, contender: id, round, reason: `skipped: the time budget of ${BUDGET_MS / 60_000} min was spent` })
        continue
      }
      // A disturbed run is tried once more while time allows; the less disturbed of the two is kept.
      let kept: Sample | undefined
      for (let attempt = 1; attempt <= 2; attempt++) {
        const r = await measure(w, id, round)
        if (typeof r === 'string') {
          failures.push({ workload: w.id, contender: id, round, reason: r })
          break
        }
        runs.total++
        if (r.disturbed) runs.disturbed++
        if (kept === undefined || r.otherCores < kept.otherCores) kept = r
        // Retrying helps with a passing disturbance, not when others keep the machine busy.
        const persistent = runs.disturbed * 2 > runs.total
        if (!r.disturbed || persistent || Date.now() - started > RETRY_UNTIL_MS) break
      }
      if (kept !== undefined) samples.push(kept)
    }
  }
}

const MICRO = ['bench/ws-codec.ts', 'bench/http-codec.ts', 'bench/route-match.ts', 'bench/client-bundle.ts']
const MICRO_CHILD_JS = 'bench/load/micro-child.mjs'
const micro: MicroOutcome[] = []
if (opt['no-micro'] !== true) {
  for (const [i, file] of MICRO.entries()) {
    const limitMs = Math.max(10_000, Math.min(MICRO_MAX_MS, (TOTAL_MS - (Date.now() - started)) / (MICRO.length - i)))
    if (!existsSync(file)) {
      micro.push({ file, note: 'not written yet; skipped.' })
      continue
    }
    // The compiled module when the build succeeded (plain node), else the source under tsx.
    const compiled = join('bench/.tmp/dist', file.replace(/\.ts$/, '.js'))
    const args = buildFailure === undefined && existsSync(compiled) ? [MICRO_CHILD_JS, compiled] : ['--import', 'tsx', 'bench/load/micro-child.ts', file]
    log(`micro ${file} (at most ${Math.round(limitMs / 1000)} s${args[0] === MICRO_CHILD_JS ? ', compiled' : ', under tsx'})`)
    const [cmd, ...pre] = pinned(0)
    const ran = spawnSync(cmd!, [...pre, process.execPath, ...args], {
      encoding: 'utf8', timeout: Math.ceil(limitMs), maxBuffer: 64 * 1024 * 1024,
    })
    const line = parseClientResult(ran.stdout ?? '') as unknown as { result?: unknown; note?: string } | undefined
    const why = ran.error !== undefined ? `${ran.error.message} (limit ${Math.round(limitMs / 1000)} s)` : `exit ${String(ran.status)}`
    if (line === undefined) micro.push({ file, note: `failed (${why}): ${(ran.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}` })
    else micro.push({ file, ...(line.result === undefined ? {} : { result: line.result }), ...(line.note === undefined ? {} : { note: line.note }) })
  }
}

const cpu = cpus()[0]?.model ?? 'unknown CPU'
const osRelease = existsSync('/etc/debian_version') ? `Debian ${readFileSync('/etc/debian_version', 'utf8').trim()}` : 'Linux'
const report: Report = {
  startedAt: new Date(started).toISOString(),
  quick,
  sizing,
  machine: `${cpus().length} × ${cpu}, ${osRelease}, Node ${process.version}, load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}.`,
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  elapsedS: (Date.now() - started) / 1000,
  unavailable,
  samples,
  failures,
  micro,
}
mkdirSync(outDir, { recursive: true })
writeFileSync(join(outDir, 'RESULTS.md'), renderResults(report, workloads))
writeFileSync(join(outDir, 'ratios.svg'), renderSvg('twinport vs peers', chartGroups(report, workloads)))
// The raw runs, for whoever wants to look closer; never committed.
const raw = join(tmpdir(), 'twinport-bench', 'results.json')
mkdirSync(join(tmpdir(), 'twinport-bench'), { recursive: true })
writeFileSync(raw, `${JSON.stringify(report, null, 2)}\n`)
log(`wrote ${join(outDir, 'RESULTS.md')} and ${join(outDir, 'ratios.svg')} (${samples.length} runs, ${failures.length} failures; raw runs in ${raw})`)
