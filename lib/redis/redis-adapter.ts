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
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ClusterBroadcast, ClusterMessage, Sequence } from '../core/cluster/cluster-message.js'
import { UNSEQUENCED } from '../core/cluster/cluster-message.js'
import { decodeClusterMessage } from '../core/cluster/decode-cluster-message.js'
import { encodeClusterMessage } from '../core/cluster/encode-cluster-message.js'
import type { ClusterAdapter, ClusterHost, ClusterReplies, ClusterTarget } from '../engine/cluster-adapter.js'
import type { TimerId } from '../engine/platform.js'
import { HEARTBEAT_SCRIPT, PUBLISH_SCRIPT } from './lua-scripts.js'
import { type NodeRedisClient, nodeRedisPort, type RedisClusterNodes } from './node-redis-port.js'
import { PublishBuffer, type Waiting } from './publish-buffer.js'
import { controlChannel, generationsKey, nodeChannel, nodesKey, type ScopeKeys, scopeKeys } from './redis-keys.js'
import type { RedisPort } from './redis-port.js'
import { RequestTracker } from './request-tracker.js'
import { ScopeOrder, type OrderStep, type Placed } from './scope-order.js'

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

const DEFAULTS = {
  prefix: 'twinport',
  requestTimeoutMs: 1000,
  heartbeatIntervalMs: 1000,
  heartbeatTimeoutMs: 5000,
  streamMaxLength: 1000,
  streamTtlMs: 10 * 60 * 1000,
  maxBufferedBytes: 8 * 1024 * 1024,
}

/** How often a target whose master fails over is tried again (docs/decisions.md "Redis Cluster failover"). */
const RETRY_MS = 200

/** How long a subscription may be missing from the client before it counts as lost (a move after a failover takes a connect and one round trip). */
const LISTEN_GRACE_MS = 1000

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

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** A subscribed target: its names, its order, and whether its subscription is in place. */
interface Scope {
  readonly keys: ScopeKeys
  readonly target: ClusterTarget
  readonly order: ScopeOrder<ClusterBroadcast>
  subscribed: boolean
  /** A SUBSCRIBE asked and not answered yet: not asked again meanwhile (one in flight per target). */
  asking: boolean
  /** Since when the client has been found without this target's listener (`RedisPort.listening`); NaN while it has one. */
  unheardSince: number
  /** A fill that failed (Redis away, or its master failing over), to run again. */
  fillFrom: { epoch: number; n: number } | undefined
  /** Its one listener: every SUBSCRIBE of this target hands the client the same function. */
  readonly hear: (bytes: Uint8Array) => void
}

/**
 * The cluster adapter on Redis. Give it to `runServer({ cluster: redisAdapter({ url }) })`;
 * it connects in the background (local delivery never waits for it).
 *
 * @example
 * const server = await runServer({ routes, cluster: redisAdapter({ url: process.env.REDIS_URL }) })
 * await server.cluster.clientsInRoom('lobby') // { clients: ['k3x…/1', 'p9q…/4'], missingNodes: [] }
 */
