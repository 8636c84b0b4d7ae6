/**
 * `redisAdapter`: the cluster adapter on Redis (issue 11; docs/guide.md "Scaling out",
 * docs/decisions.md "Scale-out on Redis"). Each target (everyone, a namespace, a room) has
 * a (sharded) pub/sub channel, a stream and a counter under one hash tag. A broadcast is the
 * frame the origin node encoded, in a cluster message (`lib/core/cluster/`); a Lua script
 * numbers it, appends it to the target's stream (bounded) and publishes it, atomically, so
 * every node sees one order per target. A node listens to a room's channel only while it
 * has members in it, writes what arrives to its sockets as it is, fills a gap (or the time
 * Redis was away) from the stream, and drops duplicates. Nodes keep a heartbeat in a sorted
 * set; queries wait only for the live ones. Redis away: local delivery goes on; publishes
 * wait in a buffer bounded in bytes, and past it are dropped and counted.
 *
 * This file wires four parts and moves the one link state (link.ts) on Redis' connection
 * events: the publisher (publisher.ts), the scope listener (scope-listener.ts), the node
 * channel (node-channel.ts) and liveness (liveness.ts). Imports the engine as types only,
 * no `node:*`; node-redis only through node-redis-port.ts.
 */
import type { ClusterAdapter, ClusterHost, ClusterReplies } from '../engine/cluster/cluster-adapter.js'
import { type AdapterContext, errorText, type ServerFacts } from './adapter-context.js'
import { type Link, linkStarted } from './link.js'
import { Liveness } from './liveness.js'
import { NodeChannel } from './node-channel.js'
import { nodeRedisPort } from './node-redis-port.js'
import { Publisher } from './publisher.js'
import { redisLimitStore } from './redis-limit-store.js'
import { resolveAdapterOptions, type RedisAdapterOptions } from './resolve-adapter-options.js'
import { ScopeListener } from './scope-listener.js'

export type { RedisAdapterOptions } from './resolve-adapter-options.js'

/** What happened so far, for logs, metrics and tests. */
export interface RedisAdapterStats {
  /** Broadcasts Redis took (numbered, kept, published). */
  readonly published: number
  /** Broadcasts published while Redis was away and sent once it was back. */
  readonly sentAfterOutage: number
  /** Broadcasts dropped because the buffer was full (Redis slow or away too long). */
  readonly dropped: number
  /** Broadcasts waiting for Redis now, and their bytes (with those in flight). */
  readonly waiting: number
  readonly waitingBytes: number
  /** Frames from other nodes written to local clients (broadcasts and direct). */
  readonly received: number
  /** Of those, frames read from a stream to fill a gap or an outage. */
  readonly backfilled: number
  /** Broadcasts a gap could not bring back (no longer in the stream). */
  readonly lost: number
  /**
   * Broadcasts this node had delivered that a Redis Cluster failover took back: the master
   * that numbered them died before its replica had them (asynchronous replication), so the
   * stream no longer has them for a backfill or a recovery. Counted when the target's next
   * epoch shows up (see docs/decisions.md "Redis Cluster failover").
   */
  readonly rolledBack: number
  /** Messages received twice (dropped). */
  readonly duplicates: number
  /** Foreign or corrupt messages dropped (and logged). */
  readonly invalid: number
}

/** The Redis cluster adapter: the engine's port, plus a few operations of its own. */
export interface RedisAdapter extends ClusterAdapter {
  /** Resolves once connected, subscribed and registered the first time. */
  ready(): Promise<void>
  /** The other nodes alive at the last heartbeat. */
  liveNodes(): readonly string[]
  stats(): RedisAdapterStats
}

/** The Redis cluster adapter: the engine's port, plus a few operations of its own. */
export interface RedisAdapter extends ClusterAdapter {
  /** Resolves once connected, subscribed and registered the first time. */
  ready(): Promise<void>
  /** The other nodes alive at the last heartbeat. */
  liveNodes(): readonly string[]
  stats(): RedisAdapterStats
}

