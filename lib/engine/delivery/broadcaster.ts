/**
 * `Broadcaster`: a broadcast's way out of one node. It is encoded once: the same frame bytes
 * go to the cluster adapter for the other nodes (which write them as they are) and to this
 * node's receivers through delivery; `except` is this node's business. Another node's frames
 * come in here too (`fromCluster`, `toClient`), written to local sockets as they came: no
 * JSON on the way, except the text of an envelope when this node has sessions to number.
 * The broadcast's origin (`FrameSource`, for the sessions' cursors when a recovery store is
 * on) is passed along as an argument.
 *
 * Writes are batched per I/O turn: the first broadcast of a turn is written at once; from
 * the second on, receivers' writes are held to the end of the turn (the flush batcher, which
 * delivery's `hold` calls while `busy`), so a burst of broadcasts reaches each receiver in
 * one write instead of one per message. Must not import `node:*`, Buffer or process.
 */
import type { Sequence } from '../../core/cluster/cluster-message.js'
import type { Logger } from '../../core/log/logger.js'
import type { BroadcastTarget } from '../../core/route/socket-context.js'
import type { ClusterAdapter, ClusterTarget } from '../cluster/cluster-adapter.js'
import type { FrameSource } from '../recovery/client-session.js'
import type { Delivery } from './delivery.js'
import { frameText } from './frame-text.js'
import type { Timers } from '../platform.js'
import type { SessionRecovery } from '../recovery/session-recovery.js'
import { type Instrumentation, NO_INSTRUMENTATION } from '../instrumentation/instrumentation.js'

// The cluster target of a broadcast to everyone.
const EVERYWHERE: ClusterTarget = {}

export class Broadcaster<S> {
  /** A second broadcast came in this I/O turn: receivers' writes wait for its end. */
  busy = false
  private thisTurn = 0
  private readonly endTurn = (): void => {
    this.thisTurn = 0
    this.busy = false
  }

  constructor(
    private readonly delivery: Delivery<S>,
    private readonly cluster: ClusterAdapter,
    private readonly recovery: SessionRecovery<S>,
    private readonly timers: Timers,
    private readonly logger: Logger,
    private readonly instrumentation: Instrumentation = NO_INSTRUMENTATION,
  ) {}

  /**
   * A broadcast this node starts: to the other nodes first (their writes start while this
   * node writes its own), then to the local receivers. `text` is the envelope the frame holds
   * (numbered for clients with a session); raw messages have none. Answers the local count.
   */
  publish(frame: Uint8Array, target: BroadcastTarget | undefined, text: string | undefined): number {
    const to: ClusterTarget = target === undefined ? EVERYWHERE : { namespace: target.namespace, room: target.room }
    this.instrumentation.clusterPublished()
    try {
      this.cluster.publish(frame, to, text !== undefined)
    } catch (error) {
      this.logger.exception(error, { phase: 'cluster publish' })
    }
    return this.fanOut(frame, target, text, text === undefined ? undefined : this.recovery.localSource(to, frame))
  }

  /** Another node's broadcast (`ClusterHost.deliver`): its text is read only when this node has sessions to number. */
  fromCluster(frame: Uint8Array, target: ClusterTarget, envelope: boolean, seq?: Sequence): number {
    this.instrumentation.clusterReceived()
    const text = envelope && this.recovery.numbering ? frameText(frame) : undefined
    return this.fanOut(frame, target, text, text === undefined ? undefined : this.recovery.remoteSource(target, seq))
  }

  /** Another node's message to one client of this node (`ClusterHost.deliverTo`). */
  toClient(clientId: number, frame: Uint8Array, envelope: boolean): boolean {
    this.instrumentation.clusterReceived()
    return this.delivery.send(clientId, frame, envelope && this.recovery.numbering ? frameText(frame) : undefined)
  }

  private fanOut(frame: Uint8Array, target: BroadcastTarget | ClusterTarget | undefined, text: string | undefined, source: FrameSource | undefined): number {
    this.thisTurn += 1
    if (this.thisTurn === 1) this.timers.afterIo(this.endTurn)
    else this.busy = true
    return this.delivery.broadcast(frame, target, text, source)
  }
}
