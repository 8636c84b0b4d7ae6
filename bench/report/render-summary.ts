/**
 * The top of RESULTS.md (and the README's table): every workload on the three runtimes,
 * each figure beside the ceiling of its own runtime measured in the same run; then the
 * targets of issue 13 (per runtime) and issue 6 (twinport on Node against the Node peers),
 * each marked met or not met. Pure.
 */
import { CEILING, CONTENDERS, RUNTIME_LABEL, TWINPORT, type ContenderId, type Runtime } from '../peers/contenders.js'
import type { Goal, Workload } from '../load/workloads.js'
import { describeTarget, judge, outOfReach, ratio } from './judge.js'
import { formatNumber } from './format-number.js'
import { label, medianFor, medianOf, table, times } from './rows.js'
import type { Report } from './sample.js'

interface Column {
  readonly head: string
  /** the contender in this column for a workload (Node's peer depends on it: node:http or ws). */
  readonly pick: (w: Workload) => ContenderId
  readonly ceiling: boolean
}

const twinportOn = (runtime: Runtime): Column => ({ head: `**${RUNTIME_LABEL[runtime]}**: twinport`, pick: () => TWINPORT[runtime], ceiling: false })
const ceilingOf = (runtime: Runtime): Column => ({ head: `${label(CEILING[runtime])}`, pick: () => CEILING[runtime], ceiling: true })

const COLUMNS: readonly Column[] = [
  twinportOn('node'),
  { head: 'node:http / ws', pick: (w) => w.reference, ceiling: false },
  ceilingOf('node'),
  twinportOn('bun'),
  { head: 'Bun.serve', pick: () => 'bun-serve', ceiling: false },
  ceilingOf('bun'),
  twinportOn('deno'),
  { head: 'Deno.serve', pick: () => 'deno-serve', ceiling: false },
  ceilingOf('deno'),
]

/** A contender's median of one figure on a workload (the headline value, or the server CPU per operation). */
type Figure = (report: Report, w: Workload, id: ContenderId) => number

const headline: Figure = medianFor
const cpuPerOp: Figure = (report, w, id) => medianOf(report.samples.filter((s) => s.workload === w.id && s.contender === id), (s) => s.serverCpuUs)

const figureTable = (report: Report, workloads: readonly Workload[], figure: Figure, unit: (w: Workload) => string): string[] => {
  const body = workloads.map((w) => [
    `${w.title} (${unit(w)})`,
    ...COLUMNS.map((c) => {
      const id = c.pick(w)
      const value = figure(report, w, id)
      if (!Number.isFinite(value)) return '–'
      return c.ceiling ? formatNumber(value) : `${formatNumber(value)} (${times(ratio(value, figure(report, w, CEILING[CONTENDERS[id].runtime])))})`
    }),
  ])
  return table(['workload', ...COLUMNS.map((c) => c.head)], body)
}

/**
 * One row per workload, one column per contender of the three runtimes; each figure but a
 * ceiling's is followed by its ratio to its own runtime's ceiling (a figure over the
 * ceiling's, whichever direction is better).
 */
export const runtimeTable = (report: Report, workloads: readonly Workload[]): string[] =>
  figureTable(report, workloads, headline, (w) => w.unit)

/**
 * The same table in server CPU per operation (µs per request, message, broadcast or
 * connection): on a shared machine the steadier figure, and for throughput the inverse of
 * capacity (below 1× its ceiling's is better, everywhere).
 */
export const cpuTable = (report: Report, workloads: readonly Workload[]): string[] =>
  figureTable(report, workloads, cpuPerOp, () => 'µs/op')

// The load generator's CPU per operation against `id`, for workloads measured as a throughput.
const loadCpuFor = (report: Report, w: Workload, id: ContenderId): number =>
  w.higherIsBetter ? medianOf(report.samples.filter((s) => s.workload === w.id && s.contender === id), (s) => s.clientCpuUs) : Number.NaN

/**
 * The goals of one issue, a row each: subject, reference, ratio, target in words, verdict,
 * and for a target not met what in the same run puts it out of this machine's reach (the
 * runtime's own ceiling misses it too, or the load generator would need more than its core).
 */
export const goalsTable = (report: Report, workloads: readonly Workload[], issue: Goal['issue']): string[] => {
  const body = workloads.flatMap((w) =>
    w.goals.filter((g) => g.issue === issue).map((g) => {
      const subject = medianFor(report, w, g.subject)
      const reference = medianFor(report, w, g.reference)
      const verdict = judge(g.target, subject, reference)
      const ceiling = CEILING[g.runtime]
      const ceilingValue = ceiling === g.subject || ceiling === g.reference ? Number.NaN : medianFor(report, w, ceiling)
      const reach = {
        ceilingRatio: ratio(ceilingValue, reference),
        ceilingVerdict: judge(g.target, ceilingValue, reference),
        loadCpuUs: loadCpuFor(report, w, g.subject),
      }
      return [
        RUNTIME_LABEL[g.runtime], w.title, `${formatNumber(subject)} ${w.unit}`, `${label(g.reference)} ${formatNumber(reference)} ${w.unit}`,
        times(ratio(subject, reference)), describeTarget(g.target, label(g.reference), w.unit), verdict,
        outOfReach(g.target, verdict, reference, reach, label(ceiling)) ?? '',
      ]
    }))
  // Runtime first, then the workloads in their order: the table reads one runtime at a time.
  const order = (runtime: string): number => ['Node', 'Bun', 'Deno'].indexOf(runtime)
  body.sort((a, b) => order(a[0] ?? '') - order(b[0] ?? ''))
  return table(['runtime', 'workload', 'twinport', 'reference', 'ratio', 'target', 'verdict', 'out of reach here'], body)
}
