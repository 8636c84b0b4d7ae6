/**
 * `checkTargetTail`: whether the entries a target's log holds after a session's cursor are
 * everything the session missed, across the epochs a Redis Cluster failover starts
 * (lua-scripts.ts, PUBLISH_SCRIPT; docs/decisions.md "Session recovery across nodes").
 * Pure: the Redis recovery store reads the facts in one script (READ_TARGET_SCRIPT) and
 * hands them here. Must not import `node:*`, Buffer or process.
 *
 * The log a master holds is one line of epochs, each numbered 1, 2, 3, … with no hole
 * (trimming only drops its oldest entries). A failover that lost un-replicated writes ends
 * the old epoch where the new master had it (`pe`, `pn`) and starts a new one. So, for a
 * cursor in epoch E at n:
 * - E ended at or after n here: the rest of E, then every later epoch from its first entry;
 * - E ended before n: the client saw broadcasts Redis lost, and may have missed others that
 *   went with them: `gap`;
 * - where E ended cannot be told (an epoch the counter no longer names, its entries
 *   trimmed, or a log started again): `new_epoch`;
 * - an entry missing on the way (trimmed), one that is not a broadcast, or a log that does
 *   not end where its counter does: `gap`.
 */
import type { Sequence } from '../core/cluster/cluster-message.js'
import type { ReadRoomSince, RoomFrame } from '../engine/recovery/recovery-store.js'

/** What the log holds of a target, read at one instant. */
export interface TargetTailFacts {
  /** The session's cursor; `{0,0}` when the target had no log yet (everything is after it). */
  readonly after: Sequence
  /** The entries after the cursor in stream order: each place, and its broadcast (undefined: not one). */
  readonly rows: readonly { readonly place: Sequence; readonly frame: RoomFrame | undefined }[]
  /** The counter: the current epoch and its last number, and where the epoch before it ended (when a failover started this one). */
  readonly counter: { readonly e: number; readonly n: number; readonly pe?: number; readonly pn?: number } | undefined
  /** The entry at the cursor itself is still in the log. */
  readonly atCursor: boolean
}

const GAP: ReadRoomSince = { _tag: 'Resync', reason: 'gap' }
const same = (a: Sequence, b: Sequence): boolean => a.epoch === b.epoch && a.n === b.n

// Where the cursor's epoch ended in this log, when that can be told.
const endOf = (facts: TargetTailFacts): number | undefined => {
  const { after, rows, counter, atCursor } = facts
  if (counter?.e === after.epoch) return counter.n
  if (counter?.pe === after.epoch) return counter.pn
  // An older epoch: its last entry is followed by the next epoch's first in the stream.
  const mine = rows.filter((r) => r.place.epoch === after.epoch)
  return mine[mine.length - 1]?.place.n ?? (atCursor ? after.n : undefined)
}

/**
 * The broadcasts after `facts.after`, or why they are not all there.
 *
 * @example
 * // The cursor at (5, 3); a failover ended epoch 5 at 4 and started epoch 9.
 * checkTargetTail({ after: { epoch: 5, n: 3 }, rows: [{ place: { epoch: 5, n: 4 }, frame: f4 }, { place: { epoch: 9, n: 1 }, frame: g1 }], counter: { e: 9, n: 1, pe: 5, pn: 4 }, atCursor: true })
 * // { _tag: 'Frames', frames: [f4, g1] }
 * checkTargetTail({ after: { epoch: 5, n: 6 }, rows: [{ place: { epoch: 9, n: 1 }, frame: g1 }], counter: { e: 9, n: 1, pe: 5, pn: 4 }, atCursor: false })
 * // { _tag: 'Resync', reason: 'gap' }: the client saw 5-5 and 5-6, which Redis lost
 */
export const checkTargetTail = (facts: TargetTailFacts): ReadRoomSince => {
  const { after, rows, counter } = facts
  const frames: RoomFrame[] = []
  for (const r of rows) {
    // A foreign entry is never handed out as a broadcast.
    if (r.frame === undefined) return GAP
    frames.push(r.frame)
  }
  // No log at all (never written, or expired with its counter): nothing to miss.
  if (counter === undefined && rows.length === 0) return { _tag: 'Frames', frames: [] }
  const fromStart = after.epoch === 0 && after.n === 0
  let end: number | undefined
  if (fromStart) {
    // Everything is the session's: the log must still start at the first entry of its first epoch.
    const first = rows[0]?.place
    if (first !== undefined && (first.n !== 1 || (counter?.pe !== undefined && first.epoch > counter.pe))) return GAP
  } else {
    end = endOf(facts)
    if (end === undefined) return { _tag: 'Resync', reason: 'new_epoch' }
    if (end < after.n) return GAP
  }
  let at = after
  for (const { place } of rows) {
    const inCursorEpoch = !fromStart && at.epoch === after.epoch
    const onward = place.epoch === at.epoch && place.n === at.n + 1 && !(inCursorEpoch && place.n > (end as number))
    const nextEpoch = place.epoch > at.epoch && place.n === 1 && (!inCursorEpoch || at.n === end)
    if (!onward && !nextEpoch) return GAP
    at = place
  }
  // The log must end where its counter does (nothing after the cursor gone from the end).
  if (counter !== undefined && !same(at, { epoch: counter.e, n: counter.n })) return GAP
  return { _tag: 'Frames', frames }
}
