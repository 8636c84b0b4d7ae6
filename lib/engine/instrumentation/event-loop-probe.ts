/**
 * `EventLoopProbe`: the event loop's delay, measured the portable way: a timer set every
 * 100 ms and how late it fires, observed in a histogram (seconds). Runs on the platform's
 * timers (which never keep the process alive), started with the server's first connection
 * and stopped at close. Must not import `node:*`, Buffer or process.
 */
import type { Histogram } from '../../core/metrics/histogram.js'
import type { TimerId, Timers } from '../platform.js'

const EVERY_MS = 100

export class EventLoopProbe {
  private timer: TimerId | undefined = undefined
  private last = 0

  constructor(
    private readonly timers: Timers,
    private readonly delay: Histogram,
  ) {}

  start(): void {
    if (this.timer !== undefined) return
    const series = this.delay.labels()
    this.last = this.timers.now()
    this.timer = this.timers.setInterval(() => {
      const now = this.timers.now()
      series.observe(Math.max(0, now - this.last - EVERY_MS) / 1000)
      this.last = now
    }, EVERY_MS)
  }

  stop(): void {
    if (this.timer !== undefined) this.timers.clearInterval(this.timer)
    this.timer = undefined
  }
}
