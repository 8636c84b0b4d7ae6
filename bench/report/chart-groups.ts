/**
 * The bar groups of ratios.svg: per workload, every contender but the ceilings, each
 * against the ceiling of its own runtime, with twinport's issue-13 target on that runtime
 * put on the same scale. Pure.
 */
import { CEILING, CONTENDERS, isTwinport } from '../peers/contenders.js'
import type { Workload } from '../load/workloads.js'
import { advantage, requiredValue } from './judge.js'
import { ceilingFor, label, medianFor, rowsOf } from './rows.js'
import type { BarGroup } from './render-svg.js'
import type { Report } from './sample.js'

const CEILINGS = new Set(Object.values(CEILING))

/** One group per workload; a bar per contender that is not a ceiling. */
export const chartGroups = (report: Report, workloads: readonly Workload[]): BarGroup[] =>
  workloads.map((w) => ({
    title: w.title,
    reference: "each runtime's ceiling",
    target: Number.NaN,
    bars: rowsOf(report, w)
      .filter((r) => !CEILINGS.has(r.id))
      .map((r) => {
        const ceiling = ceilingFor(report, w, r.id)
        const goal = w.goals.find((g) => g.issue === 13 && g.subject === r.id && g.runtime === CONTENDERS[r.id].runtime)
        const required = goal === undefined ? Number.NaN : requiredValue(goal.target, medianFor(report, w, goal.reference))
        return {
          label: label(r.id),
          advantage: advantage(r.value.median, ceiling, w.higherIsBetter),
          twinport: isTwinport(r.id),
          target: advantage(required, ceiling, w.higherIsBetter),
        }
      }),
  }))
