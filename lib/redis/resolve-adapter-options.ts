/**
 * `redisAdapter`'s options (`RedisAdapterOptions`, public) and their checked, defaulted form
 * (`AdapterConfig`) that the adapter's parts read. Throws on a bad option, as `redisAdapter`
 * always has (a programming error at start, not a runtime condition). Pure: imports no
 * `node:*`, no client library (node-redis' types only).
 */
import type { NodeRedisClient, RedisClusterNodes } from './node-redis-port.js'
import type { RedisPort } from './redis-port.js'

export interface RedisAdapterOptions {
  /** Where Redis is (default `redis://127.0.0.1:6379`); ignored when `client` is given. */
  readonly url?: string
  /**
   * A node-redis client of the application's (`createClient`, or `createCluster` for a Redis
   * Cluster). The adapter opens one more connection for subscriptions and leaves this one open on close.
   */
  readonly client?: NodeRedisClient
  /**
   * A Redis Cluster (some of its masters, `{ rootNodes: [{ url }] }`): the adapter creates a
   * node-redis cluster client for it and closes it on close. Overrides `url`; `client` overrides it.
   */
  readonly cluster?: RedisClusterNodes
  /** Another Redis client behind the adapter's small port (`RedisPort`); overrides `url` and `client`. */
  readonly port?: RedisPort
  /** Prefix of every key and channel (default `twinport`): apps sharing a Redis use different ones. */
  readonly prefix?: string
  /** This node's id (default: random); no `/`. */
  readonly nodeId?: string
  /** Sharded pub/sub (SPUBLISH/SSUBSCRIBE, Redis 7): `'auto'` (default) when the server has it. */
  readonly sharded?: boolean | 'auto'
  /** Time bound of a cross-node query (default 1000 ms). */
  readonly requestTimeoutMs?: number
  /** How often a node says it is alive (default 1000 ms). */
  readonly heartbeatIntervalMs?: number
  /** How long a silent node counts as alive (default 5000 ms). */
  readonly heartbeatTimeoutMs?: number
  /** Broadcasts kept per target for backfill (default 1000; trimmed approximately). */
  readonly streamMaxLength?: number
  /** A target's stream and counter expire this long after its last broadcast (default 10 minutes). */
  readonly streamTtlMs?: number
  /** Bytes of broadcasts waiting for Redis (slow or away) before new ones are dropped (default 8 MiB). */
  readonly maxBufferedBytes?: number
}

/** The options checked and defaulted (the Redis connection is chosen apart, by the adapter). */
export interface AdapterConfig {
  readonly nodeId: string
  readonly prefix: string
  /** `'auto'`: found out from the server at start. */
  readonly sharded: boolean | 'auto'
  readonly requestTimeoutMs: number
  readonly heartbeatIntervalMs: number
  readonly heartbeatTimeoutMs: number
  readonly streamMaxLength: number
  readonly streamTtlMs: number
  readonly maxBufferedBytes: number
}

const DEFAULTS = {
  prefix: 'twinport',
  requestTimeoutMs: 1000,
  heartbeatIntervalMs: 1000,
  heartbeatTimeoutMs: 5000,
  streamMaxLength: 1000,
  streamTtlMs: 10 * 60 * 1000,
  maxBufferedBytes: 8 * 1024 * 1024,
}

const randomId = (): string => {
  const bytes = new Uint8Array(8)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('').slice(0, 12)
}

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`redisAdapter: ${name} must be a positive integer, got ${String(value)}`)
  return value
}

/**
 * Checks `redisAdapter`'s options and fills in the defaults; throws an `Error` naming the
 * first bad one.
 *
 * @example
 * resolveAdapterOptions({ nodeId: 'a' }).heartbeatIntervalMs // 1000
 */
export const resolveAdapterOptions = (options: RedisAdapterOptions): AdapterConfig => {
  const nodeId = options.nodeId ?? randomId()
  if (nodeId === '' || nodeId.includes('/')) throw new Error(`redisAdapter: nodeId must be non-empty and without '/', got ${JSON.stringify(nodeId)}`)
  return {
    nodeId,
    prefix: options.prefix ?? DEFAULTS.prefix,
    sharded: options.sharded ?? 'auto',
    requestTimeoutMs: positive('requestTimeoutMs', options.requestTimeoutMs, DEFAULTS.requestTimeoutMs),
    heartbeatIntervalMs: positive('heartbeatIntervalMs', options.heartbeatIntervalMs, DEFAULTS.heartbeatIntervalMs),
    heartbeatTimeoutMs: positive('heartbeatTimeoutMs', options.heartbeatTimeoutMs, DEFAULTS.heartbeatTimeoutMs),
    streamMaxLength: positive('streamMaxLength', options.streamMaxLength, DEFAULTS.streamMaxLength),
    streamTtlMs: positive('streamTtlMs', options.streamTtlMs, DEFAULTS.streamTtlMs),
    maxBufferedBytes: positive('maxBufferedBytes', options.maxBufferedBytes, DEFAULTS.maxBufferedBytes),
  }
}
