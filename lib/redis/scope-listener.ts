/**
 * The targets this node listens to: everyone always, a namespace or a room only while the
 * node has members in it. Per target, one subscription asked at a time (a SUBSCRIBE in
 * flight is not asked again: a second one gave two listeners, every broadcast decoded twice)
 * and one listener function for the target's life, handed to the client as it is (node-redis
 * keeps a channel's listeners in a Set, so a target subscribed again hears each broadcast
 * once). A subscription the client lost without a word (a failover's move that failed) is
 * made again at a heartbeat once missing for LISTEN_GRACE_MS, then its stream is read from
 * the last place. What arrives is put in order (scope-order.ts) and written to local clients;
 * gaps, outages and new epochs are filled from the stream (read-scope-stream.ts), and a fill
 * that fails while Redis takes commands is read again every RETRY_MS.
 * Imports the engine as types only, no `node:*`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ClusterBroadcast, Sequence } from '../core/cluster/cluster-message.js'
import { decodeClusterMessage } from '../core/cluster/decode-cluster-message.js'
import type { ClusterTarget } from '../engine/cluster/cluster-adapter.js'
import type { TimerId } from '../engine/platform.js'
import { type AdapterContext, errorText, RETRY_MS, warnInvalid } from './adapter-context.js'
import { linkStarted } from './link.js'
import { readEpochEnd, readScopeStream } from './read-scope-stream.js'
import { type ScopeKeys, scopeKeys } from './redis-keys.js'
import { type OrderStep, ScopeOrder } from './scope-order.js'

/** How long a subscription may be missing from the client before it counts as lost (a move after a failover takes a connect and one round trip). */
const LISTEN_GRACE_MS = 1000

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
  fillFrom: Sequence | undefined
  /** Its one listener: every SUBSCRIBE of this target hands the client the same function. */
  readonly hear: (bytes: Uint8Array) => void
}

const targetOf = (m: ClusterBroadcast): ClusterTarget => ({
  ...(m.namespace === undefined ? {} : { namespace: m.namespace }),
  ...(m.room === undefined ? {} : { room: m.room }),
})

export class ScopeListener {
  private readonly scopes = new Map<string, Scope>()
  /**
   * `fillTimer`: fills that failed while Redis still takes commands (a cluster whose master
   * of the target is down: `The client is offline`, `CLUSTERDOWN`) are read again every
   * RETRY_MS, since a target filling holds what arrives and a cluster client never says
   * `ready` again. `refillAtBeat`: read every stream again at the next heartbeat, since a
   * cluster node's connection came back and node-redis may not have moved every
   * subscription to it yet.
   */
  private readonly again: { fillTimer: TimerId | undefined; refillAtBeat: boolean } = { fillTimer: undefined, refillAtBeat: false }
  private readonly counts = { received: 0, backfilled: 0, lost: 0, rolledBack: 0, duplicates: 0, invalid: 0 }
  /** Entries read per XRANGE: twice what a stream keeps. */
  private readonly pageSize: number

  constructor(
    private readonly ctx: AdapterContext,
    streamMaxLength: number,
  ) {
    this.pageSize = streamMaxLength * 2
  }

  stats(): { readonly received: number; readonly backfilled: number; readonly lost: number; readonly rolledBack: number; readonly duplicates: number; readonly invalid: number } {
    return { ...this.counts }
  }

  /** The node has members of `target` now: listen to it (at once, or when the link has started). */
  open(target: ClusterTarget): void {
    const scope = this.scopeOf(target)
    if (this.scopes.has(scope.keys.tag)) return
    this.scopes.set(scope.keys.tag, scope)
    if (linkStarted(this.ctx.link())) this.subscribe(scope)
  }

  /** The node has no members of `target` any more. */
  shut(target: ClusterTarget): void {
    const scope = this.scopes.get(scopeKeys(this.ctx.prefix, target).tag)
    if (scope === undefined) return
    this.scopes.delete(scope.keys.tag)
    if (scope.subscribed) void this.ctx.port.unsubscribe(scope.keys.channel, this.ctx.server.sharded).catch(() => undefined)
  }

