/**
 * What a typed client costs the type checker (issue 27, "Measured": type-check cost): a
 * generated 200-route app (10 groups of 20 routes, each route a GET with a path param or a POST
 * with a JSON body, every input checked by a Zod schema) written for twinport and for Hono, and a
 * client calling each route once through `createApi<typeof app>` and `hc<typeof app>`, reading a
 * field of every result (so inference must reach it: a lost type fails the check). Also the
 * servers alone, and `connect<typeof app>` over a twinport app of 200 `socketOn` events.
 *
 * Each case is checked by `tsc --extendedDiagnostics --noEmit` in a directory of its own under
 * bench/.tmp/ (removed afterwards), against twinport's declarations (emitted first, as a user
 * installing the package would get them) and Hono's, with `skipLibCheck` for both. Reports
 * "Instantiations" and "Types" (counts: the same on every run, the figures to compare) and
 * "Check time" and "Memory used" (medians over the rounds; they depend on the machine's load),
 * and the ratios twinport / Hono (target ≤ 0.5). Does not run servers or open sockets.
 *
 *   node --import tsx bench/typecheck-cost.ts                 # 3 rounds
 *   node --import tsx bench/typecheck-cost.ts --rounds 1 --keep   # leave the generated files
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { honoClient, honoServer, twinportClient, twinportServer, twinportSocketClient, twinportSocketServer } from './typecheck/generate-app.js'

const { values: opt } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    groups: { type: 'string', default: '10' },
    'per-group': { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
  },
})
const rounds = Math.max(1, Number(opt.rounds))
const shape = { groups: Number(opt.groups), perGroup: Number(opt['per-group']) }
const root = resolve('.')
const tmp = join(root, 'bench', '.tmp', `typecheck-${process.pid}`)
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')

interface Case {
  readonly id: string
  readonly files: Readonly<Record<string, string>>
}

const cases: readonly Case[] = [
  { id: 'twinport server', files: { 'server.ts': twinportServer(shape) } },
  { id: 'hono server', files: { 'server.ts': honoServer(shape) } },
  { id: 'twinport createApi', files: { 'server.ts': twinportServer(shape), 'client.ts': twinportClient(shape) } },
  { id: 'hono hc', files: { 'server.ts': honoServer(shape), 'client.ts': honoClient(shape) } },
  { id: 'twinport connect', files: { 'server.ts': twinportSocketServer(shape), 'client.ts': twinportSocketClient(shape) } },
]

// A user's view of the package: its declarations, with `twinport` and `twinport/client`
// mapped to them. Hono and Zod resolve from the repository's node_modules, as shipped.
const tsconfig = (declarations: string): string =>
  JSON.stringify(
    {
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022', 'dom'],
        types: ['node'],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        paths: {
          twinport: [join(declarations, 'lib', 'index.d.ts')],
          'twinport/client': [join(declarations, 'lib', 'client', 'index.d.ts')],
        },
      },
      include: ['*.ts'],
    },
    null,
    2,
  )

interface Figures {
  readonly instantiations: number
  readonly types: number
  readonly checkSeconds: number
  readonly memoryKb: number
}

const field = (out: string, name: string): number => {
  const match = new RegExp(`^${name}:\\s+([0-9.]+)`, 'm').exec(out)
  if (match === null) throw new Error(`no "${name}" in tsc's diagnostics`)
  return Number(match[1])
}

const check = (dir: string): Figures => {
  const ran = spawnSync(process.execPath, [tsc, '--extendedDiagnostics', '--noEmit', '-p', dir], { encoding: 'utf8', timeout: 600_000 })
  const out = String(ran.stdout ?? '')
  if (ran.status !== 0) throw new Error(`tsc failed in ${dir}:\n${out.split('\n').filter((l) => l.includes('error')).slice(0, 10).join('\n')}`)
  return { instantiations: field(out, 'Instantiations'), types: field(out, 'Types'), checkSeconds: field(out, 'Check time'), memoryKb: field(out, 'Memory used') }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

const main = (): void => {
  const declarations = join(tmp, 'declarations')
  console.error('emitting twinport\'s declarations (tsc -p tsconfig.build.json --emitDeclarationOnly)…')
  const emitted = spawnSync(
    process.execPath,
    [tsc, '-p', 'tsconfig.build.json', '--emitDeclarationOnly', '--declarationMap', 'false', '--sourceMap', 'false', '--outDir', declarations],
    { encoding: 'utf8', timeout: 600_000 },
  )
  if (emitted.status !== 0) throw new Error(`declarations failed:\n${String(emitted.stdout).slice(0, 2000)}`)
  const results = new Map<string, Figures[]>()
  for (const item of cases) {
    const dir = join(tmp, item.id.replace(/\W+/g, '-'))
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'tsconfig.json'), tsconfig(declarations))
    for (const [name, text] of Object.entries(item.files)) writeFileSync(join(dir, name), text)
  }
  for (let round = 0; round < rounds; round++) {
    // Rotated, so no case always runs first (a cold disk cache) or last.
    for (const item of cases.map((_, i) => cases[(i + round) % cases.length] as Case)) {
      const figures = check(join(tmp, item.id.replace(/\W+/g, '-')))
      console.error(`round ${round + 1}: ${item.id}: ${figures.instantiations} instantiations, ${figures.types} types, check ${figures.checkSeconds}s`)
      results.set(item.id, [...(results.get(item.id) ?? []), figures])
    }
  }
  const summary = new Map<string, Figures>()
  console.log(`\n${shape.groups * shape.perGroup} routes (${shape.groups} groups of ${shape.perGroup}), ${rounds} round(s); tsc ${String(spawnSync(process.execPath, [tsc, '--version'], { encoding: 'utf8' }).stdout).trim()}\n`)
  console.log('| case | instantiations | types | check time (median) | memory used (median) |')
  console.log('|---|---:|---:|---:|---:|')
  for (const item of cases) {
    const runs = results.get(item.id) ?? []
    const counts = new Set(runs.map((r) => `${r.instantiations}/${r.types}`))
    if (counts.size !== 1) console.error(`${item.id}: the counts differed between rounds: ${[...counts].join(', ')}`)
    const figures: Figures = {
      instantiations: runs[0]?.instantiations ?? Number.NaN,
      types: runs[0]?.types ?? Number.NaN,
      checkSeconds: median(runs.map((r) => r.checkSeconds)),
      memoryKb: median(runs.map((r) => r.memoryKb)),
    }
    summary.set(item.id, figures)
    console.log(`| ${item.id} | ${figures.instantiations} | ${figures.types} | ${figures.checkSeconds.toFixed(2)} s | ${Math.round(figures.memoryKb / 1024)} MB |`)
  }
  const ratio = (a: string, b: string, key: keyof Figures): string => {
    const x = summary.get(a)?.[key]
    const y = summary.get(b)?.[key]
    return x === undefined || y === undefined ? '?' : `${(x / y).toFixed(2)}×`
  }
  console.log('\n| twinport / Hono | instantiations | types | check time | memory used |')
  console.log('|---|---:|---:|---:|---:|')
  for (const [a, b] of [
    ['twinport server', 'hono server'],
    ['twinport createApi', 'hono hc'],
    ['twinport connect', 'hono hc'],
  ] as const) {
    console.log(`| ${a} / ${b} | ${ratio(a, b, 'instantiations')} | ${ratio(a, b, 'types')} | ${ratio(a, b, 'checkSeconds')} | ${ratio(a, b, 'memoryKb')} |`)
  }
}

try {
  main()
} finally {
  if (opt.keep) console.error(`kept ${tmp}`)
  else rmSync(tmp, { recursive: true, force: true })
}
