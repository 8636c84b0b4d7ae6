/**
 * `HeartbeatWheel`: the heartbeat spread over its interval (issue 31). The interval is cut
 * into ticks (`heartbeatTicks`, one every `HEARTBEAT_TICK_MS`); each tick visits the next
 * slice of the server's connections through a cursor over the client table that keeps its
 * place between ticks, `ceil(size / ticks)` of them, so no tick does more than a bounded
 * share of the work at any number of connections, and each connection is visited once per
 * round of ticks (once per interval). A round that ends early waits for the next interval;
 * one that grew meanwhile finishes on the next round's ticks (late, never in one piece).
 *
 * A connection stamps the tick of its last ping in bits of its flags (`stampPing`), and is
 * judged dead only when that ping is at least half an interval old (`pingSettled`): a
 * connection that moved up the table (others before it left) is visited sooner than an
 * interval after its ping, and a live client's pong may not be back yet.
 * Must not import `node:*`, Buffer or process.
 */

/** A tick of the wheel every this many milliseconds (fewer ticks for a short interval). */
export const HEARTBEAT_TICK_MS = 50

/** How many ticks one heartbeat interval is cut into: one per `HEARTBEAT_TICK_MS`, at least one. */
export const heartbeatTicks = (intervalMs: number): number => Math.max(1, Math.floor(intervalMs / HEARTBEAT_TICK_MS))

/** A connection the wheel visits: it pings, or ends a client that did not answer the last ping. */
export interface Beating {
  /** `tick`: the wheel's tick now; `settle`: ticks after which an unanswered ping means a dead client. */
  heartbeat(tick: number, settle: number): void
}

// The ping's tick lives above a connection's own flag bits (8 of them), kept to 22 bits so
// that the flags stay a small integer (V8's Smi: 31 bits); ticks are compared modulo 2^22.
const PING_SHIFT = 8
const PING_MASK = (1 << 22) - 1
const OWN_BITS = (1 << PING_SHIFT) - 1

/** `flags` with the ping's tick set to `tick` (a connection's own bits kept). */
export const stampPing = (flags: number, tick: number): number => (flags & OWN_BITS) | ((tick & PING_MASK) << PING_SHIFT)

/** Whether the ping stamped in `flags` was sent at least `settle` ticks before `tick`. */
export const pingSettled = (flags: number, tick: number, settle: number): boolean => ((tick - (flags >>> PING_SHIFT)) & PING_MASK) >= settle

export class HeartbeatWheel<T> {
  /** Ticks run since the wheel was made (the clock pings are stamped with). */
  tick = 0
  /** Ticks after which a ping is answered or never will be: half an interval. */
  readonly settle: number
  private cursor: Iterator<T> | undefined = undefined
  private phase = 0 // the tick within the round
  private waiting: number // ticks left before the first round

  /**
   * `all`: the connections, a live collection whose iterators see what is added and skip what
   * is removed (a `Map`'s values); `visit` pings one of them; `ticks`: ticks per interval;
   * `wait`: ticks before the first round (a server's first pings come an interval after it
   * starts, as they always did: a fresh connection is not pinged at once).
   */
  constructor(
    private readonly all: { values(): Iterator<T>; readonly size: number },
    private readonly visit: (item: T, tick: number, settle: number) => void,
    readonly ticks: number,
    wait = 0,
  ) {
    this.settle = Math.ceil(ticks / 2)
    this.waiting = wait
  }

  /** One tick: visits the next slice (at most `ceil(size / ticks)`); answers how many it visited. */
  turn(): number {
    this.tick += 1
    if (this.waiting > 0) {
      this.waiting -= 1
      return 0
    }
    const first = this.phase === 0
    this.phase = (this.phase + 1) % this.ticks
    if (first && this.cursor === undefined) this.cursor = this.all.values()
    const slice = Math.ceil(this.all.size / this.ticks)
    let visited = 0
    let restarted = false
    while (visited < slice && this.cursor !== undefined) {
      const next = this.cursor.next()
      if (next.done === true) {
        // The last round used up its ticks and ends here; on a round's first tick the next
        // one starts at once (only once: an empty table gives an empty round).
        this.cursor = first && !restarted && visited === 0 ? this.all.values() : undefined
        restarted = true
        continue
      }
      visited += 1
      this.visit(next.value, this.tick, this.settle)
    }
    return visited
  }
}
