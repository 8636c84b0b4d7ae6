/**
 * Number formatting for RESULTS.md: thousands separators for big numbers,
 * three significant digits for small ones, an en dash for a missing value. Pure.
 */

/** `40,123` / `9.73` / `0.281` / `–`. */
export const formatNumber = (n: number): string => {
  if (!Number.isFinite(n)) return '–'
  const a = Math.abs(n)
  if (a >= 1000) return Math.round(n).toLocaleString('en-US')
  if (a >= 100) return n.toFixed(0)
  if (a >= 10) return n.toFixed(1)
  if (a >= 1) return n.toFixed(2)
  return n.toPrecision(3)
}
