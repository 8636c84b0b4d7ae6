/**
 * The message that crosses between cluster nodes (DESIGN §7), as data: a broadcast carries
 * the WebSocket frame the origin node already encoded, so a node that receives it writes
 * those bytes to its sockets without decoding or encoding JSON. Wire layout and the codec:
 * `encode-cluster-message.ts`, `decode-cluster-message.ts`; docs/protocol.md "Between nodes".
 * Types only; pure and portable.
 */

/**
 * The place of a broadcast in the order of its target's messages: the epoch (when the
 * target's log was started, in ms) and the number in that epoch (1, 2, 3, …). Given by the
 * cluster's log (a Redis Stream), not by the node; `{ epoch: 0, n: 0 }` means "not sequenced".
 */
export interface Sequence {
  readonly epoch: number
  readonly n: number
}

/** No place in any order: direct messages, requests and replies. */
export const UNSEQUENCED: Sequence = Object.freeze({ epoch: 0, n: 0 })

/** A broadcast: the frame for every receiver of the target on the nodes that get it. */
export interface ClusterBroadcast {
  readonly _tag: 'Broadcast'
  /** The node the broadcast started on (it has delivered it to its own clients). */
  readonly origin: string
  readonly seq: Sequence
  /** Absent: every namespace. */
  readonly namespace?: string
  /** Absent: the whole namespace (or everything). */
  readonly room?: string
  /**
   * Set when the frame holds an event envelope (`ctx.broadcast`), not a raw message: a node
   * numbers envelopes for its clients with a session, and never a raw message.
   */
  readonly envelope?: true
  /** One complete unmasked server frame (FIN set, text or binary). */
  readonly frame: Uint8Array
}

/** A frame for one client of one node. */
export interface ClusterDirect {
  readonly _tag: 'Direct'
  readonly origin: string
  readonly seq: Sequence
  /** The node the client is on. */
  readonly node: string
  readonly clientId: number
  /** Set when the frame holds an event envelope (see `ClusterBroadcast.envelope`). */
  readonly envelope?: true
  readonly frame: Uint8Array
}

/** A question for every node (or only `node`), answered by a `Reply` with the same `requestId`. */
export interface ClusterRequestMessage {
  readonly _tag: 'Request'
  readonly origin: string
  readonly seq: Sequence
  readonly requestId: number
  /** The only node that should answer; empty: every node. */
  readonly node: string
  /** JSON text. */
  readonly body: string
}

/** An answer to a `Request`. */
export interface ClusterReplyMessage {
  readonly _tag: 'Reply'
  readonly origin: string
  readonly seq: Sequence
  readonly requestId: number
  /** The node that asked. */
  readonly node: string
  /** JSON text. */
  readonly body: string
}

export type ClusterMessage = ClusterBroadcast | ClusterDirect | ClusterRequestMessage | ClusterReplyMessage
