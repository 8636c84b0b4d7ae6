/**
 * `AbuseLog`: bad or abusive input logged once per window with counts, not once per message
 * (issue 25): the first occurrence of a kind in a window is logged with its facts, the others
 * are counted and the count is logged when the window ends. A flood of malformed frames, bad
 * requests or refused checks costs a counter each, and the log two lines per kind per window.
 * The connections a server could not take are `AcceptWall`'s (connection/accept-wall.ts): one
 * line for all its reasons together with the server's state, not a line per kind.
 * Must not import `node:*`, Buffer or process.
 */
import type { Logger } from '../../core/log/logger.js'
import type { TimerId, Timers } from '../platform.js'

export class AbuseLog {
  // Occurrences after the first, by kind, in the current window.
  private readonly counts = new Map<string, number>()
  private timer: TimerId | undefined = undefined

  constructor(
    private readonly logger: Logger,
    private readonly timers: Timers,
    readonly windowMs: number,
  ) {}

  /** One occurrence of `kind` (a short text: `bad request`, `rate limited`), with its facts. */
  note(kind: string, facts: Readonly<Record<string, unknown>> = {}): void {
    const seen = this.counts.get(kind)
    if (seen !== undefined) {
      this.counts.set(kind, seen + 1)
      return
    }
    this.counts.set(kind, 0)
    this.logger.warning(`${kind} (more within {windowMs} ms are counted, not logged one by one)`, { ...facts, windowMs: this.windowMs })
    this.timer ??= this.timers.setTimeout(() => this.endWindow(), this.windowMs)
  }

  /** Stops the window's timer (the server is closing); what was counted is logged now. */
  close(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer)
    this.endWindow()
  }

  private endWindow(): void {
    this.timer = undefined
    for (const [kind, more] of this.counts) {
      if (more > 0) this.logger.warning(`${kind}: {count} more in the last {windowMs} ms`, { count: more, windowMs: this.windowMs })
    }
    this.counts.clear()
  }
}
