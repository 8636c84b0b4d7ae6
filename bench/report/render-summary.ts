/**
 * The top of RESULTS.md (and the README's table): every workload on the three runtimes,
 * each figure beside the ceiling of its own runtime measured in the same run; then the
 * targets of issue 13 (per runtime) and issue 6 (twinport on Node against the Node peers),
 * each marked met or not met. Pure.
 */
import { CEILING, RUNTIME_LABEL, TWINPORT, type ContenderId, type Runtime } from '../peers/contenders.js'
import type { Goal, Workload } from '../load/workloads.js'
import { describeTarget, judge, ratio } from './judge.js'
import { formatNumber } from './format-number.js'
import { ceilingFor, label, medianFor, table, times } from './rows.js'
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

/**
 * One row per workload, one column per contender of the three runtimes; each figure but a
 * ceiling's is followed by its ratio to its own runtime's ceiling (a figure over the
 * ceiling's, whichever direction is better).
 */
export const runtimeTable = (report: Report, workloads: readonly Workload[]): string[] => {
  const body = workloads.map((w) => [
    `${w.title} (${w.unit})`,
    ...COLUMNS.map((c) => {
      const id = c.pick(w)
      const value = medianFor(report, w, id)
      if (!Number.isFinite(value)) return '–'
      return c.ceiling ? formatNumber(value) : `${formatNumber(value)} (${times(ratio(value, ceilingFor(report, w, id)))})`
    }),
  ])
  return table(['workload', ...COLUMNS.map((c) => c.head)], body)
}

/** The goals of one issue, a row each: subject, reference, ratio, target in words, verdict. */
export const goalsTable = (report: Report, workloads: readonly Workload[], issue: Goal['issue']): string[] => {
  const body = workloads.flatMap((w) =>
    w.goals.filter((g) => g.issue === issue).map((g) => {
      const subject = medianFor(report, w, g.subject)
      const reference = medianFor(report, w, g.reference)
      return [
        RUNTIME_LABEL[g.runtime], w.title, `${formatNumber(subject)} ${w.unit}`, `${label(g.reference)} ${formatNumber(reference)} ${w.unit}`,
        times(ratio(subject, reference)), describeTarget(g.target, label(g.reference), w.unit), judge(g.target, subject, reference),
      ]
    }))
  // Runtime first, then the workloads in their order: the table reads one runtime at a time.
  const order = (runtime: string): number => ['Node', 'Bun', 'Deno'].indexOf(runtime)
  body.sort((a, b) => order(a[0] ?? '') - order(b[0] ?? ''))
  return table(['runtime', 'workload', 'twinport', 'reference', 'ratio', 'target', 'verdict'], body)
}