export const redisAdapter = (options: RedisAdapterOptions = {}): RedisAdapter => {
  const nodeId = options.nodeId ?? randomId()
  if (nodeId === '' || nodeId.includes('/')) throw new Error(`redisAdapter: nodeId must be non-empty and without '/', got ${JSON.stringify(nodeId)}`)
  const prefix = options.prefix ?? DEFAULTS.prefix
  const requestTimeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs, DEFAULTS.requestTimeoutMs)
  const heartbeatIntervalMs = positive('heartbeatIntervalMs', options.heartbeatIntervalMs, DEFAULTS.heartbeatIntervalMs)
  const heartbeatTimeoutMs = positive('heartbeatTimeoutMs', options.heartbeatTimeoutMs, DEFAULTS.heartbeatTimeoutMs)
  const streamMaxLength = String(positive('streamMaxLength', options.streamMaxLength, DEFAULTS.streamMaxLength))
  const streamTtlMs = String(positive('streamTtlMs', options.streamTtlMs, DEFAULTS.streamTtlMs))
  const buffer = new PublishBuffer<ScopeKeys>(positive('maxBufferedBytes', options.maxBufferedBytes, DEFAULTS.maxBufferedBytes))
  const port =
    options.port ??
    nodeRedisPort({
      ...(options.url === undefined ? {} : { url: options.url }),
      ...(options.cluster === undefined ? {} : { cluster: options.cluster }),
      ...(options.client === undefined ? {} : { client: options.client }),
    })

  const myChannel = nodeChannel(prefix, nodeId)
  const control = controlChannel(prefix)
  const nodes = nodesKey(prefix)
  const generations = generationsKey(prefix)
  const scopes = new Map<string, Scope>()
  // The other live nodes and their generations at the last heartbeat.
  const live = new Map<string, string>()
  let generation = 1
  const counts = { published: 0, sentAfterOutage: 0, received: 0, backfilled: 0, lost: 0, rolledBack: 0, duplicates: 0, invalid: 0 }

  let host: ClusterHost | undefined
  let requests: RequestTracker | undefined
  let sharded = options.sharded === true
  // On a Redis Cluster the publish script starts a new epoch when a target's master changed.
  let clustered = false
  // Targets whose master cannot take broadcasts now (a cluster failing over) while the rest
  // of Redis can: their broadcasts wait in the buffer, in order, and one is tried every
  // RETRY_MS until it goes through; then the rest follow.
  const stalled = new Set<string>()
  let retryTimer: TimerId | undefined
  let stallWarned = false
  // Fills that failed while Redis still takes commands (a cluster whose master of the target
  // is down: `The client is offline`, `CLUSTERDOWN`) are read again every RETRY_MS: a target
  // filling holds what arrives, and a cluster client never says `ready` again.
  let fillTimer: TimerId | undefined
  // Read every stream again at the next heartbeat: a cluster node's connection came back,
  // and node-redis may not have moved every subscription to it yet.
  let refillAtBeat = false
  let publishSha: string | undefined
  let started = false
  let up = false
  let closed = false
  let heartbeat: TimerId | undefined
  // Per outage: what was dropped and what waited, for one warning and one summary.
  let outage = { dropped: 0, warned: false }
  let readyResolve: () => void = () => undefined
  const readyPromise = new Promise<void>((resolve) => {
    readyResolve = resolve
  })

  const log = () => (host as ClusterHost).logger

  const invalid = (reason: string, channel: string): void => {
    counts.invalid += 1
    log().warning('cluster: dropped a message on {channel} that is not ours or is corrupt: {reason}', { channel, reason })
  }

  const publishPlain = (channel: string, bytes: Uint8Array): Promise<unknown> =>
    port.command([sharded ? 'SPUBLISH' : 'PUBLISH', channel, bytes], { key: channel })

  // ---- publishing broadcasts -------------------------------------------------------------

  const evalPublish = (entry: Waiting<ScopeKeys>, sha: string | undefined): Promise<unknown> => {
    const { keys, message: bytes } = entry
    const args = ['2', keys.stream, keys.counter, bytes, streamMaxLength, streamTtlMs, String((host as ClusterHost).timers.now()), keys.channel, sharded ? '1' : '0', clustered ? '1' : '0']
    return sha === undefined ? port.command(['EVAL', PUBLISH_SCRIPT, ...args], { key: keys.stream }) : port.command(['EVALSHA', sha, ...args], { key: keys.stream })
  }

  // Whether a failed command may go through if sent again: Redis away, or (on a cluster) an
  // error of a failover; Redis' own refusal (a script error) would fail again.
  const passing = (error: unknown): boolean => !port.commandsReady || (port.refused !== undefined && !port.refused(error))

  // One try: 'sent' (Redis took it), 'retry' (it may go through later), 'refused' (it never will).
  const attempt = (entry: Waiting<ScopeKeys>): Promise<{ outcome: 'sent' | 'retry' | 'refused'; error?: unknown }> =>
    evalPublish(entry, publishSha)
      .catch((error: unknown) => (message(error).startsWith('NOSCRIPT') ? evalPublish(entry, undefined) : Promise.reject(error)))
      .then(
        () => ({ outcome: 'sent' as const }),
        (error: unknown) => ({ outcome: passing(error) ? ('retry' as const) : ('refused' as const), error }),
      )

  const taken = (entry: Waiting<ScopeKeys>, afterOutage: boolean): void => {
    buffer.settled(entry.message.length)
    counts.published += 1
    if (afterOutage) counts.sentAfterOutage += 1
  }

  const refusedFor = (entry: Waiting<ScopeKeys>, error: unknown): void => {
    // Redis refused it (a script error): retrying would fail again.
    buffer.settled(entry.message.length)
    log().warning('cluster: Redis refused a broadcast: {error}', { error: message(error) })
  }

  const send = (entry: Waiting<ScopeKeys>, afterOutage: boolean): Promise<void> =>
    attempt(entry).then(({ outcome, error }) => {
      if (outcome === 'sent') return taken(entry, afterOutage)
      if (closed) return buffer.settled(entry.message.length)
      if (outcome === 'refused') return refusedFor(entry, error)
      // Redis went away with this one in flight: it is sent again when Redis is back (if
      // Redis ran it just before the line broke, it goes out twice: at least once,
      // docs/decisions.md "Redis unavailable"). On a cluster whose other masters still
      // answer, only this target waits (docs/decisions.md "Redis Cluster failover").
      if (!port.commandsReady) markDown(error)
      else stall(entry.keys, error)
      buffer.fail(entry)
    })

  const stall = (keys: ScopeKeys, error: unknown): void => {
    stalled.add(keys.tag)
    if (!stallWarned) {
      stallWarned = true
      log().warning('cluster: Redis cannot take broadcasts to {target} now ({error}); they wait (up to {bytes} bytes in all) and are tried again every {ms} ms', {
        target: keys.tag,
        error: message(error),
        bytes: buffer.maxBytes,
        ms: RETRY_MS,
      })
    }
    if (retryTimer === undefined) retryTimer = (host as ClusterHost).timers.setTimeout(retry, RETRY_MS)
  }

  // Tries the oldest waiting broadcast of each stalled target; the first that goes through
  // lets the rest of its target follow, in order.
  const retry = (): void => {
    retryTimer = undefined
    if (closed || !up) return // Redis away altogether: 'ready' sends everything
    for (const tag of [...stalled]) {
      const mine = (keys: ScopeKeys): boolean => keys.tag === tag
      const head = buffer.first(mine)
      if (head === undefined) {
        stalled.delete(tag)
        continue
      }
      void attempt(head).then(({ outcome, error }) => {
        if (closed || !buffer.remove(head)) return
        if (outcome === 'retry') {
          // Still the oldest: back in front of the rest of its target.
          const rest = buffer.take(mine)
          for (const e of [head, ...rest]) buffer.fail(e)
          if (retryTimer === undefined) retryTimer = (host as ClusterHost).timers.setTimeout(retry, RETRY_MS)
          return
        }
        if (outcome === 'sent') taken(head, true)
        else refusedFor(head, error)
        stalled.delete(tag)
        const rest = buffer.take(mine)
        for (const e of rest) void send(e, true)
        log().info('cluster: broadcasts to {target} go through again; {sent} that waited are sent', { target: tag, sent: rest.length + 1 })
        if (stalled.size === 0) {
          stallWarned = false
          // What waited is in the stream now: the next generation tells the other nodes to read it.
          generation += 1
        }
      })
    }
  }

  // Sends what waited, in order; resolves when Redis has answered for all of it.
  const flush = async (): Promise<void> => {
    const waiting = buffer.takeAll()
    stalled.clear()
    stallWarned = false
    const sent = waiting.map((entry) => send(entry, true))
    if (outage.dropped > 0 || waiting.length > 0) {
      log().info('cluster: Redis is back; {sent} broadcasts that waited are sent, {dropped} were dropped meanwhile', { sent: waiting.length, dropped: outage.dropped })
    }
    outage = { dropped: 0, warned: false }
    await Promise.all(sent)
  }

  const markDown = (error: unknown): void => {
    if (!up) return
    up = false
    log().warning('cluster: lost Redis ({error}); local delivery goes on, broadcasts wait (up to {bytes} bytes)', { error: message(error), bytes: buffer.maxBytes })
  }

  const publish = (frame: Uint8Array, target: ClusterTarget, envelope: boolean): void => {
    if (closed) return
    const namespace = target.room !== undefined ? (target.namespace ?? '/') : target.namespace
    const encoded = encodeClusterMessage({
      _tag: 'Broadcast',
      origin: nodeId,
      seq: UNSEQUENCED,
      ...(namespace === undefined ? {} : { namespace }),
      ...(target.room === undefined ? {} : { room: target.room }),
      ...(envelope ? { envelope: true as const } : {}),
      frame,
    })
    if (E.isLeft(encoded)) return log().warning('cluster: a broadcast cannot cross to other nodes: {reason}', { reason: encoded.left.reason })
    const entry = { keys: scopeOf(target).keys, message: encoded.right }
    const held = !up || stalled.has(entry.keys.tag)
    if (!buffer.admit(entry.message.length)) {
      outage.dropped += 1
      if (!outage.warned) {
        outage.warned = true
        log().warning('cluster: Redis is {state}; broadcasts to other nodes are dropped until it catches up (buffer of {bytes} bytes full)', {
          state: !up ? 'away' : stalled.size > 0 ? 'failing over' : 'slow',
          bytes: buffer.maxBytes,
        })
      }
      return
    }
    if (held) buffer.hold(entry)
    else void send(entry, false)
  }

  // ---- receiving broadcasts --------------------------------------------------------------

  const targetOf = (m: ClusterBroadcast): ClusterTarget => ({
    ...(m.namespace === undefined ? {} : { namespace: m.namespace }),
    ...(m.room === undefined ? {} : { room: m.room }),
  })

  const apply = (scope: Scope, step: OrderStep<ClusterBroadcast>, backfill: boolean): void => {
    for (const m of step.deliver) {
      if (m.origin === nodeId) continue // delivered here when it was published
      // Written at once; the engine holds the writes of a burst to the end of the I/O turn.
      ;(host as ClusterHost).deliver(m.frame, scope.target, m.envelope === true, m.seq)
      counts.received += 1
      if (backfill) counts.backfilled += 1
    }
    counts.duplicates += step.dropped
    if (step.lost > 0) {
      counts.lost += step.lost
      log().warning('cluster: {lost} broadcasts to {target} were no longer in Redis when this node came to read them', { lost: step.lost, target: scope.keys.tag })
    }
    if (step.left !== undefined) checkEpochEnd(scope, step.left)
    if (step.fillFrom !== undefined) fill(scope, step.fillFrom)
  }

  const readStream = async (scope: Scope, from: { epoch: number; n: number }): Promise<Placed<ClusterBroadcast>[]> => {
    const entries: Placed<ClusterBroadcast>[] = []
    let start = `(${from.epoch}-${from.n}`
    const count = Number(streamMaxLength) * 2
    for (;;) {
      const rows = (await port.command(['XRANGE', scope.keys.stream, start, '+', 'COUNT', String(count)], { key: scope.keys.stream, bytes: true })) as [Uint8Array, Uint8Array[]][]
      for (const [id, fields] of rows) {
        start = `(${new TextDecoder().decode(id)}`
        const decoded = decodeClusterMessage(fields[1] ?? new Uint8Array(0))
        if (E.isLeft(decoded) || decoded.right._tag !== 'Broadcast') {
          invalid(E.isLeft(decoded) ? decoded.left.reason : 'not a broadcast', scope.keys.stream)
          continue
        }
        entries.push({ seq: decoded.right.seq, item: decoded.right })
      }
      if (rows.length < count) return entries
    }
  }

  const fill = (scope: Scope, from: { epoch: number; n: number }): void => {
    scope.fillFrom = undefined
    readStream(scope, from).then(
      (entries) => {
        if (scopes.get(scope.keys.tag) !== scope) return
        apply(scope, scope.order.filled(entries), true)
      },
      (error: unknown) => {
        // Read again when Redis is back (its 'ready'), or soon if it still takes commands;
        // what arrives meanwhile waits in order.
        scope.fillFrom = from
        log().debug('cluster: backfill of {target} waits for Redis: {error}', { target: scope.keys.tag, error: message(error) })
        if (port.commandsReady && fillTimer === undefined && !closed) fillTimer = (host as ClusterHost).timers.setTimeout(fillAgain, RETRY_MS)
      },
    )
  }

  const fillAgain = (): void => {
    fillTimer = undefined
    if (closed) return
    for (const scope of scopes.values()) if (scope.fillFrom !== undefined) fill(scope, scope.fillFrom)
  }

  // A new epoch after a cluster's failover, once per failover (the order moves into it only
  // by a fill from its last place): the script kept where the old epoch ended on the new
  // master (`pe`, `pn`). `left` is the last place this node delivered in the old epoch (its
  // rest read from the stream first). What it delivered past the end is gone from Redis
  // (`rolledBack`); an end past it is a rest the stream no longer had (`lost`).
  const checkEpochEnd = (scope: Scope, left: Sequence): void => {
    port.command(['HMGET', scope.keys.counter, 'pe', 'pn'], { key: scope.keys.counter }).then(
      (reply) => {
        const [pe, pn] = (reply as (string | null)[]).map((x) => (x === null ? Number.NaN : Number(x)))
        if (pe !== left.epoch || pn === undefined || Number.isNaN(pn)) return
        if (pn > left.n) {
          counts.lost += pn - left.n
          log().warning('cluster: {lost} broadcasts to {target} were no longer in Redis when this node came to read them', { lost: pn - left.n, target: scope.keys.tag })
          return
        }
        if (!(pn < left.n)) return
        counts.rolledBack += left.n - pn
        log().warning('cluster: {count} broadcasts to {target} this node delivered were lost from Redis in a failover (its new master has them up to {n}); a backfill or a recovery cannot bring them back', {
          count: left.n - pn,
          target: scope.keys.tag,
          n: pn,
        })
      },
      (error: unknown) => log().debug('cluster: could not read where {target}\'s last epoch ended: {error}', { target: scope.keys.tag, error: message(error) }),
    )
  }

  const onScopeMessage = (scope: Scope, bytes: Uint8Array): void => {
    if (scopes.get(scope.keys.tag) !== scope) return
    const decoded = decodeClusterMessage(bytes)
    if (E.isLeft(decoded)) return invalid(decoded.left.reason, scope.keys.channel)
    const m = decoded.right
    if (m._tag !== 'Broadcast' || scopeKeys(prefix, targetOf(m)).tag !== scope.keys.tag) return invalid('not a broadcast to this channel\'s target', scope.keys.channel)
    apply(scope, scope.order.offer(m.seq, m), false)
  }

  // ---- targets this node listens to ------------------------------------------------------

  const scopeOf = (target: ClusterTarget): Scope => {
    const keys = scopeKeys(prefix, target)
    const known = scopes.get(keys.tag)
    if (known !== undefined) return known
    const scope: Scope = { keys, target, order: new ScopeOrder(), subscribed: false, asking: false, unheardSince: Number.NaN, fillFrom: undefined, hear: (bytes) => onScopeMessage(scope, bytes) }
    return scope
  }

  // `again`: a subscription the client lost; once it is back, what was published meanwhile
  // is read from the stream.
  const subscribe = (scope: Scope, again = false): void => {
    scope.asking = true
    port.subscribe(scope.keys.channel, sharded, scope.hear).then(
      () => {
        scope.asking = false
        scope.subscribed = true
        if (scopes.get(scope.keys.tag) !== scope) return void port.unsubscribe(scope.keys.channel, sharded).catch(() => undefined)
        if (again) refill(scope)
      },
      (error: unknown) => {
        scope.asking = false
        log().debug('cluster: subscription to {channel} waits for Redis: {error}', { channel: scope.keys.channel, error: message(error) })
      },
    )
  }

  const open = (target: ClusterTarget): void => {
    const scope = scopeOf(target)
    if (scopes.has(scope.keys.tag)) return
    scopes.set(scope.keys.tag, scope)
    if (started) subscribe(scope)
  }

  const shut = (target: ClusterTarget): void => {
    const scope = scopes.get(scopeKeys(prefix, target).tag)
    if (scope === undefined) return
    scopes.delete(scope.keys.tag)
    if (scope.subscribed) void port.unsubscribe(scope.keys.channel, sharded).catch(() => undefined)
  }

  // ---- this node's channel: direct frames, requests and replies --------------------------

  const answer = (m: Extract<ClusterMessage, { _tag: 'Request' }>, channel: string): void => {
    let body: unknown
    try {
      body = JSON.parse(m.body)
    } catch {
      return invalid('a request whose body is not JSON', channel)
    }
    void (host as ClusterHost).answer(body, m.origin).then((result) => {
      if (result === undefined || closed) return
      const reply = encodeClusterMessage({ _tag: 'Reply', origin: nodeId, seq: UNSEQUENCED, requestId: m.requestId, node: m.origin, body: JSON.stringify(result) })
      if (E.isRight(reply)) void publishPlain(nodeChannel(prefix, m.origin), reply.right).catch(() => undefined)
    })
  }

  const onNodeMessage = (bytes: Uint8Array): void => {
    const decoded = decodeClusterMessage(bytes)
    if (E.isLeft(decoded)) return invalid(decoded.left.reason, myChannel)
    const m = decoded.right
    if (m._tag === 'Broadcast' || m.node !== nodeId) return invalid('a message for another node', myChannel)
    if (m._tag === 'Direct') {
      if ((host as ClusterHost).deliverTo(m.clientId, m.frame, m.envelope === true)) counts.received += 1
    } else if (m._tag === 'Request') answer(m, myChannel)
    else {
      let body: unknown
      try {
        body = JSON.parse(m.body)
      } catch {
        return invalid('a reply whose body is not JSON', myChannel)
      }
      requests?.reply(m.requestId, m.origin, body)
    }
  }

  const onControlMessage = (bytes: Uint8Array): void => {
    const decoded = decodeClusterMessage(bytes)
    if (E.isLeft(decoded)) return invalid(decoded.left.reason, control)
    const m = decoded.right
    if (m._tag !== 'Request' || m.node !== '') return invalid('not a request to every node', control)
    if (m.origin !== nodeId) answer(m, control)
  }

  // ---- liveness ---------------------------------------------------------------------------

  // A target reads its stream again from its last place (unless a fill is on its way).
  const refill = (scope: Scope): void => {
    const from = scope.order.refill()
    if (from !== undefined) fill(scope, from)
  }

  // Every target reads its stream again from its last place (after an outage).
  const refillAll = (): void => {
    for (const scope of scopes.values()) refill(scope)
  }

  const beat = async (alive: boolean): Promise<void> => {
    const args = [nodes, generations, nodeId, String(heartbeatTimeoutMs), alive ? '1' : '0', String(generation)]
    const result = (await port.command(['EVAL', HEARTBEAT_SCRIPT, '2', ...args], { key: nodes })) as string[]
    // A node new or back from an outage (its generation changed) may have published what
    // this node could not hear: read the streams again.
    let changed = false
    const seen = new Set<string>()
    for (let i = 0; i + 1 < result.length; i += 2) {
      const id = result[i] as string
      const gen = result[i + 1] as string
      if (id === nodeId) continue
      seen.add(id)
      if (live.get(id) !== gen) changed = true
      live.set(id, gen)
    }
    for (const id of [...live.keys()]) if (!seen.has(id)) live.delete(id)
    if (changed && alive) refillAll()
  }

  // A subscription that failed is asked again, and one the client no longer holds is made
  // again. A listener is only seen once Redis has confirmed it, so one on its way (node-redis
  // moving it after a failover) is given LISTEN_GRACE_MS and a heartbeat; missing longer
  // than that, it is lost.
  const checkListening = (): void => {
    const now = (host as ClusterHost).timers.now()
    for (const scope of scopes.values()) {
      if (scope.asking) continue
      if (!scope.subscribed) subscribe(scope, true)
      else if (port.listening === undefined || port.listening(scope.keys.channel, sharded)) scope.unheardSince = Number.NaN
      else if (Number.isNaN(scope.unheardSince)) scope.unheardSince = now
      else if (now - scope.unheardSince >= LISTEN_GRACE_MS) {
        scope.unheardSince = Number.NaN
        scope.subscribed = false
        log().warning('cluster: the Redis client no longer listens to {channel}; subscribing again and reading what was missed from the stream', { channel: scope.keys.channel })
        subscribe(scope, true)
      }
    }
  }

  // ---- connecting, and coming back --------------------------------------------------------

  const loadScript = async (): Promise<void> => {
    publishSha = String(await port.command(['SCRIPT', 'LOAD', PUBLISH_SCRIPT]))
  }

  const start = async (): Promise<void> => {
    await port.connect()
    if (options.sharded === undefined || options.sharded === 'auto') {
      const info = (await port.command(['COMMAND', 'INFO', 'SPUBLISH'])) as unknown[]
      sharded = Array.isArray(info) && info[0] !== null && info[0] !== undefined
    }
    clustered = /cluster_enabled:1/.test(String(await port.command(['INFO', 'cluster'])))
    await loadScript()
    await port.subscribe(myChannel, sharded, onNodeMessage)
    await port.subscribe(control, sharded, onControlMessage)
    started = true
    for (const scope of scopes.values()) subscribe(scope)
    await beat(true)
    heartbeat = (host as ClusterHost).timers.setInterval(() => {
      if (refillAtBeat && up) {
        refillAtBeat = false
        refillAll()
      }
      if (port.commandsReady) {
        beat(true).catch((error: unknown) => log().debug('cluster: heartbeat failed: {error}', { error: message(error) }))
        if (up) checkListening()
      }
    }, heartbeatIntervalMs)
    up = true
    await flush()
    log().info('cluster: node {node} joined through Redis ({mode} pub/sub)', { node: nodeId, mode: sharded ? 'sharded' : 'plain' })
    readyResolve()
  }

  let warnedUnreachable = false
  port.on('down', (error) => {
    if (closed) return
    if (started && !port.commandsReady) markDown(error)
    else if (!started && !warnedUnreachable) {
      warnedUnreachable = true
      log().warning('cluster: cannot reach Redis yet ({error}); retrying, and serving this node\'s clients meanwhile', { error: message(error) })
    }
  })
  port.on('ready', () => {
    if (!started || closed) return
    // The script cache may be empty (a restarted Redis): load it before sending what waited.
    loadScript()
      .then(() => beat(true))
      .then(async () => {
        up = true
        for (const scope of scopes.values()) if (scope.fillFrom !== undefined) fill(scope, scope.fillFrom)
        await flush()
        // What waited is in the streams now: the next generation tells the other nodes to read them.
        generation += 1
        await beat(true)
      })
      .catch((error: unknown) => log().debug('cluster: Redis not ready yet: {error}', { error: message(error) }))
  })
  port.on('subscriberReady', () => {
    if (!started || closed) return
    // node-redis has subscribed again to what it had; what it did not have yet is asked now,
    // and every target reads from its stream what was published while the line was down.
    for (const scope of scopes.values()) if (!scope.subscribed && !scope.asking) subscribe(scope)
    refillAll()
    // A cluster node's connection is ready before node-redis has sent it the subscriptions it
    // moves there: read once more at the next heartbeat, for what came in between.
    refillAtBeat = true
  })

  return {
    nodeId,
    attach: (h) => {
      host = h
      requests = new RequestTracker(h.timers)
      open({})
      start().catch((error: unknown) => {
        if (!closed) h.logger.exception(error, { phase: 'cluster start', node: nodeId })
      })
    },
    publish,
    sendTo: (node, clientId, frame, envelope) => {
      if (!up) return
      const encoded = encodeClusterMessage({ _tag: 'Direct', origin: nodeId, seq: UNSEQUENCED, node, clientId, ...(envelope ? { envelope: true as const } : {}), frame })
      if (E.isLeft(encoded)) return log().warning('cluster: a message for {node} cannot be sent: {reason}', { node, reason: encoded.left.reason })
      void publishPlain(nodeChannel(prefix, node), encoded.right).catch(() => undefined)
    },
    request: async (body, opts): Promise<ClusterReplies> => {
      const expected = opts?.node === undefined ? [...live.keys()] : [opts.node]
      if (expected.length === 0) return { replies: [], missingNodes: [] }
      if (!up || closed || requests === undefined || (opts?.node !== undefined && !live.has(opts.node))) return { replies: [], missingNodes: expected }
      const { id, answers } = requests.open(expected, opts?.timeoutMs ?? requestTimeoutMs)
      const encoded = encodeClusterMessage({ _tag: 'Request', origin: nodeId, seq: UNSEQUENCED, requestId: id, node: opts?.node ?? '', body: JSON.stringify(body) })
      if (E.isLeft(encoded)) requests.settle(id)
      else publishPlain(opts?.node === undefined ? control : nodeChannel(prefix, opts.node), encoded.right).catch(() => requests?.settle(id))
      return answers
    },
    roomOpened: (namespace, room) => open({ namespace, room }),
    roomClosed: (namespace, room) => shut({ namespace, room }),
    namespaceOpened: (namespace) => open({ namespace }),
    namespaceClosed: (namespace) => shut({ namespace }),
    close: async () => {
      if (closed) return
      closed = true
      if (heartbeat !== undefined) host?.timers.clearInterval(heartbeat)
      if (retryTimer !== undefined) host?.timers.clearTimeout(retryTimer)
      if (fillTimer !== undefined) host?.timers.clearTimeout(fillTimer)
      requests?.settleAll()
      // Leave the registry, unless Redis is away or too slow to say so in time (then the
      // heartbeat runs out by itself).
      if (up) {
        await new Promise<void>((resolve) => {
          const timer = (host as ClusterHost).timers.setTimeout(resolve, requestTimeoutMs)
          beat(false).then(
            () => {
              ;(host as ClusterHost).timers.clearTimeout(timer)
              resolve()
            },
            () => resolve(),
          )
        })
      }
      up = false
      await port.close().catch(() => undefined)
    },
    ready: () => readyPromise,
    liveNodes: () => [...live.keys()],
    stats: () => ({ ...counts, dropped: buffer.dropped, waiting: buffer.length, waitingBytes: buffer.bytes }),
  }
}
