/**
 * Summarises a V8 CPU profile (`node --cpu-prof`) of a bench server: self time by function
 * (name, file and line), the largest first, each as a share of the samples; and the same
 * grouped by where the code lives (twinport's lib, node: internals, node_modules, GC, idle,
 * native). Used to see where an upload's CPU goes (bench/RESULTS.md "Session 12: uploads").
 *
 *   node --import tsx bench/streaming/cpu-profile-top.ts <file.cpuprofile> [rows] [fromUs toUs]
 *
 * `fromUs toUs` cut the profile to a window on its clock (µs, as bench/presence/node-probe.ts
 * reports its `windowUs`): only the samples taken inside count.
 *
 * Reads one file; imports nothing of twinport.
 */
import { readFileSync } from 'node:fs'

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}
interface Profile {
  readonly nodes: readonly ProfileNode[]
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
  readonly startTime: number
}

const [file, rowsArg, fromArg, toArg] = process.argv.slice(2)
const from = fromArg === undefined ? -Infinity : Number(fromArg)
const to = toArg === undefined ? Infinity : Number(toArg)
if (file === undefined) {
  console.error('usage: cpu-profile-top.ts <file.cpuprofile> [rows]')
  process.exit(2)
}
const rows = Number(rowsArg ?? 30)
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const self = new Map<string, number>()
const groups = new Map<string, number>()
let total = 0

const groupOf = (name: string, url: string): string => {
  if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') return name
  if (url === '') return '(native or builtin)'
  if (url.includes('/node_modules/')) return url.replace(/.*\/node_modules\/((@[^/]+\/)?[^/]+).*/, 'node_modules/$1')
  if (url.startsWith('node:')) return 'node: internals'
  if (url.includes('/lib/')) return `twinport ${url.replace(/.*\/lib\/([^/]+)\/.*/, 'lib/$1')}`
  if (url.includes('/bench/')) return 'bench (peer, sink)'
  return url
}

let at = profile.startTime
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0
  at += dt
  const node = byId.get(profile.samples[i] as number)
  if (node === undefined || at < from || at > to) continue
  const { functionName, url, lineNumber } = node.callFrame
  const short = url.replace(/^.*\/(lib|bench|node_modules)\//, '$1/')
  const key = `${functionName || '(anonymous)'}  ${short}${url === '' ? '' : `:${lineNumber + 1}`}`
  self.set(key, (self.get(key) ?? 0) + dt)
  const g = groupOf(functionName, url)
  groups.set(g, (groups.get(g) ?? 0) + dt)
  total += dt
}

const busy = total - (groups.get('(idle)') ?? 0)
const pct = (us: number): string => `${((100 * us) / busy).toFixed(1).padStart(5)}%`
console.log(`${(total / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms not idle (shares are of the latter)\n`)
for (const [k, us] of [...groups].filter(([g]) => g !== '(idle)').sort((a, b) => b[1] - a[1])) console.log(`${pct(us)} ${(us / 1000).toFixed(1).padStart(7)} ms  ${k}`)
console.log('')
for (const [k, us] of [...self].filter(([k2]) => !k2.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${pct(us)} ${(us / 1000).toFixed(1).padStart(7)} ms  ${k}`)
