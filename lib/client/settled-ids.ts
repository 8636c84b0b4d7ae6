/**
 * `settledIds`: the ids of the last requests that were answered, timed out or aborted, so a
 * late or repeated answer for one of them (after a reconnect, a replay or a time-out) is
 * dropped quietly instead of reported as unknown. Bounded: the oldest id goes first.
 */
import type { EventId } from '../core/ws/event.js'

/** A bounded set of ids. */
export interface SettledIds {
  add(id: EventId): void
  has(id: EventId): boolean
}

/**
 * Remembers the last `size` ids.
 *
 * @example
 * const s = settledIds(2)
 * s.add(1); s.add(2); s.add(3)
 * s.has(1) // false
 * s.has(3) // true
 */
export const settledIds = (size: number): SettledIds => {
  const ids = new Set<EventId>()
  return {
    add: (id) => {
      ids.delete(id)
      ids.add(id)
      // A Set iterates in insertion order, so the first value is the oldest.
      if (ids.size > size) ids.delete(ids.values().next().value as EventId)
    },
    has: (id) => ids.has(id),
  }
}
