/**
 * Redis key and channel names of a cluster. Everything of one target (its channel, its
 * stream, its counter) shares one hash tag (`{…}`), so in a Redis Cluster a target lives on
 * one shard (the publish script may touch all three) while different rooms spread over
 * every shard. Names inside a tag are percent-encoded, so a `}` in a room name cannot end
 * the tag early.
 */
import type { ClusterTarget } from '../engine/cluster/cluster-adapter.js'

/** The Redis names of one target (everyone, a namespace, or a room). */
export interface ScopeKeys {
  /** A stable id of the target, also the hash tag. */
  readonly tag: string
  /** The (sharded) pub/sub channel its broadcasts go to. */
  readonly channel: string
  /** The stream that keeps its last broadcasts, for backfill. */
  readonly stream: string
  /** The hash holding its epoch and last number. */
  readonly counter: string
}

const enc = encodeURIComponent

/** The tag of a target: `g` everyone, `n:<ns>` a namespace, `r:<ns>:<room>` a room. */
export const scopeTag = (target: ClusterTarget): string => {
  if (target.room !== undefined) return `r:${enc(target.namespace ?? '/')}:${enc(target.room)}`
  if (target.namespace !== undefined) return `n:${enc(target.namespace)}`
  return 'g'
}

/** The names of a target's channel, stream and counter under `prefix`. */
export const scopeKeys = (prefix: string, target: ClusterTarget): ScopeKeys => {
  const tag = scopeTag(target)
  return { tag, channel: `${prefix}:{${tag}}:c`, stream: `${prefix}:{${tag}}:s`, counter: `${prefix}:{${tag}}:q` }
}

/** The channel of one node: direct messages, requests for it alone, and replies to its requests. */
export const nodeChannel = (prefix: string, nodeId: string): string => `${prefix}:{node:${enc(nodeId)}}:c`

/** The channel of requests to every node. */
export const controlChannel = (prefix: string): string => `${prefix}:{control}:c`

/**
 * The sorted set of live nodes (score: when the node's heartbeat runs out, by Redis' clock).
 * It shares the `{nodes}` hash tag with the generations: the heartbeat script touches both,
 * and in a Redis Cluster a script's keys must be on one slot.
 */
export const nodesKey = (prefix: string): string => `${prefix}:{nodes}`

/** The hash of live nodes' generations (see HEARTBEAT_SCRIPT), on the registry's slot. */
export const generationsKey = (prefix: string): string => `${prefix}:{nodes}:generations`

/** The keys of a recovery session: its state and its frames. */
export const sessionKeys = (prefix: string, sid: string): { readonly state: string; readonly frames: string } => {
  const tag = `s:${enc(sid)}`
  return { state: `${prefix}:{${tag}}:state`, frames: `${prefix}:{${tag}}:frames` }
}
