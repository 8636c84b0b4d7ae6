/**
 * Compares twinport's median with the reference's against a workload target.
 * Pure.
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

/** The advantage a target asks for, on the same scale as `advantage`; NaN for report-only. */
export const targetAdvantage = (target: Target, reference: number): number => {
  switch (target._tag) {
    case 'AtLeastTimes':
      return target.times
    case 'AtMostTimes':
      return 1 / target.times
    case 'AtMostValue':
      return ratio(reference, target.value)
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
