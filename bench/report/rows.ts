/**
 * The report's raw runs reduced per workload and contender: the samples, their
 * median and min–max, and the shared bits of Markdown (labels, ratios, tables). Pure.
 */
import { CEILING, CONTENDERS, type ContenderId } from '../peers/contenders.js'
import type { Workload } from '../load/workloads.js'
import type { Report, Sample } from './sample.js'
import { summarize, type Summary } from './stats.js'

/** One contender's runs on one workload. */
export interface Row {
  readonly id: ContenderId
  readonly samples: readonly Sample[]
  readonly value: Summary
}

/** Whether the report holds anything about `id` on `w`: runs, failures, or why it was not available. */
const attempted = (report: Report, w: Workload, id: ContenderId): boolean =>
  report.unavailable[id] !== undefined ||
  report.samples.some((s) => s.workload === w.id && s.contender === id) ||
  report.failures.some((f) => f.workload === w.id && f.contender === id)

/** The rows of a workload, for the contenders the run tried (a `--contenders` run leaves the others out). */
export const rowsOf = (report: Report, w: Workload): Row[] =>
  w.contenders.filter((id) => attempted(report, w, id)).map((id) => {
    const samples = report.samples.filter((s) => s.workload === w.id && s.contender === id)
    return { id, samples, value: summarize(samples.map((s) => s.value)) }
  })

/** The median of `id` on `w`; NaN when it has no run. */
export const medianFor = (report: Report, w: Workload, id: ContenderId): number =>
  summarize(report.samples.filter((s) => s.workload === w.id && s.contender === id).map((s) => s.value)).median

/** The median of `id`'s runtime's ceiling on `w`. */
export const ceilingFor = (report: Report, w: Workload, id: ContenderId): number => medianFor(report, w, CEILING[CONTENDERS[id].runtime])

/** The median of one figure of some samples, ignoring those without it. */
export const medianOf = (samples: readonly Sample[], pick: (s: Sample) => number | undefined): number =>
  summarize(samples.map(pick).filter((v): v is number => v !== undefined && Number.isFinite(v))).median

/** `1.64×`, or an en dash when unknown. */
export const times = (r: number): string => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '–')

/** How the report names a contender. */
export const label = (id: ContenderId): string => CONTENDERS[id].label

/** A Markdown table: the first column left-aligned, the rest right-aligned. */
export const table = (head: readonly string[], rows: readonly (readonly string[])[]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
]
