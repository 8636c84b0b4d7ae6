/**
 * `wireCluster`: joins one server to the rest of its cluster (DESIGN §7, docs/architecture.md
 * "The cluster port"). The application's side is `server.cluster` (cluster-handle.ts), whose
 * requests about a client of this node are done here when it is a WebSocket client here;
 * the adapter's side is the `ClusterHost` it is attached with: other nodes' frames go to
 * the broadcaster as they came, their requests are answered from this node's registry.
 * Must not import `node:*`, Buffer or process.
 */
import type { Logger } from '../../core/log/logger.js'
import { encodeEvent } from '../../core/ws/envelope.js'
import type { Broadcaster } from '../delivery/broadcaster.js'
import type { ClientTable } from '../registry/client-table.js'
import type { ClusterAdapter } from './cluster-adapter.js'
import { type ClusterHandle, createClusterHandle } from './cluster-handle.js'
import type { Delivery } from '../delivery/delivery.js'
import type { NamespaceRegistry } from '../registry/namespace-registry.js'
import { encodeRawFrame } from '../delivery/outgoing.js'
import type { FrameWriter, Timers } from '../platform.js'
import type { ServerOps } from '../server-ops.js'

export interface WireClusterDeps<S> {
  readonly cluster: ClusterAdapter
  readonly registry: NamespaceRegistry
  readonly table: ClientTable<S>
  readonly delivery: Delivery<S>
  readonly broadcaster: Broadcaster<S>
  readonly ops: ServerOps<S>
  readonly frames: FrameWriter
  readonly logger: Logger
  readonly timers: Timers
  /** Another node's post for an event-stream session of this node (sse-shared.ts); false when none holds it. */
  readonly post: (sid: string, text: string) => boolean
  /** A node is no longer in the cluster (the adapter's `nodeLeft`): presence drops its entries. */
  readonly nodeLeft: (node: string) => void
}

/** Attaches the cluster adapter to this server; answers `server.cluster`. */
export const wireCluster = <S>({ cluster, registry, table, delivery, broadcaster, ops, frames, logger, timers, post, nodeLeft }: WireClusterDeps<S>): ClusterHandle => {
  // Another node's request about a client of this one: done when it is a WebSocket client here.
  const ifWsClient = (clientId: number, run: () => void): boolean => {
    if (!table.ws.has(clientId)) return false
    run()
    return true
  }
  const side = createClusterHandle({
    adapter: cluster,
    registry,
    localClients: () => table.ws.keys(),
    sendFrame: (clientId, frame, text) => delivery.send(clientId, frame, text),
    eventFrame: (event, data) => {
      const text = encodeEvent({ event, data })
      return { frame: frames.text(text), text }
    },
    rawFrame: (message) => encodeRawFrame(frames, message),
    disconnect: (clientId, close) => ifWsClient(clientId, () => void ops.closeClient(clientId, close)),
    join: (clientId, room, namespace) => ifWsClient(clientId, () => ops.joinRoom(clientId, room, namespace)),
    leave: (clientId, room, namespace) => ifWsClient(clientId, () => ops.leaveRoom(clientId, room, namespace)),
    post,
    logger,
    instrumentation: ops.instrumentation,
  })
  // Frames from other nodes are written to local sockets as they came: no JSON on the way.
  cluster.attach({
    deliver: (frame, target, envelope, seq) => broadcaster.fromCluster(frame, target, envelope, seq),
    deliverTo: (clientId, frame, envelope) => broadcaster.toClient(clientId, frame, envelope),
    answer: side.answer,
    nodeLeft,
    logger,
    timers,
  })
  return side.handle
}
