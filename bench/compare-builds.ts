/**
 * Benchmark driver (not a test): one in-process engine bench run against two builds of
 * `lib/`, in alternating processes, so a change's effect is read beside its base in the
 * same minutes of the same machine rather than against a figure from another day.
 * Both builds are compiled with tsc first and run as JavaScript, as the servers run (under
 * tsx the WebSocket echo bench reads about four times slower).
 *
 * The base build is a detached `git worktree` of `--base` (a commit, tag or branch) in a
 * temporary directory, with this tree's `bench/` copied over it: both builds run the same
 * harness, only `lib/` (and `examples/`) differ. Each pair runs base then head, or head then
 * base (alternating, so neither always runs on a warmer machine). Every `min X unit,
 * median Y unit` the bench prints is collected; the table gives each pair's medians and
 * the median over pairs, and head / base.
 *
 * Run: `npx tsx bench/compare-builds.ts --base <rev> [--head <rev>] [--pairs 4] -- http-engine.ts --head browser`
 * (everything after `--` is the bench file under bench/ and its own arguments). Without
 * `--head` the head build is this working tree; with it, a second worktree of that rev
 * (a merge against its first parent, say). The worktrees are removed at the end, also on
 * failure.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { summarize } from './report/stats.js'

const { values: opt, positionals } = parseArgs({
  options: { base: { type: 'string' }, head: { type: 'string' }, pairs: { type: 'string', default: '4' } },
  allowPositionals: true,
})
const [benchFile, ...benchArgs] = positionals
if (opt.base === undefined || benchFile === undefined) {
  throw new Error('usage: npx tsx bench/compare-builds.ts --base <rev> [--head <rev>] [--pairs N] -- <bench file under bench/> [its arguments]')
}
const pairs = Number(opt.pairs)
if (!Number.isInteger(pairs) || pairs < 1 || pairs > 20) throw new Error(`--pairs takes 1 to 20, not ${opt.pairs}`)

const root = resolve(import.meta.dirname, '..')
if (!existsSync(join(root, 'bench', benchFile))) throw new Error(`no bench/${benchFile} in this tree`)
const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()
const baseSha = git('rev-parse', '--verify', `${opt.base}^{commit}`)
const headSha = git('rev-parse', '--verify', `${opt.head ?? 'HEAD'}^{commit}`)
const dirty = opt.head === undefined && git('status', '--porcelain', '--', 'lib', 'examples') !== ''

/** One figure a bench run printed. */
interface Figure {
  readonly unit: string
  readonly median: number
}

/** The figures one run printed: every `min X unit, median Y unit`, in order. */
const figuresOf = (output: string): Figure[] =>
  [...output.matchAll(/min (\d+(?:\.\d+)?) (\S+), median (\d+(?:\.\d+)?) \S+/g)].map((m) => ({ unit: m[2] as string, median: Number(m[3]) }))

const scratch = mkdtempSync(join(tmpdir(), 'twinport-builds-'))
const tree = join(scratch, `base-${baseSha.slice(0, 12)}`)
const headTree = opt.head === undefined ? root : join(scratch, `head-${headSha.slice(0, 12)}`)
const OUT = join('bench', '.tmp', 'compare')
const compiled = join(OUT, 'bench', benchFile.replace(/\.ts$/, '.js'))
// lib/, examples/ and the bench, compiled as they are (a base that no longer type-checks
// against today's harness is still emitted).
const build = (dir: string): void => {
  // In bench/.tmp (ignored by git), so paths are from there.
  const config = {
    extends: '../../tsconfig.json',
    compilerOptions: { noEmit: false, noEmitOnError: false, rootDir: '../..', outDir: 'compare', declaration: false, sourceMap: false },
    include: ['../../lib', '../../examples', `../${benchFile}`],
  }
  mkdirSync(join(dir, 'bench', '.tmp'), { recursive: true })
  writeFileSync(join(dir, 'bench', '.tmp', 'tsconfig.compare.json'), JSON.stringify(config))
  spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join('bench', '.tmp', 'tsconfig.compare.json')], { cwd: dir, encoding: 'utf8', timeout: 300_000 })
  if (!existsSync(join(dir, compiled))) throw new Error(`tsc emitted no ${compiled} in ${dir}`)
}
const run = (cwd: string): Figure[] => {
  const child = spawnSync(process.execPath, [compiled, ...benchArgs], { cwd, encoding: 'utf8', timeout: 600_000 })
  if (child.status !== 0) throw new Error(`bench/${benchFile} failed in ${cwd} (status ${child.status}):\n${child.stderr}`)
  const found = figuresOf(child.stdout)
  if (found.length === 0) throw new Error(`bench/${benchFile} printed no "min X unit, median Y unit" figure:\n${child.stdout}`)
  return found
}

// A worktree of `sha` with this tree's harness; its own node_modules would be this one anyway.
const checkOut = (dir: string, sha: string): void => {
  git('worktree', 'add', '--detach', dir, sha)
  rmSync(join(dir, 'bench'), { recursive: true, force: true })
  cpSync(join(root, 'bench'), join(dir, 'bench'), { recursive: true, filter: (src) => !src.includes(join('bench', '.tmp')) })
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
}
try {
  checkOut(tree, baseSha)
  if (headTree !== root) checkOut(headTree, headSha)
  build(tree)
  build(headTree)
  const base: Figure[][] = []
  const head: Figure[][] = []
  for (let p = 0; p < pairs; p++) {
    if (p % 2 === 0) {
      base.push(run(tree))
      head.push(run(headTree))
    } else {
      head.push(run(headTree))
      base.push(run(tree))
    }
    const line = (head[p] as Figure[]).map((h, i) => `${base[p]?.[i]?.median} -> ${h.median} ${h.unit}`).join('; ')
    console.log(`pair ${p + 1} (${p % 2 === 0 ? 'base first' : 'head first'}): ${line}`)
  }
  console.log(`\nbench/${benchFile} ${benchArgs.join(' ')}`.trimEnd())
  console.log(`base ${baseSha.slice(0, 12)}, head ${headSha.slice(0, 12)}${dirty ? ' with uncommitted changes to lib/ or examples/' : ''}, ${pairs} pairs`)
  console.log('| figure | base (median of pairs) | head | head / base |\n|---|---:|---:|---:|')
  ;(head[0] as Figure[]).forEach((f, i) => {
    const b = summarize(base.map((r) => r[i]?.median ?? Number.NaN)).median
    const h = summarize(head.map((r) => r[i]?.median ?? Number.NaN)).median
    console.log(`| ${i + 1}: ${f.unit} | ${b} | ${h} | ${(h / b).toFixed(2)}x |`)
  })
} finally {
  for (const dir of [tree, headTree]) if (dir !== root && existsSync(dir)) git('worktree', 'remove', '--force', dir)
  git('worktree', 'prune')
  rmSync(scratch, { recursive: true, force: true })
}