  /** The link has started: subscribe every target opened so far. */
  subscribeAll(): void {
    for (const scope of this.scopes.values()) this.subscribe(scope)
  }

  /** Every target reads its stream again from its last place (after an outage, or a node new or back). */
  refillAll(): void {
    for (const scope of this.scopes.values()) this.refill(scope)
  }

  /** Redis is ready again: the fills that failed are read now. */
  retryFills(): void {
    for (const scope of this.scopes.values()) if (scope.fillFrom !== undefined) this.fill(scope, scope.fillFrom)
  }

  /**
   * node-redis has subscribed again to what it had (on a cluster: a node's connection is
   * ready): what it did not have yet is asked now, every target reads what was published
   * while the line was down, and once more at the next heartbeat, since a cluster node's
   * connection is ready before node-redis has sent it the subscriptions it moves there.
   */
  subscriberReady(): void {
    for (const scope of this.scopes.values()) if (!scope.subscribed && !scope.asking) this.subscribe(scope)
    this.refillAll()
    this.again.refillAtBeat = true
  }

  /** At a heartbeat with the link up: the refill `subscriberReady` asked for. */
  refillIfAsked(): void {
    if (!this.again.refillAtBeat) return
    this.again.refillAtBeat = false
    this.refillAll()
  }

  /**
   * At a heartbeat with the link up: a subscription that failed is asked again, and one the
   * client no longer holds is made again. A listener is only seen once Redis has confirmed
   * it, so one on its way (node-redis moving it after a failover) is given LISTEN_GRACE_MS
   * and a heartbeat; missing longer than that, it is lost.
   */
  checkListening(): void {
    const { port, server } = this.ctx
    const now = this.ctx.host.timers.now()
    for (const scope of this.scopes.values()) {
      if (scope.asking) continue
      if (!scope.subscribed) this.subscribe(scope, true)
      else if (port.listening === undefined || port.listening(scope.keys.channel, server.sharded)) scope.unheardSince = Number.NaN
      else if (Number.isNaN(scope.unheardSince)) scope.unheardSince = now
      else if (now - scope.unheardSince >= LISTEN_GRACE_MS) {
        scope.unheardSince = Number.NaN
        scope.subscribed = false
        this.ctx.host.logger.warning('cluster: the Redis client no longer listens to {channel}; subscribing again and reading what was missed from the stream', { channel: scope.keys.channel })
        this.subscribe(scope, true)
      }
    }
  }

  /** The node is closing: no more fills. */
  stop(): void {
    if (this.again.fillTimer !== undefined) this.ctx.host.timers.clearTimeout(this.again.fillTimer)
  }

  private scopeOf(target: ClusterTarget): Scope {
    const keys = scopeKeys(this.ctx.prefix, target)
    const known = this.scopes.get(keys.tag)
    if (known !== undefined) return known
    const scope: Scope = { keys, target, order: new ScopeOrder(), subscribed: false, asking: false, unheardSince: Number.NaN, fillFrom: undefined, hear: (bytes) => this.onScopeMessage(scope, bytes) }
    return scope
  }

  // `again`: a subscription the client lost; once it is back, what was published meanwhile
  // is read from the stream.
  private subscribe(scope: Scope, again = false): void {
    const { port, server } = this.ctx
    scope.asking = true
    port.subscribe(scope.keys.channel, server.sharded, scope.hear).then(
      () => {
        scope.asking = false
        scope.subscribed = true
        if (this.scopes.get(scope.keys.tag) !== scope) return void port.unsubscribe(scope.keys.channel, server.sharded).catch(() => undefined)
        if (again) this.refill(scope)
      },
      (error: unknown) => {
        scope.asking = false
        this.ctx.host.logger.debug('cluster: subscription to {channel} waits for Redis: {error}', { channel: scope.keys.channel, error: errorText(error) })
      },
    )
  }

  private invalid(reason: string, channel: string): void {
    this.counts.invalid += 1
    warnInvalid(this.ctx, reason, channel)
  }

