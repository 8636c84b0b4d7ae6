/**
 * `sequenceBefore`: the order of two places in a target's log (`Sequence`): by epoch, then
 * by number within it. One definition for the engine's cursors and the Redis adapter's scopes.
 * Pure and portable: no node:* imports.
 */
import type { Sequence } from './cluster-message.js'

/**
 * Whether place `a` comes before place `b`.
 *
 * @example
 * sequenceBefore({ epoch: 1, n: 9 }, { epoch: 2, n: 1 }) // true
 * sequenceBefore({ epoch: 2, n: 3 }, { epoch: 2, n: 3 }) // false
 */
export const sequenceBefore = (a: Sequence, b: Sequence): boolean => a.epoch < b.epoch || (a.epoch === b.epoch && a.n < b.n)
