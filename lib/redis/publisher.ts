/**
 * The publishing side of the Redis adapter: a broadcast from this node becomes a cluster
 * message that the publish script numbers, appends to its target's stream and publishes, in
 * one step (lua-scripts.ts). While Redis is away (link not up) or slow, broadcasts wait in
 * the publish buffer, bounded in bytes, and past it are dropped and counted; `flush` sends
 * what waited, in order, when Redis is back. On a Redis Cluster whose master of a target is
 * failing over while the others answer, only that target waits: its oldest broadcast is
 * tried every RETRY_MS, then the rest follow (docs/decisions.md "Redis Cluster failover").
 * Imports the engine as types only, no `node:*`.
 */
import * as E from 'fp-ts/lib/Either.js'
import { UNSEQUENCED } from '../core/cluster/cluster-message.js'
import { encodeClusterMessage } from '../core/cluster/encode-cluster-message.js'
import type { ClusterTarget } from '../engine/cluster/cluster-adapter.js'
import type { TimerId } from '../engine/platform.js'
import { type AdapterContext, errorText, RETRY_MS } from './adapter-context.js'
import { PUBLISH_SCRIPT } from './lua-scripts.js'
import { PublishBuffer, type Waiting } from './publish-buffer.js'
import { type ScopeKeys, scopeKeys } from './redis-keys.js'

/** One try's outcome: Redis took it, it may go through later, or it never will. */
type Attempt = { readonly outcome: 'sent' | 'retry' | 'refused'; readonly error?: unknown }

/** What the publisher tells the adapter. */
export interface PublisherEvents {
  /** A send failed because the command connection is gone: the link is down. */
  readonly lost: (error: unknown) => void
  /** The last stalled target went through: what waited is in the streams (a new generation says so). */
  readonly caughtUp: () => void
}

export class Publisher {
  private readonly buffer: PublishBuffer<ScopeKeys>
  /** The publish script's SHA once loaded (EVALSHA), EVAL until then. */
  private sha: string | undefined = undefined
  /** Targets whose master cannot take broadcasts now, the retry timer, and whether that was said. */
  private readonly stall: { readonly targets: Set<string>; timer: TimerId | undefined; warned: boolean } = { targets: new Set(), timer: undefined, warned: false }
  /** Per outage: what was dropped, and whether that was said (one warning, one summary). */
  private outage = { dropped: 0, warned: false }
  private readonly counts = { published: 0, sentAfterOutage: 0 }
  private readonly streamArgs: readonly [maxLength: string, ttlMs: string]
  /** This publisher's run (random per start) and the number of its last publish: a publish sent again runs once. */
  private readonly run = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')
  private lastId = 0

  constructor(
    private readonly ctx: AdapterContext,
    limits: { readonly streamMaxLength: number; readonly streamTtlMs: number; readonly maxBufferedBytes: number },
    private readonly events: PublisherEvents,
  ) {
    this.buffer = new PublishBuffer<ScopeKeys>(limits.maxBufferedBytes)
    this.streamArgs = [String(limits.streamMaxLength), String(limits.streamTtlMs)]
  }

  /** The buffer's bound in bytes. */
  get maxBytes(): number {
    return this.buffer.maxBytes
  }

  stats(): { published: number; sentAfterOutage: number; dropped: number; waiting: number; waitingBytes: number } {
    return { ...this.counts, dropped: this.buffer.dropped, waiting: this.buffer.length, waitingBytes: this.buffer.bytes }
  }

  /** Loads the publish script (again after a restart of Redis, whose script cache is empty). */
  async loadScript(): Promise<void> {
    this.sha = String(await this.ctx.port.command(['SCRIPT', 'LOAD', PUBLISH_SCRIPT]))
  }

  /** A broadcast that started on this node: sent now, or held while Redis is away or its target stalled. */
  publish(frame: Uint8Array, target: ClusterTarget, envelope: boolean): void {
    const link = this.ctx.link()
    if (link.state === 'closed') return
    const namespace = target.room !== undefined ? (target.namespace ?? '/') : target.namespace
    const encoded = encodeClusterMessage({
      _tag: 'Broadcast',
      origin: this.ctx.nodeId,
      seq: UNSEQUENCED,
      ...(namespace === undefined ? {} : { namespace }),
      ...(target.room === undefined ? {} : { room: target.room }),
      ...(envelope ? { envelope: true as const } : {}),
      frame,
    })
    if (E.isLeft(encoded)) return this.ctx.host.logger.warning('cluster: a broadcast cannot cross to other nodes: {reason}', { reason: encoded.left.reason })
    const entry = { keys: scopeKeys(this.ctx.prefix, target), message: encoded.right, id: ++this.lastId }
    const up = link.state === 'up'
    const held = !up || this.stall.targets.has(entry.keys.tag)
    if (!this.buffer.admit(entry.message.length)) {
      this.outage.dropped += 1
      if (!this.outage.warned) {
        this.outage.warned = true
        this.ctx.host.logger.warning('cluster: Redis is {state}; broadcasts to other nodes are dropped until it catches up (buffer of {bytes} bytes full)', {
          state: !up ? 'away' : this.stall.targets.size > 0 ? 'failing over' : 'slow',
          bytes: this.buffer.maxBytes,
        })
      }
      return
    }
    if (held) this.buffer.hold(entry)
    else void this.send(entry, false)
  }

