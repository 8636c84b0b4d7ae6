/**
 * What every part of the Redis adapter (publisher, scope listener, node channel, liveness)
 * shares, read-only: this node, the Redis port, the engine's host, what the server turned
 * out to have, and the link's state. Each part owns its own mutable state; this holds none.
 * Types, one timing and two small helpers; imports the engine as types only, no `node:*`.
 */
import type { ClusterHost } from '../engine/cluster/cluster-adapter.js'
import type { Link } from './link.js'
import type { RedisPort } from './redis-port.js'

/**
 * How often what a Redis Cluster's failover holds up is tried again: a stalled target's
 * oldest broadcast, a failed fill (docs/decisions.md "Redis Cluster failover").
 */
export const RETRY_MS = 200

/** What `start` found out about the Redis server (set once, by the adapter, before anything reads it). */
export interface ServerFacts {
  /** Sharded pub/sub (SPUBLISH/SSUBSCRIBE) is used. */
  sharded: boolean
  /** A Redis Cluster: the publish script starts a new epoch when a target's master changed. */
  clustered: boolean
}

/** The shared, read-only view every part of the adapter is built with. */
export interface AdapterContext {
  readonly nodeId: string
  readonly prefix: string
  readonly port: RedisPort
  readonly host: ClusterHost
  readonly server: Readonly<ServerFacts>
  /** The link's state now (redis-adapter.ts moves it). */
  readonly link: () => Link
}

/** An error's text for a log line. */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Logs a foreign or corrupt message that was dropped (the caller counts it). */
export const warnInvalid = (ctx: AdapterContext, reason: string, channel: string): void => {
  ctx.host.logger.warning('cluster: dropped a message on {channel} that is not ours or is corrupt: {reason}', { channel, reason })
}
