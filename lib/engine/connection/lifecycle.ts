/**
 * `Lifecycle`: a connection's life in the server and the server's own. `accept` admits a
 * connection as an HTTP client (or refuses it with 503 past `maxConnections` or while
 * shutting down); `closed` lets it go (a WebSocket client's session parked or ended, its
 * disconnect handlers run); the sweeper enforces the HTTP time-outs and the heartbeat wheel
 * (heartbeat-wheel.ts) pings the registry's clients a slice per tick; `close` drains: WebSockets closed with 1001, HTTP answers finished,
 * what outlives the grace period cut, then compression, the recovery journal and the
 * cluster, in that order. Must not import `node:*`, Buffer or process.
 */
import { errorResponse } from '../../core/http/response.js'
import { serializeResponse } from '../../core/http/serialize-response.js'
import type { Logger } from '../../core/log/logger.js'
import { CLOSE_CODE } from '../../core/ws/close-code.js'
import type { Client, Receiver } from './client.js'
import { RefusedUpgrade } from './refused-upgrade.js'
import type { AcceptWall } from './accept-wall.js'
import type { ClientContext, ClientContexts } from './client-context.js'
import type { ClusterAdapter } from '../cluster/cluster-adapter.js'
import { type ClientTable, type Member, memberOf } from '../registry/client-table.js'
import type { ConnectHandlers } from './connect-handlers.js'
import { httpDate } from './http-date.js'
import { HeartbeatWheel, heartbeatTicks } from './heartbeat-wheel.js'
import { HttpConnection } from './http-connection.js'
import type { HttpShared } from './http-shared.js'
import type { Limits } from '../options/limits.js'
import type { NamespaceRegistry } from '../registry/namespace-registry.js'
import type { SocketIo, TimerId, Timers } from '../platform.js'
import type { SessionRecovery } from '../recovery/session-recovery.js'
import type { WsCompression } from '../deflate/ws-compression.js'
import type { ConnectionGate } from '../limit/connection-gate.js'
import type { AbuseLog } from '../limit/abuse-log.js'

export interface LifecycleDeps<S> {
  readonly table: ClientTable<S>
  readonly io: SocketIo<S>
  readonly timers: Timers
  readonly limits: Limits
  readonly logger: Logger
  /** The class of this server's clients (`clientContexts(ops)`). */
  readonly Clients: ClientContexts<S>
  readonly httpShared: HttpShared<S>
  readonly registry: NamespaceRegistry
  readonly recovery: SessionRecovery<S>
  readonly handlers: ConnectHandlers
  readonly compression: WsCompression | undefined
  readonly cluster: ClusterAdapter
  /** Counts the connections not taken and logs them once per interval. */
  readonly wall: AcceptWall
  /** The metrics' event-loop probe, started with the timers and stopped at close; absent with metrics off. */
  readonly probe?: { start(): void; stop(): void }
  /** The connections per address (the `rateLimits` option), when limited. */
  readonly gate?: ConnectionGate | undefined
  /** The abuse log, closed with the server. */
  readonly abuse?: AbuseLog | undefined
}

// The heartbeat wheel's visit: a client of the registry is pinged (or ended), an HTTP one skipped.
const beat = <S>(client: ClientContext<S>, tick: number, settle: number): void => memberOf(client)?.heartbeat(tick, settle)

// The receiver of a WebSocket client that is gone: its socket is closed, nothing reaches it.
const GONE: Receiver = { receive: () => undefined, peerEnded: () => undefined }

export class Lifecycle<S> {
  // Started by the first connection, not at creation: a host whose requests come without
  // sockets (`toFetch` on Workers) may start no timer outside a request, and needs none.
  private sweeper: TimerId | undefined = undefined
  private heartbeat: TimerId | undefined = undefined
  private closing: Promise<void> | undefined = undefined
  // Set by `close`: resolves it once the last connection is gone.
  private drained: (() => void) | undefined = undefined

  constructor(private readonly deps: LifecycleDeps<S>) {}

  // The sweeper and the heartbeat, once.
  private startTimers(): void {
    const { limits, timers, table } = this.deps
    // The sweep also cancels a streamed answer the socket stopped taking (within a heartbeat)
    // and a source silent for streamIdleMs: it runs often enough for those too.
    const sweepEvery = Math.max(
      10,
      Math.min(1000, limits.headerTimeoutMs / 4, limits.keepAliveTimeoutMs / 4, limits.requestTimeoutMs / 4, limits.heartbeatIntervalMs / 4, limits.streamIdleMs / 4),
    )
    // A sweep later than two periods (and 250 ms: short periods jitter on a busy machine)
    // follows a stall of the server's own: it judges nothing (`HttpConnection.sweep`), so what
    // arrived during the stall is read before any time-out.
    const stallAfter = Math.max(2 * sweepEvery, sweepEvery + 250)
    let last = timers.now()
    this.sweeper = timers.setInterval(() => {
      const now = timers.now()
      const stalled = now - last > stallAfter
      last = now
      for (const connection of table.http.values()) connection.sweep(now, stalled)
    }, sweepEvery)
    // The heartbeat spread over its interval: each tick pings one slice of the clients.
    // The first round starts an interval after the first connection, as the pings always did.
    const ticks = heartbeatTicks(limits.heartbeatIntervalMs)
    const wheel = new HeartbeatWheel(table.all, beat, ticks, ticks - 1)
    this.heartbeat = timers.setInterval(() => wheel.turn(), limits.heartbeatIntervalMs / wheel.ticks)
    this.deps.probe?.start()
  }

