/**
 * `RedisPort` on node-redis (`redis` on npm, v5 or later): the one file that imports the
 * client library. A standalone client gets a second connection for subscriptions
 * (`duplicate()`); a cluster client (`createCluster`) routes commands by key and keeps its
 * own subscription connections per shard (SSUBSCRIBE goes to the master of the channel's slot).
 */
import { createClient, createCluster, ErrorReply, RESP_TYPES, type RedisClientType, type RedisClusterType } from 'redis'
import type { RedisArg, RedisPort } from './redis-port.js'

/** A node-redis client: standalone (`createClient`) or cluster (`createCluster`). */
export type NodeRedisClient = RedisClientType | RedisClusterType

/** Where a Redis Cluster is: some of its masters; node-redis finds the others. */
export interface RedisClusterNodes {
  readonly rootNodes: readonly { readonly url: string }[]
}

type Listener = (...args: never[]) => void

const BYTES = { typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer } } as const
// node-redis gives every command a 5 s timer (an AbortSignal.timeout, ~8 µs each) unless told
// not to: commands whose caller bounds the wait itself go without.
const UNTIMED = { timeout: 0 } as const
const BYTES_UNTIMED = { ...BYTES, ...UNTIMED } as const

/** How long a close waits for Redis' last replies before cutting the connections. */
const CLOSE_BOUND_MS = 2000

/**
 * How long a cluster client of ours tries to reconnect to a node before it asks the cluster
 * for its map again (node-redis' default is 5000 ms): a master that went away is replaced by
 * its promoted replica this long after the promotion at the latest.
 */
const TOPOLOGY_REFRESH_MS = 500

// Errors a cluster answers while it fails over (or a node loads): the same command may go through later.
const PASSING = /^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN)\b/

const isCluster = (client: NodeRedisClient): client is RedisClusterType => 'masters' in client

// node-redis takes strings and Buffers; a Uint8Array view becomes a Buffer without a copy.
const arg = (a: RedisArg): string | Buffer => (typeof a === 'string' ? a : Buffer.from(a.buffer, a.byteOffset, a.length))

/**
 * A port over a node-redis client: the one given, or one created for `url`.
 *
 * @example
 * const port = nodeRedisPort({ url: 'redis://127.0.0.1:6379' })
 * await port.connect()
 */
export const nodeRedisPort = (options: {
  readonly url?: string
  readonly client?: NodeRedisClient
  /** A Redis Cluster to create a cluster client for (overrides `url`; `client` overrides it). */
  readonly cluster?: RedisClusterNodes
  /** Open the second connection for subscriptions (default true; a store that only runs commands needs none). */
  readonly subscriptions?: boolean
}): RedisPort => {
  const owned = options.client === undefined
  // Our own client rejects commands at once while disconnected (the adapter buffers them,
  // with a bound) instead of queueing them without one.
  const client: NodeRedisClient =
    options.client ??
    (options.cluster !== undefined
      ? (createCluster({
          rootNodes: options.cluster.rootNodes.map((n) => ({ url: n.url })),
          defaults: { disableOfflineQueue: true },
          topologyRefreshOnReconnectionAttemptStrategy: TOPOLOGY_REFRESH_MS,
        }) as unknown as RedisClusterType)
      : (createClient({ url: options.url ?? 'redis://127.0.0.1:6379', disableOfflineQueue: true }) as unknown as RedisClientType))
  const subscriber: NodeRedisClient =
    isCluster(client) || options.subscriptions === false ? client : (client.duplicate() as unknown as RedisClientType)
  const listeners = { ready: new Set<Listener>(), subscriberReady: new Set<Listener>(), down: new Set<Listener>() }
  const emit = (event: keyof typeof listeners, ...args: unknown[]): void => {
    for (const l of listeners[event]) (l as (...a: unknown[]) => void)(...args)
  }
  let subscriberUp = false
  client.on('ready', () => emit('ready'))
  client.on('error', (error: Error) => emit('down', error))
  // A cluster client reports its connections per node: a node's connection ready again (or
  // new, such as the promoted replica's after a failover, once node-redis has moved the
  // subscriptions of the master that went away to it) is the time to read what was missed.
  if (isCluster(client)) client.on('node-ready', () => emit('subscriberReady'))
  if (subscriber !== client) {
    subscriber.on('ready', () => {
      // The first 'ready' is the connection; later ones follow a reconnect, after node-redis
      // has subscribed again to every channel.
      if (subscriberUp) emit('subscriberReady')
      subscriberUp = true
    })
    subscriber.on('error', (error: Error) => emit('down', error))
  }

  return {
    command: (args, opts) => {
      const argv = args.map(arg)
      const untimed = opts?.timer === false
      const commandOptions = opts?.bytes === true ? (untimed ? BYTES_UNTIMED : BYTES) : untimed ? UNTIMED : undefined
      return isCluster(client) ? client.sendCommand(opts?.key, false, argv, commandOptions) : client.sendCommand(argv, commandOptions)
    },
    // The listener itself, not a wrapper per call: node-redis keeps a channel's listeners in a
    // Set, so the same one subscribed twice (again after a loss, while a move is on its way)
    // hears each message once. It gets the Buffer itself (a Uint8Array): the frame cut from it
    // stays a Buffer, so Node's socket.write does not wrap it anew for every socket of a fan-out.
    subscribe: (channel, sharded, listener) => (sharded ? subscriber.sSubscribe(channel, listener, true) : subscriber.subscribe(channel, listener, true)),
    unsubscribe: (channel, sharded) => (sharded ? subscriber.sUnsubscribe(channel) : subscriber.unsubscribe(channel)),
    // Listeners are added when Redis confirms a subscription, so one on its way reads false.
    listening: (channel, sharded) => {
      if (!isCluster(subscriber)) return subscriber.getPubSubListeners(sharded ? 'SHARDED' : 'CHANNELS').has(channel)
      if (!sharded) return subscriber.pubSubNode?.client.getPubSubListeners('CHANNELS').has(channel) === true
      return subscriber.masters.some((m) => m.pubSub?.client.getPubSubListeners('SHARDED').has(channel) === true)
    },
    get commandsReady() {
      return client.isReady
    },
    refused: (error) => error instanceof ErrorReply && !PASSING.test(error.message),
    on: (event: keyof typeof listeners, listener: Listener) => void listeners[event].add(listener),
    connect: async () => {
      if (!client.isOpen) await client.connect()
      if (subscriber !== client && !subscriber.isOpen) await subscriber.connect()
      subscriberUp = true
    },
    // A clean close waits for the replies owed; a Redis that does not answer within the
    // bound has its connections cut instead, so a server's shutdown never hangs on it.
    close: async () => {
      const shut = async (c: NodeRedisClient): Promise<void> => {
        if (!c.isOpen) return
        let timer: ReturnType<typeof setTimeout> | undefined
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), CLOSE_BOUND_MS)
        })
        const outcome = await Promise.race([c.close().then(() => 'closed' as const, () => 'late' as const), late])
        clearTimeout(timer)
        if (outcome === 'late' && c.isOpen) c.destroy()
      }
      if (subscriber !== client) await shut(subscriber)
      if (owned) await shut(client)
    },
  }
}
