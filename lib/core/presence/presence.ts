/**
 * What the application holds of a topic's presence (`server.presence(topic)`, issue 28): track
 * a connection under a key with metadata, read who is there, and subscribe to the joins and
 * leaves in the order they happened, the same on every node of the cluster. The state lives
 * in the engine's `PresenceTopic` (lib/engine/presence/presence-topic.ts); its pure half is
 * beside this file. Types only; pure and portable.
 */
import type { PresenceList, PresenceMeta } from './list-presence.js'

/** One connection of a key that joined or left. */
export interface PresenceChange {
  readonly key: string
  /** The connection's cluster-wide id, `<node>/<client id>`. */
  readonly ref: string
  readonly meta: unknown
}

/**
 * The changes of one step, in the order subscribers get them: `leaves` and `joins` of
 * connections, and the keys that appeared (`joined`: no connection before, one now) and
 * disappeared (`left`: the last connection went). A new `meta` for a tracked connection is its
 * leave and its join.
 */
export interface PresenceDiff {
  readonly joins: readonly PresenceChange[]
  readonly leaves: readonly PresenceChange[]
  readonly joined: readonly string[]
  readonly left: readonly string[]
}

/** A subscriber of a topic's diffs. */
export type PresenceListener = (diff: PresenceDiff) => void

/** Options of a topic, taken by the first `server.presence(topic, options)` call. */
export interface PresenceOptions {
  /**
   * Also send each diff to this node's WebSocket and event-stream members of the room named
   * like the topic (namespace `/`) as this event (`{"event": <event>, "data": <diff>}`).
   * Absent: diffs go to subscribers only.
   */
  readonly event?: string
}

/** A topic's presence on this server: the same view on every node of the cluster. */
export interface Presence {
  readonly topic: string
  /**
   * Tracks connection `clientId` of this node under `key` with `meta` (JSON data); tracking it
   * again changes its meta. It is untracked when the client goes for good (a client whose
   * session is parked for recovery stays). False when this node has no such client.
   */
  track(clientId: number, key: string, meta?: unknown): boolean
  /** Untracks the client under `key`, or under every key when absent; false when it was not tracked. */
  untrack(clientId: number, key?: string): boolean
  /** Every key present, with its connections on every node. */
  list(): PresenceList
  /** The connections of one key (empty when absent). */
  get(key: string): readonly PresenceMeta[]
  /** How many keys are present. */
  count(): number
  /** Calls `listener` with every diff from now on; answers a function that stops it. */
  subscribe(listener: PresenceListener): () => void
  /**
   * Asks every other node for its state and resolves once their answers are merged (a topic
   * does this by itself when it opens; call it to wait for a consistent view), naming the live
   * nodes that did not answer.
   */
  sync(options?: { readonly timeoutMs?: number }): Promise<{ readonly missingNodes: readonly string[] }>
}
