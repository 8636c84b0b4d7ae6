/**
 * Counts what one client lost or got twice of a numbered stream (`bench/recovery-store.ts`'s
 * ticks 1…last): the numbers in a range it never got, the numbers it got more than once,
 * and the times a number came after a greater one. Pure; no `node:*` imports.
 */

/** One client's account of a range of ticks. */
export interface TickTally {
  readonly lost: number
  readonly duplicated: number
  readonly outOfOrder: number
}

/**
 * Tallies the ticks a client accepted, in the order it accepted them, against `from…to`.
 *
 * @example
 * tallyTicks([1, 2, 2, 4], 1, 4) // { lost: 1, duplicated: 1, outOfOrder: 0 }
 */
export const tallyTicks = (ticks: readonly number[], from: number, to: number): TickTally => {
  const seen = new Set<number>()
  let duplicated = 0
  let outOfOrder = 0
  let previous = Number.NEGATIVE_INFINITY
  for (const n of ticks) {
    if (seen.has(n)) duplicated += 1
    else if (n < previous) outOfOrder += 1
    seen.add(n)
    previous = Math.max(previous, n)
  }
  let lost = 0
  for (let n = from; n <= to; n++) if (!seen.has(n)) lost += 1
  return { lost, duplicated, outOfOrder }
}

/** The tallies of many clients, added up. */
export const sumTallies = (tallies: readonly TickTally[]): TickTally =>
  tallies.reduce((a, b) => ({ lost: a.lost + b.lost, duplicated: a.duplicated + b.duplicated, outOfOrder: a.outOfOrder + b.outOfOrder }), { lost: 0, duplicated: 0, outOfOrder: 0 })