  /** A new connection, as an HTTP client; `undefined` when it is refused (a 503 is queued and it is ended). */
  accept(socket: S): ClientContext<S> | undefined {
    const { table, io, timers, limits } = this.deps
    if (table.draining || table.all.size >= limits.maxConnections) {
      this.deps.wall.hit(table.draining ? 'draining' : 'full')
      timers.setTimeout(() => io.destroy(socket), limits.closeTimeoutMs)
      io.end(socket, serializeResponse(errorResponse(503, 'unavailable'), { keepAlive: false, date: httpDate(timers.now()) }, this.deps.httpShared.answers))
      return undefined
    }
    if (this.sweeper === undefined) this.startTimers()
    const id = table.newId()
    const http = new HttpConnection(socket, this.deps.httpShared, id)
    const client = new this.deps.Clients(id, socket, http)
    client.remoteAddress = io.remoteAddress?.(socket)
    table.all.set(id, client)
    table.http.set(id, http)
    return client
  }

  /**
   * A client whose HTTP exchange a host owns (an event stream under `attach` or `toFetch`, its
   * output a `PullOutlet` standing for the socket): registered with no HTTP connection of its
   * own, under the same limits as `accept`; `undefined` past `maxConnections` or while shutting
   * down (the caller answers 503). The heartbeat starts with it, as with the first connection.
   */
  adopt(socket: S, remoteAddress: string | undefined): ClientContext<S> | undefined {
    const { table, limits } = this.deps
    if (table.draining || table.all.size >= limits.maxConnections) {
      this.deps.wall.hit(table.draining ? 'draining' : 'full')
      return undefined
    }
    if (this.sweeper === undefined) this.startTimers()
    const id = table.newId()
    const client = new this.deps.Clients(id, socket, GONE)
    client.remoteAddress = remoteAddress
    table.all.set(id, client)
    return client
  }

  /** The connection is gone (both sides closed, or destroyed). */
  closed(gone: Client<S>): void {
    const { table, recovery } = this.deps
    const client = table.all.get(gone.id)
    if (client !== gone || client === undefined) return
    // A client gone while its session was restored from the store: it comes back later.
    const restoring = client.type === 'http' ? recovery.parked.get(client.id) : undefined
    if (restoring !== undefined) recovery.abandon(restoring)
    // Its exchanges still running (a streamed answer or body) are cancelled.
    table.http.get(client.id)?.closed()
    table.http.delete(client.id)
    const connection = memberOf(client)
    this.deps.gate?.closed(client)
    if (connection !== undefined) this.disconnected(client, connection)
    else if (client.receiver instanceof RefusedUpgrade) client.receiver.closed()
    table.all.delete(client.id)
    if (table.draining && table.all.size === 0) this.drained?.()
  }

  // A WebSocket or event-stream client's connection is gone: its session parked, or the client gone for good.
  private disconnected(client: ClientContext<S>, connection: Member<S>): void {
    const clientId = client.id
    connection.closed()
    // No longer a WebSocket client (its disconnect handlers may still read its data).
    client.receiver = GONE
    if (this.deps.recovery.park(client, connection)) return
    this.deps.registry.leaveNamespace(clientId)
    this.deps.handlers.disconnected(clientId, connection.ctx)
  }

  /**
   * Stops the heartbeat and time-outs, closes WebSockets with 1001, finishes HTTP answers,
   * cuts what outlives the grace period, and resolves once no connection is left.
   */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      const { table, io, timers, limits, logger, recovery, compression, cluster } = this.deps
      table.draining = true
      recovery.leaveAll()
      if (this.sweeper !== undefined) timers.clearInterval(this.sweeper)
      if (this.heartbeat !== undefined) timers.clearInterval(this.heartbeat)
      this.deps.wall.close()
      this.deps.probe?.stop()
      // Sockets that outlive the grace period are cut.
      const force = timers.setTimeout(() => {
        for (const client of table.all.values()) io.destroy(client.socket)
      }, limits.closeTimeoutMs)
      this.drained = () => {
        timers.clearTimeout(force)
        compression?.close()
        this.deps.abuse?.close()
        // The cluster last: the rooms closed as their clients left; now leave the cluster.
        void recovery
          .close()
          .then(() => cluster.close())
          .then(resolve, (error: unknown) => {
            logger.exception(error, { phase: 'cluster close' })
            resolve()
          })
      }
      if (table.all.size === 0) return this.drained()
      for (const client of table.all.values()) memberOf(client)?.close(CLOSE_CODE.GOING_AWAY, 'server shutting down')
      for (const connection of table.http.values()) connection.finish()
    })
    return this.closing
  }
}
