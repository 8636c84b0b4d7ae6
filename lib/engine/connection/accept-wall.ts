/**
 * `AcceptWall`: the connections a server could not take, made visible without a log line per
 * connection (at a million connections a wall is hit thousands of times a second). Refusals
 * past `maxConnections`, refusals while shutting down, and accepts the runtime failed for want
 * of file descriptors (EMFILE, ENFILE: where the runtime reports them) are counted; the first
 * of a quiet period is logged at once, the rest once per `WALL_LOG_MS` with their counts, the
 * open connections and the limits. Not `AbuseLog` (limit/abuse-log.ts), though both count
 * what they do not log: the wall is one fixed set of counters reported together in one line
 * with the server's state (open connections, limits), on the leading edge of a quiet period;
 * the abuse log is a line per kind of input, with the facts of its first occurrence.
 * Must not import `node:*`, Buffer or process.
 */
import type { Logger } from '../../core/log/logger.js'
import type { TimerId, Timers } from '../platform.js'

/** At most one wall warning per this many milliseconds. */
export const WALL_LOG_MS = 10_000

/** Why a connection was not taken. */
export type WallReason = 'full' | 'draining' | 'descriptors'

/** Whether a runtime's accept error is the file-descriptor wall (EMFILE or ENFILE, by code or by Rust's message). */
export const isDescriptorError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'EMFILE' || code === 'ENFILE') return true
  const message = error instanceof Error ? error.message : String(error)
  return /EMFILE|ENFILE|too many open files|os error 2[34]\b/i.test(message)
}

export class AcceptWall {
  private full = 0
  private draining = 0
  private descriptors = 0
  private timer: TimerId | undefined = undefined
  // A warning was logged within the last WALL_LOG_MS: the next ones wait for the timer.
  private quietUntil = 0

  constructor(
    private readonly timers: Timers,
    private readonly logger: Logger,
    /** The open connections now. */
    private readonly open: () => number,
    private readonly maxConnections: number,
    private readonly fdLimit: number | undefined,
  ) {}

  /** One connection not taken, for `reason`. */
  hit(reason: WallReason): void {
    this[reason] += 1
    if (this.timer !== undefined) return
    const now = this.timers.now()
    if (now >= this.quietUntil) return this.report()
    this.timer = this.timers.setTimeout(() => this.report(), this.quietUntil - now)
  }

  /** Stops the pending report (the server is closed). */
  close(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer)
    this.timer = undefined
  }

  private report(): void {
    this.timer = undefined
    const { full, draining, descriptors } = this
    if (full + draining + descriptors === 0) return
    this.full = this.draining = this.descriptors = 0
    this.quietUntil = this.timers.now() + WALL_LOG_MS
    this.logger.warning('connections not taken: {full} past maxConnections, {draining} while shutting down, {descriptors} out of file descriptors (EMFILE/ENFILE); {open} open', {
      full, draining, descriptors, open: this.open(), maxConnections: this.maxConnections, fdLimit: this.fdLimit ?? 'unknown',
    })
  }
}
