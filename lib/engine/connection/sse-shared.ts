/**
 * `SseShared`: what every Server-Sent Events connection of one server shares, one object per
 * server (a connection holds it as `shared`), and the hand-over that makes an HTTP
 * connection's socket one (`open`, called once an `eventStream` answer's head is written):
 * `retry:`, the client's namespace and rooms, its session when recovery is on (a resume of a
 * session another node held waits for the shared store first, as an upgrade's does), then its
 * connect handlers, as an accepted upgrade does for a WebSocket. Must not import `node:*`,
 * Buffer or process.
 */
import { compactRequest } from '../../core/http/compact-request.js'
import type { HttpRequest } from '../../core/http/types.js'
import type { Logger } from '../../core/log/logger.js'
import { encodeSseComment, encodeSseEvent, encodeSseRetry } from '../../core/sse/encode-sse-event.js'
import type { EventStreamOptions } from '../../core/sse/event-stream.js'
import { type SseFraming, sseWire } from '../../core/sse/sse-wire.js'
import type { Delivery } from '../delivery/delivery.js'
import type { Limits } from '../options/limits.js'
import type { SocketIo, Timers } from '../platform.js'
import type { ClientTable } from '../registry/client-table.js'
import type { NamespaceRegistry } from '../registry/namespace-registry.js'
import type { SessionRecovery } from '../recovery/session-recovery.js'
import type { ClientContext } from './client-context.js'
import type { ConnectHandlers } from './connect-handlers.js'
import { SseConnection } from './sse-connection.js'
import { ClientRequests } from '../delivery/client-requests.js'
import type { EventId } from '../../core/ws/event.js'
import { errorResponse } from '../../core/http/response.js'
import type { Response } from '../../core/http/types.js'
import type { CompiledRoutes } from '../../core/route/compiled-routes.js'
import type { WsErrorReporter } from '../../core/route/ws-error-reporter.js'
import type { WsMiddleware } from '../../core/route/ws-middleware.js'
import type { EventPostBody } from '../../core/sse/event-post.js'
import { isAllowedOrigin } from '../../core/ws/validate-upgrade.js'
import { headerValue } from '../../core/http/header-value.js'
import { readSessionCursor } from '../../core/sse/session-cursor.js'
import { HEARTBEAT_MESSAGE, type ResyncReason } from '../../core/ws/session-wire.js'
import { restoreSession } from '../recovery/restore-session.js'
import { type Instrumentation, NO_INSTRUMENTATION } from '../instrumentation/instrumentation.js'
import type { ClusterAdapter } from '../cluster/cluster-adapter.js'
import { FoundAnswer } from '../cluster/cluster-request.js'
import type { Handshake } from '../../core/route/handshake.js'
import type { HttpContext } from '../../core/route/http-context.js'
import { type EventStreamGuard, guardEventStreams } from '../../core/route/guard-event-streams.js'
import type { UpgradeCheck } from '../../core/route/upgrade-middleware.js'

export interface SseSharedDeps<S> {
  readonly io: SocketIo<S>
  readonly timers: Timers
  readonly limits: Limits
  readonly table: ClientTable<S>
  readonly registry: NamespaceRegistry
  readonly handlers: ConnectHandlers
  readonly recovery: SessionRecovery<S>
  readonly delivery: Delivery<S>
  readonly logger: Logger
  readonly debugOn: boolean
  /** The route table, its WebSocket middleware and the handlers' error reporter: what a post is dispatched with. */
  readonly compiled: CompiledRoutes
  readonly wsMiddleware: readonly WsMiddleware[]
  readonly onError: WsErrorReporter
  /** The origins a WebSocket upgrade may come from: a post is held to the same. */
  readonly allowedOrigins: readonly string[]
  /** The server's requests to its clients: an event-stream client that announces `tp_r=1` answers them by post. */
  readonly requests: ClientRequests<S>
  /** Where dispatched posts are reported (`Instrumentation`); the no-op when absent. */
  readonly instrumentation?: Instrumentation
  /** The rest of the cluster: a post for a session another node's stream holds is forwarded there. */
  readonly cluster: ClusterAdapter
  /** What the upgrade guards of a stream's path are given (the server's HTTP context). */
  readonly httpContext: HttpContext
  /** Where a guard that throws is reported (it refuses with 500). */
  readonly onHttpError: (error: unknown, request: HttpRequest) => void
  /** The checks of the server's `upgradeMiddleware`s: a stream passes them as an upgrade does. */
  readonly upgradeChecks?: readonly UpgradeCheck<object>[]
}

// The nodes last found holding sessions (a post's next ones go straight there), at most this many.
const KNOWN_NODES = 10_000

