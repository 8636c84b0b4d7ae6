/**
 * Order statistics for benchmark samples: median, min–max and percentiles.
 * Pure; imports nothing.
 */

/** A set of samples reduced to what RESULTS.md prints. */
export interface Summary {
  readonly n: number
  readonly median: number
  readonly min: number
  readonly max: number
}

/**
 * The `p`-th percentile (0..100) of samples already sorted ascending, by the
 * nearest-rank method; `NaN` when there are none.
 *
 * @example percentile([1, 2, 3, 4], 50) === 2
 */
export const percentile = (sorted: ArrayLike<number>, p: number): number => {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length)
  return sorted[Math.max(0, rank - 1)] ?? Number.NaN
}

/**
 * Median (the mean of the two middle values for an even count), min and max;
 * `NaN` fields when there are no samples. The input is not modified.
 *
 * @example summarize([3, 1, 2]) // { n: 3, median: 2, min: 1, max: 3 }
 */
export const summarize = (values: readonly number[]): Summary => {
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  if (n === 0) return { n, median: Number.NaN, min: Number.NaN, max: Number.NaN }
  const mid = n >> 1
  const median = n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  return { n, median, min: sorted[0]!, max: sorted[n - 1]! }
}
