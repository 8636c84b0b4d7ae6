/**
 * `readClock`: what a node's word of its own clock (its periodic digest) says of the copy
 * another node holds of its state: current, behind (ask it for its state), empty (a node with
 * no change in its epoch has nothing: no need to ask), or restarted with an earlier epoch (the
 * copy is a former run's: drop it). Each node is the only writer of its entries, so its clock
 * names its state: equal clocks are equal states. Pure. No `node:*`, no clock.
 */
import { compareClocks, type NodeClock, type NodeState } from './presence-state.js'

/** What a node's announced clock says of the copy held of it. */
export type ClockReading =
  /** The copy is at that clock or later: nothing to do. */
  | { readonly _tag: 'Current' }
  /** The node has changes the copy lacks: ask it for its state. */
  | { readonly _tag: 'Behind' }
  /** A later epoch with no change yet: the node has nothing (`{ clock, entries: [] }`). */
  | { readonly _tag: 'Empty' }
  /** An earlier epoch than the copy's: the node started again (a clock set back); the copy is stale. */
  | { readonly _tag: 'Restarted' }

/**
 * Reads `clock`, announced by a node, against `state`, the copy held of it (`undefined`:
 * nothing known of the node).
 *
 * @example
 * readClock({ clock: { epoch: 5, n: 2 }, entries: new Map() }, { epoch: 5, n: 3 })._tag // 'Behind'
 * readClock(undefined, { epoch: 6, n: 0 })._tag // 'Current' (nothing held, nothing there)
 */
export const readClock = (state: NodeState | undefined, clock: NodeClock): ClockReading => {
  if (state === undefined) return clock.n === 0 ? { _tag: 'Current' } : { _tag: 'Behind' }
  if (clock.epoch < state.clock.epoch) return { _tag: 'Restarted' }
  if (compareClocks(clock, state.clock) <= 0) return { _tag: 'Current' }
  return clock.n === 0 ? { _tag: 'Empty' } : { _tag: 'Behind' }
}
