/**
 * The port between one server (a node) and the rest of its cluster (DESIGN §7). The engine
 * hands an adapter every broadcast as the WebSocket frame it already encoded, and the
 * adapter hands the engine what other nodes sent: frames to write to local sockets as they
 * are (no JSON is decoded or encoded again on the way), and requests to answer. The default
 * adapter (`inProcessCluster`) has no other node: a server alone, as before. The Redis one
 * is `redisAdapter` in `twinport/redis`.
 *
 * Types only. Must not import `node:*`, Buffer or process.
 */
import type { Sequence } from '../../core/cluster/cluster-message.js'
import type { Logger } from '../../core/log/logger.js'
import type { Timers } from '../platform.js'
import type { ClusterLinkState } from '../../core/metrics/server-health.js'
import type { LimitStore } from '../limit/limit-store.js'

/**
 * Where a broadcast goes in the cluster: every client of every node, a namespace, or a room
 * of a namespace. (A `BroadcastTarget`'s `except` names a client of the node it starts on,
 * which has already left it out; other nodes have no such client.)
 */
export interface ClusterTarget {
  readonly namespace?: string
  readonly room?: string
}

/** One node's answer to a request. */
export interface ClusterReply {
  readonly node: string
  /** The answer, as the answering node's engine gave it (JSON data). */
  readonly body: unknown
}

/** The answers that came within the time bound, and the live nodes that did not answer. */
export interface ClusterReplies {
  readonly replies: readonly ClusterReply[]
  /** Nodes that were alive when asked (by the adapter's registry) and did not answer in time. */
  readonly missingNodes: readonly string[]
}

/** What an adapter receives from the engine it is attached to. */
export interface ClusterHost {
  /**
   * Writes a frame another node encoded to every local receiver of `target` (the same bytes
   * to each; no decoding). `envelope`: the frame holds an event envelope, which clients
   * with a session get numbered. `seq`: its place in the target's log, when the adapter
   * keeps one (session recovery across nodes reads the log after it). Answers how many
   * local clients got it.
   */
  deliver(frame: Uint8Array, target: ClusterTarget, envelope: boolean, seq?: Sequence): number
  /** Writes a frame to one local client; false when there is no such WebSocket client. */
  deliverTo(clientId: number, frame: Uint8Array, envelope: boolean): boolean
  /** Answers a request from another node (`body` is JSON data, checked by the engine). */
  answer(body: unknown, from: string): Promise<unknown>
  /**
   * Node `node` is no longer in the cluster (it left, or its heartbeat ran out): what it had
   * in presence topics leaves. An adapter without node liveness never calls it.
   */
  nodeLeft?(node: string): void
  readonly logger: Logger
  readonly timers: Timers
}

/**
 * A cluster adapter: what the engine calls. Every call returns at once; nothing the engine
 * calls may wait on the network, so local delivery never waits for the cluster.
 */
export interface ClusterAdapter {
  /** This node's id, unique in the cluster, without `/`. */
  readonly nodeId: string
  /** Called once, when the engine starts, before any other call. */
  attach(host: ClusterHost): void
  /**
   * The link to the rest of the cluster now (`healthRoute({ requireCluster: true })` reads it);
   * an adapter without one is taken to be `up`.
   */
  linkState?(): ClusterLinkState
  /**
   * A broadcast that started on this node (and is written to its local receivers): the
   * adapter sends the same frame bytes to the other nodes that have receivers of `target`.
   * `envelope`: the frame holds an event envelope (`broadcast`), not a raw message.
   */
  publish(frame: Uint8Array, target: ClusterTarget, envelope: boolean): void
  /** A frame for client `clientId` of node `node` (another node). */
  sendTo(node: string, clientId: number, frame: Uint8Array, envelope: boolean): void
  /**
   * Asks the other nodes (or only `node`) and resolves with the answers that came within
   * `timeoutMs` (the adapter's default when absent), naming the live nodes that did not
   * answer. Never rejects.
   */
  request(body: unknown, options?: { readonly node?: string; readonly timeoutMs?: number }): Promise<ClusterReplies>
  /**
   * Hands `body` (a request, JSON data) to every other node's `ClusterHost.answer` without
   * asking for answers: no reply, no tracking, no time-out, one message. It may be lost (the
   * link down, a node not listening yet); the caller repairs what matters (presence's digest).
   * Absent: the engine calls `request` instead and leaves its answers.
   */
  tell?(body: unknown): void
  /**
   * The other nodes alive now, as far as the adapter knows (its heartbeat registry). An empty
   * list lets the engine skip what only another node would read (presence's deltas and
   * digests: a node that joins later catches up through its fetch and the digests). Absent:
   * the adapter cannot tell, and everything is sent.
   */
  liveNodes?(): readonly string[]
  /** The first local client joined this room (the adapter may start listening to it). */
  roomOpened(namespace: string, room: string): void
  /** The last local client left this room. */
  roomClosed(namespace: string, room: string): void
  /** The first local client joined this namespace. */
  namespaceOpened(namespace: string): void
  /** The last local client left this namespace. */
  namespaceClosed(namespace: string): void
  /** The server is shutting down: leave the cluster (never rejects). */
  close(): Promise<void>
  /**
   * A rate-limit store every node shares: with it, `rateLimit` routes count across the cluster
   * (the `rateLimits.store` option, `'cluster'` by default). Absent: each node counts its own.
   */
  readonly limitStore?: LimitStore
}