  private onScopeMessage(scope: Scope, bytes: Uint8Array): void {
    if (this.scopes.get(scope.keys.tag) !== scope) return
    const decoded = decodeClusterMessage(bytes)
    if (E.isLeft(decoded)) return this.invalid(decoded.left.reason, scope.keys.channel)
    const m = decoded.right
    if (m._tag !== 'Broadcast' || scopeKeys(this.ctx.prefix, targetOf(m)).tag !== scope.keys.tag) return this.invalid('not a broadcast to this channel\'s target', scope.keys.channel)
    this.apply(scope, scope.order.offer(m.seq, m), false)
  }

  private apply(scope: Scope, step: OrderStep<ClusterBroadcast>, backfill: boolean): void {
    const { host, nodeId } = this.ctx
    for (const m of step.deliver) {
      if (m.origin === nodeId) continue // delivered here when it was published
      // Written at once; the engine holds the writes of a burst to the end of the I/O turn.
      host.deliver(m.frame, scope.target, m.envelope === true, m.seq)
      this.counts.received += 1
      if (backfill) this.counts.backfilled += 1
    }
    this.counts.duplicates += step.dropped
    if (step.lost > 0) this.countLost(scope, step.lost)
    if (step.left !== undefined) this.checkEpochEnd(scope, step.left)
    if (step.fillFrom !== undefined) this.fill(scope, step.fillFrom)
  }

  private countLost(scope: Scope, lost: number): void {
    this.counts.lost += lost
    this.ctx.host.logger.warning('cluster: {lost} broadcasts to {target} were no longer in Redis when this node came to read them', { lost, target: scope.keys.tag })
  }

  // A target reads its stream again from its last place (unless a fill is on its way).
  private refill(scope: Scope): void {
    const from = scope.order.refill()
    if (from !== undefined) this.fill(scope, from)
  }

  private fill(scope: Scope, from: Sequence): void {
    scope.fillFrom = undefined
    readScopeStream(this.ctx.port, scope.keys, from, this.pageSize, (reason, where) => this.invalid(reason, where)).then(
      (entries) => {
        if (this.scopes.get(scope.keys.tag) !== scope) return
        this.apply(scope, scope.order.filled(entries), true)
      },
      (error: unknown) => {
        // Read again when Redis is back (its 'ready'), or soon if it still takes commands;
        // what arrives meanwhile waits in order.
        scope.fillFrom = from
        this.ctx.host.logger.debug('cluster: backfill of {target} waits for Redis: {error}', { target: scope.keys.tag, error: errorText(error) })
        if (this.ctx.port.commandsReady && this.again.fillTimer === undefined && this.ctx.link().state !== 'closed') this.again.fillTimer = this.ctx.host.timers.setTimeout(this.fillAgain, RETRY_MS)
      },
    )
  }

  private readonly fillAgain = (): void => {
    this.again.fillTimer = undefined
    if (this.ctx.link().state === 'closed') return
    this.retryFills()
  }

  // A new epoch after a cluster's failover, once per failover (the order moves into it only
  // by a fill from its last place): the script kept where the old epoch ended on the new
  // master (`pe`, `pn`). `left` is the last place this node delivered in the old epoch (its
  // rest read from the stream first). What it delivered past the end is gone from Redis
  // (`rolledBack`); an end past it is a rest the stream no longer had (`lost`).
  private checkEpochEnd(scope: Scope, left: Sequence): void {
    readEpochEnd(this.ctx.port, scope.keys).then(
      ({ epoch: pe, n: pn }) => {
        if (pe !== left.epoch || Number.isNaN(pn)) return
        if (pn > left.n) return this.countLost(scope, pn - left.n)
        if (!(pn < left.n)) return
        this.counts.rolledBack += left.n - pn
        this.ctx.host.logger.warning('cluster: {count} broadcasts to {target} this node delivered were lost from Redis in a failover (its new master has them up to {n}); a backfill or a recovery cannot bring them back', {
          count: left.n - pn,
          target: scope.keys.tag,
          n: pn,
        })
      },
      (error: unknown) => this.ctx.host.logger.debug('cluster: could not read where {target}\'s last epoch ended: {error}', { target: scope.keys.tag, error: errorText(error) }),
    )
  }
}
