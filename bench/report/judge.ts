/**
 * Compares a subject's median (twinport on some runtime) with a reference's against
 * a target. Pure.
 */
import type { Target } from '../load/workloads.js'

/** The verdict on one target. */
export type Verdict = 'met' | 'not met' | 'n/a'

/** `value / reference`, NaN when either is missing or the reference is 0. */
export const ratio = (value: number, reference: number): number =>
  Number.isFinite(value) && Number.isFinite(reference) && reference !== 0 ? value / reference : Number.NaN

/**
 * How many times better than the reference (above 1 is better), whichever
 * direction is better for the workload: what the chart draws.
 */
export const advantage = (value: number, reference: number, higherIsBetter: boolean): number =>
  higherIsBetter ? ratio(value, reference) : ratio(reference, value)

/**
 * The figure a target asks of the subject, given the reference's median: N times it, or
 * the absolute value; NaN for report-only. Put on any scale with `advantage`.
 */
export const requiredValue = (target: Target, reference: number): number => {
  switch (target._tag) {
    case 'AtLeastTimes':
    case 'AtMostTimes':
      return target.times * reference
    case 'AtMostValue':
      return target.value
    case 'ReportOnly':
      return Number.NaN
  }
}

/** Whether twinport's median meets the target given the reference's median. */
export const judge = (target: Target, twinport: number, reference: number): Verdict => {
  if (!Number.isFinite(twinport)) return 'n/a'
  switch (target._tag) {
    case 'AtLeastTimes': {
      const r = ratio(twinport, reference)
      return Number.isNaN(r) ? 'n/a' : r >= target.times ? 'met' : 'not met'
    }
    case 'AtMostTimes': {
      const r = ratio(twinport, reference)
      return Number.isNaN(r) ? 'n/a' : r <= target.times ? 'met' : 'not met'
    }
    case 'AtMostValue':
      return twinport <= target.value ? 'met' : 'not met'
    case 'ReportOnly':
      return 'n/a'
  }
}

/** The target in words, e.g. `≥ 2× node:http`. */
export const describeTarget = (target: Target, referenceLabel: string, unit: string): string => {
  switch (target._tag) {
    case 'AtLeastTimes':
      return `≥ ${target.times}× ${referenceLabel}`
    case 'AtMostTimes':
      return `≤ ${target.times}× ${referenceLabel}`
    case 'AtMostValue':
      return `≤ ${target.value} ${unit}`
    case 'ReportOnly':
      return `report, beside ${referenceLabel}`
  }
}

/** What the run says about a target's reach on this machine, beside the subject's own figures. */
export interface Reach {
  /** the subject's runtime's ceiling against the same reference (NaN when it did not run or is the subject or the reference). */
  readonly ceilingRatio: number
  readonly ceilingVerdict: Verdict
  /** the load generator's CPU per operation against the subject, µs (NaN when unknown or not a throughput). */
  readonly loadCpuUs: number
}

/** The load generator runs pinned to one core: a throughput needing more than this of it cannot be shown. */
export const LOAD_CORE_LIMIT = 1

/**
 * Why a target that is not met is out of reach of this machine, in words; undefined when it
 * is met, not judged, or nothing in the run bounds it. Two bounds, both from the same run:
 * the runtime's own ceiling (a raw socket server doing the least work) misses the target too,
 * or the throughput the target asks would need more than one core of the load generator at
 * the cost per operation it was measured at against the subject.
 *
 * @example
 * outOfReach({ _tag: 'AtLeastTimes', times: 1.5 }, 'not met', 100_000, { ceilingRatio: 1.2, ceilingVerdict: 'not met', loadCpuUs: 8 }, 'raw Bun.listen')
 * // 'raw Bun.listen itself reaches 1.20×; the load generator would need 1.20 cores (it has one)'
 */
export const outOfReach = (target: Target, verdict: Verdict, reference: number, reach: Reach, ceilingLabel: string): string | undefined => {
  if (verdict !== 'not met') return undefined
  const why: string[] = []
  if (reach.ceilingVerdict === 'not met') why.push(`${ceilingLabel} itself reaches ${reach.ceilingRatio.toFixed(2)}×`)
  const cores = (requiredValue(target, reference) * reach.loadCpuUs) / 1e6
  if (target._tag === 'AtLeastTimes' && cores > LOAD_CORE_LIMIT) why.push(`the load generator would need ${cores.toFixed(2)} cores (it has one)`)
  return why.length === 0 ? undefined : why.join('; ')
}
