/**
 * `ErrorRing`: the last `capacity` errors of a server (error events sent, warning and error log
 * lines), oldest dropped first, for the admin page. One per server, passed in: no module state.
 * Pure and portable: no node:* imports.
 */
import type { AdminError } from './admin-snapshot.js'

/** Longest message kept, in characters: a log line's context is not the page's business. */
const MAX_MESSAGE = 300

export class ErrorRing {
  private readonly slots: AdminError[] = []
  private next = 0

  constructor(readonly capacity = 50) {}

  /** Keeps `entry`, dropping the oldest past `capacity`. */
  push(entry: AdminError): void {
    if (this.capacity <= 0) return
    const kept = entry.message.length > MAX_MESSAGE ? { ...entry, message: `${entry.message.slice(0, MAX_MESSAGE)}…` } : entry
    if (this.slots.length < this.capacity) this.slots.push(kept)
    else this.slots[this.next] = kept
    this.next = (this.next + 1) % this.capacity
  }

  /** The entries kept, oldest first. */
  list(): readonly AdminError[] {
    return this.slots.length < this.capacity ? [...this.slots] : [...this.slots.slice(this.next), ...this.slots.slice(0, this.next)]
  }
}

/**
 * A ring of the last `capacity` errors.
 *
 * @example
 * const ring = errorRing(2)
 * ring.push({ at: 1, kind: 'event', message: 'a' }); ring.push({ at: 2, kind: 'event', message: 'b' }); ring.push({ at: 3, kind: 'event', message: 'c' })
 * ring.list().map((e) => e.message) // ['b', 'c']
 */
export const errorRing = (capacity = 50): ErrorRing => new ErrorRing(capacity)
