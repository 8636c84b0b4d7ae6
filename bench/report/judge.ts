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
