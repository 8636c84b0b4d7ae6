/**
 * `npm run fuzz`: every harness under fuzz/harnesses, one at a time, under jazzer.js
 * (libFuzzer, coverage-guided, lib/ instrumented), each for a bounded time, then a table of
 * executions, coverage and findings. New inputs go to .fuzz-work/<name>/corpus (the repo's
 * corpus in fuzz/corpus/<name> is read, not grown); a crash leaves its input in
 * .fuzz-work/<name>/ and makes the run exit 1.
 *
 *   npm run fuzz [-- --seconds N] [--only a,b] [--keep N]
 *
 * `--seconds N` per harness (default 180); `--only` names harnesses; `--keep N` then refreshes
 * the repo corpus: its seeds (`seed-*`) and findings (`found-*`) stay, and up to N inputs of the
 * run's corpus (which libFuzzer keeps reduced: -reduce_inputs) replace the rest, spread over
 * their sizes. libFuzzer's -merge would give a coverage-minimal set, but its merge forks a
 * child process that jazzer.js 4 does not start. Node only.
 */
import { spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { prepareAddon } from './compat/prepare-addon.js'
import { FUZZ_DIR, harnessNames } from './harness-names.js'

const ROOT = resolve(FUZZ_DIR, '..')
const WORK = join(ROOT, '.fuzz-work')
const JAZZER = createRequire(import.meta.url).resolve('@jazzer.js/core/dist/cli.js')

const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i < 0 ? undefined : process.argv[i + 1]
}
const seconds = Number(flag('--seconds') ?? 180)
const only = flag('--only')?.split(',')
const keep = Number(flag('--keep') ?? 0)
if (!Number.isFinite(seconds) || seconds <= 0) throw new Error('--seconds takes a positive number')
if (!Number.isInteger(keep) || keep < 0) throw new Error('--keep takes a count')
const names = harnessNames().filter((n) => only === undefined || only.includes(n))

const setup = prepareAddon(WORK)
console.log(`[fuzz] ${names.length} harnesses, ${seconds} s each, ${setup.note}`)

interface Outcome {
  readonly name: string
  readonly runs: number
  readonly cov: number
  readonly ft: number
  readonly corpus: number
  readonly seconds: number
  readonly code: number
  readonly found: string
}

const jazzer = (name: string, corpora: readonly string[], libFuzzerArgs: readonly string[]): Promise<{ code: number; out: string }> =>
  new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        ...setup.nodeArgs, '--import', 'tsx', JAZZER, join(FUZZ_DIR, 'entry.mjs'), ...corpora,
        '--sync', '-i', join(ROOT, 'lib') + '/', '--', ...libFuzzerArgs,
      ],
      { cwd: ROOT, env: { ...process.env, ...setup.env, TWINPORT_FUZZ_HARNESS: join(FUZZ_DIR, 'harnesses', `${name}.ts`) }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    const keep = (chunk: Buffer): void => {
      out += chunk.toString('utf8')
      if (out.length > 1 << 20) out = out.slice(-(1 << 19))
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('close', (code) => done({ code: code ?? 1, out }))
  })

// The repo corpus: seeds and findings, plus up to `count` inputs of the run spread over their sizes.
const keepInputs = (fresh: string, repo: string, count: number): number => {
  for (const f of readdirSync(repo)) if (!/^(seed|found)-/.test(f)) rmSync(join(repo, f))
  const found = readdirSync(fresh)
    .map((f) => ({ f, size: statSync(join(fresh, f)).size }))
    .sort((a, b) => a.size - b.size || (a.f < b.f ? -1 : 1))
  const step = Math.max(1, found.length / count)
  let kept = 0
  for (let i = 0; i < found.length && kept < count; i += step, kept++) {
    const { f } = found[Math.floor(i)]!
    copyFileSync(join(fresh, f), join(repo, f.slice(0, 16)))
  }
  return kept
}

const lastNumber = (out: string, re: RegExp): number => {
  const all = [...out.matchAll(re)]
  return Number(all.at(-1)?.[1] ?? 0)
}

const results: Outcome[] = []
for (const name of names) {
  const work = join(WORK, name)
  const fresh = join(work, 'corpus')
  mkdirSync(fresh, { recursive: true })
  const repo = join(FUZZ_DIR, 'corpus', name)
  mkdirSync(repo, { recursive: true })
  const started = Date.now()
  const run = await jazzer(name, [fresh, repo], [
    `-max_total_time=${seconds}`, '-timeout=10', '-rss_limit_mb=2560', '-max_len=4096', `-artifact_prefix=${work}/`, '-print_final_stats=1',
  ])
  const crash = /(?:crash|timeout|oom|leak)-[0-9a-f]+/.exec(run.out)?.[0]
  const outcome: Outcome = {
    name,
    runs: lastNumber(run.out, /Done (\d+) runs/g) || lastNumber(run.out, /^#(\d+)/gm),
    cov: lastNumber(run.out, /cov: (\d+)/g),
    ft: lastNumber(run.out, /ft: (\d+)/g),
    corpus: lastNumber(run.out, /corp: (\d+)\//g),
    seconds: Math.round((Date.now() - started) / 1000),
    code: run.code,
    found: run.code === 0 ? '' : crash === undefined ? `exit ${run.code}` : join(work, crash),
  }
  results.push(outcome)
  console.log(`[fuzz] ${name}: ${outcome.runs} runs, cov ${outcome.cov}, ft ${outcome.ft}, corpus ${outcome.corpus}${outcome.found === '' ? '' : `, FOUND ${outcome.found}`}`)
  if (run.code !== 0) console.log(run.out.split('\n').filter((l) => !/^#\d+/.test(l)).slice(-40).join('\n'))
  if (keep > 0 && run.code === 0) {
    const kept = keepInputs(fresh, repo, keep)
    console.log(`[fuzz] ${name}: ${kept} inputs of this run kept in fuzz/corpus/${name}`)
  }
}

const table = [
  '| harness | seconds | executions | exec/s | edges (cov) | features (ft) | corpus | found |',
  '|---|---:|---:|---:|---:|---:|---:|---|',
  ...results.map((r) => `| ${r.name} | ${r.seconds} | ${r.runs} | ${Math.round(r.runs / Math.max(1, r.seconds))} | ${r.cov} | ${r.ft} | ${r.corpus} | ${r.found === '' ? 'nothing' : r.found} |`),
].join('\n')
mkdirSync(WORK, { recursive: true })
writeFileSync(join(WORK, 'summary.md'), `${table}\n`)
console.log(`\n${table}\n\n[fuzz] table written to .fuzz-work/summary.md`)
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0