// What a post is answered when its text went to its session (no body).
const ACCEPTED: Response = Object.freeze({ _tag: 'Response', status: 202, headers: Object.freeze([]), contentType: '', body: undefined })

// The heartbeat comment, as each framing writes it (never written into: shared by every connection).
const HEARTBEAT: Readonly<Record<SseFraming, Uint8Array>> = {
  chunked: sseWire(encodeSseComment(''), 'chunked'),
  close: sseWire(encodeSseComment(''), 'close'),
}
// A session client's heartbeat: the session layer's `tp:heartbeat` event, which its client
// watches for (a comment reaches no page code), unnumbered and without an id.
const SESSION_HEARTBEAT: Readonly<Record<SseFraming, Uint8Array>> = {
  chunked: sseWire(encodeSseEvent({ data: HEARTBEAT_MESSAGE }), 'chunked'),
  close: sseWire(encodeSseEvent({ data: HEARTBEAT_MESSAGE }), 'close'),
}

export class SseShared<S> {
  readonly io: SocketIo<S>
  readonly timers: Timers
  readonly closeTimeoutMs: number
  // The node that last held a session this node forwarded a post for.
  private readonly nodes = new Map<string, string>()

  /** Where the engine reports what happens in it. */
  readonly instrumentation: Instrumentation
  // The route table's upgrade guards, applied to event streams; `undefined` without any.
  private readonly guard: EventStreamGuard | undefined
  constructor(private readonly deps: SseSharedDeps<S>) {
    this.instrumentation = deps.instrumentation ?? NO_INSTRUMENTATION
    this.guard = guardEventStreams(deps.compiled.guards, deps.onHttpError, deps.upgradeChecks)
    this.io = deps.io
    this.timers = deps.timers
    this.closeTimeoutMs = deps.limits.closeTimeoutMs
  }

  /**
   * The head of the `eventStream` answer to `request` (framed `framing`) is written on
   * `client`'s connection: the socket becomes an event-stream client.
   * `signal` is the request's, when its handler asked for one.
   */
  open(client: ClientContext<S>, request: HttpRequest, options: EventStreamOptions, framing: SseFraming, signal: AbortController | undefined): void {
    const { io, table, recovery } = this.deps
    if (io.isClosed(client.socket)) return io.destroy(client.socket)
    table.http.delete(client.id)
    // A resume of a session this node does not hold waits for the shared store (within its bound).
    const cursor = recovery.journal === undefined || recovery.deps.raw ? undefined : readSessionCursor(headerValue(request.headers, 'last-event-id'))
    if (cursor === undefined || recovery.sessions.has(cursor.sid)) return this.begin(client, request, options, framing, signal, undefined)
    void restoreSession(recovery, client, cursor.sid, cursor.lastSeq).then(
      (resync) => {
        if (io.isClosed(client.socket) || table.all.get(client.id) !== client) {
          signal?.abort(new Error('the client went away'))
          return
        }
        this.begin(client, request, options, framing, signal, resync)
      },
      (error: unknown) => {
        this.deps.logger.exception(error, { phase: 'event-stream resume' })
        io.destroy(client.socket)
      },
    )
  }

  // The socket becomes the event-stream client (`resync`: why a resume from the store failed).
  private begin(client: ClientContext<S>, request: HttpRequest, options: EventStreamOptions, framing: SseFraming, signal: AbortController | undefined, resync: ResyncReason | undefined): void {
    const { registry, recovery, handlers } = this.deps
    client.request = compactRequest(request)
    const connection = new SseConnection<S>(client, framing, this, signal)
    const attach = (): void => {
      client.receiver = connection
      if (options.retry !== undefined) connection.sendText(encodeSseRetry(options.retry))
      // A client that answers server requests (docs/protocol.md, "Server requests"), by post.
      if (!this.deps.compiled.raw && ClientRequests.announced(request.rawQuery)) this.deps.requests.opened(client.id)
    }
    const join = (): void => {
      const namespace = options.namespace ?? '/'
      registry.joinNamespace(client.id, namespace)
      for (const room of options.rooms ?? []) registry.joinRoom(client.id, room, namespace)
    }
    // A client that resumed its session is the same client: its connect handlers ran when it first came.
    if (!recovery.openEventStream(client, connection, request, { attach, join }, resync)) handlers.connected(connection.ctx)
  }