  /** Sends what waited, in order; resolves when Redis has answered for all of it. */
  async flush(): Promise<void> {
    const waiting = this.buffer.takeAll()
    this.stall.targets.clear()
    this.stall.warned = false
    const sent = waiting.map((entry) => this.send(entry, true))
    if (this.outage.dropped > 0 || waiting.length > 0) {
      this.ctx.host.logger.info('cluster: Redis is back; {sent} broadcasts that waited are sent, {dropped} were dropped meanwhile', { sent: waiting.length, dropped: this.outage.dropped })
    }
    this.outage = { dropped: 0, warned: false }
    await Promise.all(sent)
  }

  /** The node is closing: no more retries. */
  stop(): void {
    if (this.stall.timer !== undefined) this.ctx.host.timers.clearTimeout(this.stall.timer)
  }

  private evalPublish(entry: Waiting<ScopeKeys>, sha: string | undefined): Promise<unknown> {
    const { port, server, host } = this.ctx
    const { keys, message: bytes } = entry
    const args = [
      '2', keys.stream, keys.counter, bytes, ...this.streamArgs, String(host.timers.now()), keys.channel, server.sharded ? '1' : '0', server.clustered ? '1' : '0',
      this.ctx.nodeId, this.run, String(entry.id ?? 0),
    ]
    return sha === undefined ? port.command(['EVAL', PUBLISH_SCRIPT, ...args], { key: keys.stream }) : port.command(['EVALSHA', sha, ...args], { key: keys.stream })
  }

  // Whether a failed command may go through if sent again: Redis away, or (on a cluster) an
  // error of a failover; Redis' own refusal (a script error) would fail again.
  private passing(error: unknown): boolean {
    const { port } = this.ctx
    return !port.commandsReady || (port.refused !== undefined && !port.refused(error))
  }

  private attempt(entry: Waiting<ScopeKeys>): Promise<Attempt> {
    return this.evalPublish(entry, this.sha)
      .catch((error: unknown) => (errorText(error).startsWith('NOSCRIPT') ? this.evalPublish(entry, undefined) : Promise.reject(error)))
      .then(
        (): Attempt => ({ outcome: 'sent' }),
        (error: unknown): Attempt => ({ outcome: this.passing(error) ? 'retry' : 'refused', error }),
      )
  }

  private taken(entry: Waiting<ScopeKeys>, afterOutage: boolean): void {
    this.buffer.settled(entry.message.length)
    this.counts.published += 1
    if (afterOutage) this.counts.sentAfterOutage += 1
  }

  private refusedFor(entry: Waiting<ScopeKeys>, error: unknown): void {
    // Redis refused it (a script error): retrying would fail again.
    this.buffer.settled(entry.message.length)
    this.ctx.host.logger.warning('cluster: Redis refused a broadcast: {error}', { error: errorText(error) })
  }

  private send(entry: Waiting<ScopeKeys>, afterOutage: boolean): Promise<void> {
    return this.attempt(entry).then(({ outcome, error }) => {
      if (outcome === 'sent') return this.taken(entry, afterOutage)
      if (this.ctx.link().state === 'closed') return this.buffer.settled(entry.message.length)
      if (outcome === 'refused') return this.refusedFor(entry, error)
      // Redis went away with this one in flight: it is sent again when Redis is back (if
      // Redis ran it just before the line broke, the script knows it by its id and does not
      // run it twice: issue 29). On a cluster whose other masters still
      // answer, only this target waits (docs/decisions.md "Redis Cluster failover").
      if (!this.ctx.port.commandsReady) this.events.lost(error)
      else this.stallTarget(entry.keys, error)
      this.buffer.fail(entry)
    })
  }

  private stallTarget(keys: ScopeKeys, error: unknown): void {
    this.stall.targets.add(keys.tag)
    if (!this.stall.warned) {
      this.stall.warned = true
      this.ctx.host.logger.warning('cluster: Redis cannot take broadcasts to {target} now ({error}); they wait (up to {bytes} bytes in all) and are tried again every {ms} ms', {
        target: keys.tag,
        error: errorText(error),
        bytes: this.buffer.maxBytes,
        ms: RETRY_MS,
      })
    }
    this.retrySoon()
  }

  private retrySoon(): void {
    if (this.stall.timer === undefined) this.stall.timer = this.ctx.host.timers.setTimeout(this.retry, RETRY_MS)
  }

  // Tries the oldest waiting broadcast of each stalled target; the first that goes through
  // lets the rest of its target follow, in order.
  private readonly retry = (): void => {
    this.stall.timer = undefined
    if (this.ctx.link().state !== 'up') return // Redis away altogether (or closed): 'ready' sends everything
    for (const tag of [...this.stall.targets]) {
      const mine = (keys: ScopeKeys): boolean => keys.tag === tag
      const head = this.buffer.first(mine)
      if (head === undefined) {
        this.stall.targets.delete(tag)
        continue
      }
      void this.attempt(head).then(({ outcome, error }) => {
        if (this.ctx.link().state === 'closed' || !this.buffer.remove(head)) return
        if (outcome === 'retry') {
          // Still the oldest: back in front of the rest of its target.
          const rest = this.buffer.take(mine)
          for (const e of [head, ...rest]) this.buffer.fail(e)
          this.retrySoon()
          return
        }
        if (outcome === 'sent') this.taken(head, true)
        else this.refusedFor(head, error)
        this.stall.targets.delete(tag)
        const rest = this.buffer.take(mine)
        for (const e of rest) void this.send(e, true)
        this.ctx.host.logger.info('cluster: broadcasts to {target} go through again; {sent} that waited are sent', { target: tag, sent: rest.length + 1 })
        if (this.stall.targets.size === 0) {
          this.stall.warned = false
          this.events.caughtUp()
        }
      })
    }
  }
}