/** The adapter's parts, built when the engine attaches (the host is known from then on). */
interface Parts {
  readonly ctx: AdapterContext
  readonly publisher: Publisher
  readonly scopes: ScopeListener
  readonly nodes: NodeChannel
  readonly liveness: Liveness
}

const NO_STATS: RedisAdapterStats = { published: 0, sentAfterOutage: 0, dropped: 0, waiting: 0, waitingBytes: 0, received: 0, backfilled: 0, lost: 0, rolledBack: 0, duplicates: 0, invalid: 0 }

/**
 * The cluster adapter on Redis. Give it to `runServer({ cluster: redisAdapter({ url }) })`;
 * it connects in the background (local delivery never waits for it).
 *
 * @example
 * const server = await runServer({ routes, cluster: redisAdapter({ url: process.env.REDIS_URL }) })
 * await server.cluster.clientsInRoom('lobby') // { clients: ['k3x…/1', 'p9q…/4'], missingNodes: [] }
 */
export const redisAdapter = (options: RedisAdapterOptions = {}): RedisAdapter => {
  const config = resolveAdapterOptions(options)
  const port =
    options.port ??
    nodeRedisPort({
      ...(options.url === undefined ? {} : { url: options.url }),
      ...(options.cluster === undefined ? {} : { cluster: options.cluster }),
      ...(options.client === undefined ? {} : { client: options.client }),
    })
  const server: ServerFacts = { sharded: config.sharded === true, clustered: false }
  // The adapter's own state: the link (moved here alone), the parts once attached, and what
  // resolves `ready()`.
  const self: { link: Link; parts: Parts | undefined; joined: () => void } = { link: { state: 'starting', warned: false }, parts: undefined, joined: () => undefined }
  const readyPromise = new Promise<void>((resolve) => {
    self.joined = resolve
  })

  // Moves the link on, unless it is closed (for good); says whether it moved.
  const moveTo = (next: Link): boolean => {
    if (self.link.state === 'closed') return false
    self.link = next
    return true
  }

  const linkLost = (parts: Parts, error: unknown): void => {
    if (self.link.state !== 'up') return
    self.link = { state: 'down', since: parts.ctx.host.timers.now() }
    parts.ctx.host.logger.warning('cluster: lost Redis ({error}); local delivery goes on, broadcasts wait (up to {bytes} bytes)', { error: errorText(error), bytes: parts.publisher.maxBytes })
  }

  // Every heartbeat: the refill a cluster node's return asked for, the beat, and the check
  // that every target's subscription is still held (made again when the client lost it).
  const tick = (parts: Parts) => (): void => {
    if (self.link.state === 'up') parts.scopes.refillIfAsked()
    if (!port.commandsReady) return
    parts.liveness.beatInBackground()
    if (self.link.state === 'up') parts.scopes.checkListening()
  }

  const start = async (parts: Parts): Promise<void> => {
    await port.connect()
    if (config.sharded === 'auto') {
      const info = (await port.command(['COMMAND', 'INFO', 'SPUBLISH'])) as unknown[]
      server.sharded = Array.isArray(info) && info[0] !== null && info[0] !== undefined
    }
    server.clustered = /cluster_enabled:1/.test(String(await port.command(['INFO', 'cluster'])))
    await parts.publisher.loadScript()
    await parts.nodes.subscribe()
    if (!moveTo({ state: 'joining' })) return
    parts.scopes.subscribeAll()
    await parts.liveness.beat(true)
    if (self.link.state === 'closed') return
    parts.liveness.startHeartbeat(tick(parts))
    self.link = { state: 'up' }
    await parts.publisher.flush()
    parts.ctx.host.logger.info('cluster: node {node} joined through Redis ({mode} pub/sub)', { node: config.nodeId, mode: server.sharded ? 'sharded' : 'plain' })
    self.joined()
  }

  port.on('down', (error) => {
    const { link, parts } = self
    if (parts === undefined || link.state === 'closed') return
    if (link.state !== 'starting') {
      if (!port.commandsReady) linkLost(parts, error)
    } else if (!link.warned) {
      self.link = { state: 'starting', warned: true }
      parts.ctx.host.logger.warning('cluster: cannot reach Redis yet ({error}); retrying, and serving this node\'s clients meanwhile', { error: errorText(error) })
    }
  })
  port.on('ready', () => {
    const { parts } = self
    if (parts === undefined || !linkStarted(self.link)) return
    // The script cache may be empty (a restarted Redis): load it before sending what waited.
    parts.publisher
      .loadScript()
      .then(() => parts.liveness.beat(true))
      .then(async () => {
        if (!moveTo({ state: 'up' })) return
        parts.scopes.retryFills()
        await parts.publisher.flush()
        // What waited is in the streams now: the next generation tells the other nodes to read them.
        parts.liveness.nextGeneration()
        await parts.liveness.beat(true)
      })
      .catch((error: unknown) => parts.ctx.host.logger.debug('cluster: Redis not ready yet: {error}', { error: errorText(error) }))
  })
  port.on('subscriberReady', () => {
    if (self.parts !== undefined && linkStarted(self.link)) self.parts.scopes.subscriberReady()
  })

  const attach = (host: ClusterHost): void => {
    const ctx: AdapterContext = { nodeId: config.nodeId, prefix: config.prefix, port, host, server, link: () => self.link }
    const scopes = new ScopeListener(ctx, config.streamMaxLength)
    const liveness = new Liveness(ctx, config, () => scopes.refillAll(), (node) => ctx.host.nodeLeft?.(node))
    const publisher: Publisher = new Publisher(ctx, config, { lost: (error) => linkLost(parts, error), caughtUp: () => liveness.nextGeneration() })
    const parts: Parts = { ctx, publisher, scopes, nodes: new NodeChannel(ctx, config.requestTimeoutMs, liveness), liveness }
    self.parts = parts
    scopes.open({})
    start(parts).catch((error: unknown) => {
      if (self.link.state !== 'closed') host.logger.exception(error, { phase: 'cluster start', node: config.nodeId })
    })
  }

  const stats = (): RedisAdapterStats => {
    if (self.parts === undefined) return NO_STATS
    const sent = self.parts.publisher.stats()
    const heard = self.parts.scopes.stats()
    const direct = self.parts.nodes.stats()
    return { ...sent, ...heard, received: heard.received + direct.received, invalid: heard.invalid + direct.invalid }
  }

  return {
    nodeId: config.nodeId,
    // What a readiness check reads: `joining` is not up yet.
    linkState: () => (self.link.state === 'joining' ? 'starting' : self.link.state),
    attach,
    // Cluster-wide rate limits (`rateLimit` routes): one script per check, on the command connection.
    limitStore: redisLimitStore(port, config.prefix),
    publish: (frame, target, envelope) => self.parts?.publisher.publish(frame, target, envelope),
    sendTo: (node, clientId, frame, envelope) => self.parts?.nodes.sendTo(node, clientId, frame, envelope),
    request: (body, opts): Promise<ClusterReplies> =>
      self.parts?.nodes.request(body, opts) ?? Promise.resolve({ replies: [], missingNodes: opts?.node === undefined ? [] : [opts.node] }),
    tell: (body) => self.parts?.nodes.tell(body),
    roomOpened: (namespace, room) => self.parts?.scopes.open({ namespace, room }),
    roomClosed: (namespace, room) => self.parts?.scopes.shut({ namespace, room }),
    namespaceOpened: (namespace) => self.parts?.scopes.open({ namespace }),
    namespaceClosed: (namespace) => self.parts?.scopes.shut({ namespace }),
    close: async () => {
      const { link, parts } = self
      if (link.state === 'closed') return
      self.link = { state: 'closed' }
      if (parts !== undefined) {
        parts.liveness.stop()
        parts.publisher.stop()
        parts.scopes.stop()
        parts.nodes.close()
        // Leave the registry (bounded; Redis away: the heartbeat runs out by itself).
        if (link.state === 'up') await parts.liveness.leave()
      }
      await port.close().catch(() => undefined)
    },
    ready: () => readyPromise,
    liveNodes: () => self.parts?.liveness.liveNodes() ?? [],
    stats,
  }
}