  /**
   * Whether an `eventStream` answer to `request` may open: its `Origin` is held to the list the
   * WebSocket upgrade is (403 otherwise, before the head), so a page of another site cannot
   * open a session of this server in its user's browser. Then the route table's upgrade guards
   * of its path decide it as they decide an upgrade to it (`guardEventStreams`): a refusal is
   * sent instead of the stream, an admission's data become client `clientId`'s.
   */
  admitStream(request: HttpRequest, answer: Response, clientId: number): Response | Promise<Response> {
    const origin = headerValue(request.headers, 'origin')
    if (origin !== undefined && !isAllowedOrigin(origin, this.deps.allowedOrigins)) return errorResponse(403, 'origin not allowed')
    const guard = this.guard
    if (guard === undefined) return answer
    // The guards' admissions become the client's data, as an admitted upgrade's do.
    const { table } = this.deps
    const handshake: Handshake = {
      setClientData: (key, value) => void table.setData(clientId, key, value),
      getClientData: (key) => table.data(clientId, key),
    }
    return guard(request, answer, { ...this.deps.httpContext, handshake })
  }

  /**
   * A post to session `sid` (`eventPost`): dispatched by the event-stream connection that holds
   * it, as a WebSocket connection dispatches a message. The answer to the post itself is 202;
   * 403 for an origin the upgrade would refuse, or a post the browser marks cross-site from an
   * origin not listed by name; 404 when no event stream of the cluster holds the session (a
   * WebSocket session is not reachable this way: a session is posted to only while a stream
   * holds it). A session another node's stream holds gets the post through the cluster adapter:
   * the node last found holding it is asked first, then every node.
   */
  post(body: EventPostBody): Response | Promise<Response> {
    const allowed = this.deps.allowedOrigins
    if (body.origin !== undefined && !isAllowedOrigin(body.origin, allowed)) return errorResponse(403, 'origin not allowed')
    if (body.crossSite && (body.origin === undefined || !isAllowedOrigin(body.origin, allowed.filter((a) => a !== '*')))) return errorResponse(403, 'cross-site post refused')
    if (this.deliver(body.sid, body.text)) return ACCEPTED
    const cluster = this.deps.cluster
    const known = this.nodes.get(body.sid)
    const ask = async (node: string | undefined): Promise<boolean> => {
      const { replies } = await cluster.request({ q: 'post', sid: body.sid, text: body.text }, node === undefined ? {} : { node })
      const holder = replies.find((r) => FoundAnswer.is(r.body) && r.body)?.node
      if (holder === undefined) {
        this.nodes.delete(body.sid)
        return false
      }
      if (this.nodes.size >= KNOWN_NODES) this.nodes.clear()
      this.nodes.set(body.sid, holder)
      return true
    }
    return (known === undefined ? ask(undefined) : ask(known).then((found) => found || ask(undefined))).then(
      (found) => (found ? ACCEPTED : errorResponse(404, 'no such event-stream session')),
      () => errorResponse(404, 'no such event-stream session'),
    )
  }

  /** Hands `text` to the event stream of this node that holds session `sid`; false when none does. */
  deliver(sid: string, text: string): boolean {
    const session = this.deps.recovery.sessions.get(sid)
    const connection = session === undefined ? undefined : this.deps.table.ws.get(session.clientId)
    if (!(connection instanceof SseConnection) || connection.session !== session) return false
    connection.receiveText(text)
    return true
  }

  /** The route table a posted text is dispatched with. */
  get compiled(): CompiledRoutes {
    return this.deps.compiled
  }

  /** The WebSocket middleware a posted envelope goes through. */
  get wsMiddleware(): readonly WsMiddleware[] {
    return this.deps.wsMiddleware
  }

  /** Reports a handler's failure. */
  get onError(): WsErrorReporter {
    return this.deps.onError
  }

  /** Settles the server's request `id` to client `clientId` with a posted `ack` or `error`: true when it was one. */
  answered(clientId: number, id: EventId | undefined, data: unknown, failed: boolean): boolean {
    return this.deps.requests.answered(clientId, id, data, failed)
  }

  /** An envelope to the connection that holds client `clientId`'s session now (numbered). */
  sendToSession(clientId: number, text: string): void {
    this.deps.delivery.sendToSession(clientId, text)
  }

  /** The heartbeat in `framing`: a comment, or for a session client the `tp:heartbeat` event. */
  heartbeatOf(framing: SseFraming, session: boolean): Uint8Array {
    return (session ? SESSION_HEARTBEAT : HEARTBEAT)[framing]
  }

  /** A text of the event stream to one connection, framed, under the slow-consumer rule. */
  sendText(connection: SseConnection<S>, text: string): void {
    this.deps.delivery.write(connection, sseWire(text, connection.eventStream))
  }

  /** Bytes already framed, under the slow-consumer rule. */
  admit(connection: SseConnection<S>, bytes: Uint8Array): void {
    this.deps.delivery.admit(connection, bytes)
  }

  debug(message: string, context: Readonly<Record<string, unknown>>): void {
    if (this.deps.debugOn) this.deps.logger.debug(message, context)
  }
}
