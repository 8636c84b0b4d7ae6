/**
 * `RefusedUpgrade`: the receiver of a connection whose upgrade was refused with a close code
 * (docs/protocol.md, "Refused upgrades and kicks"). It reads nothing (the client's close frame
 * is not awaited) and holds the timer that cuts the socket if the client never closes; the
 * lifecycle clears that timer when the socket is gone, so a burst of refusals keeps no socket
 * alive for the close time-out. Must not import `node:*`, Buffer or process.
 */
import type { TimerId, Timers } from '../platform.js'
import type { Receiver } from './client.js'

export class RefusedUpgrade implements Receiver {
  private readonly cut: TimerId

  constructor(
    private readonly timers: Timers,
    destroy: () => void,
    closeTimeoutMs: number,
  ) {
    this.cut = timers.setTimeout(destroy, closeTimeoutMs)
  }

  receive(): void {}

  peerEnded(): void {}

  /** The socket is gone: the cut is not needed any more. */
  closed(): void {
    this.timers.clearTimeout(this.cut)
  }
}
