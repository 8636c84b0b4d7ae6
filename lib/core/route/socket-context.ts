/**
 * What a WebSocket handler receives besides its data: the client id and the seed's
 * SocketController operations (seed §4.1). The server builds one record per client and
 * performs the effects; the core only passes it on. Types only; pure and portable.
 */
import type { HttpRequest } from '../http/types.js'
import type { TraceContext } from '../trace/trace-context.js'
import type { AdminView } from '../metrics/admin-snapshot.js'
import type { RateLimiter } from '../limit/rate-limiter.js'
import type { Presence, PresenceOptions } from '../presence/presence.js'
import type { ClientAnswer, ClientRequestOptions, RoomRequestOptions } from './client-answer.js'
import type { AnyClientData, ClientDataAccess } from './client-data.js'
import type { RawMessage } from './raw-message.js'

/** Where a broadcast goes: everyone, a namespace, or a room of a namespace, minus one client. */
export interface BroadcastTarget {
  /** Namespace of the receivers; all namespaces when absent (seed: `$namespace = null`). */
  readonly namespace?: string
  /** Room within the namespace (`'/'` when no namespace is given). */
  readonly room?: string
  /** A client id left out, typically the sender. */
  readonly except?: number
}

/**
 * How a server closes a client on purpose (a kick): a code 4000–4999, which the twinport
 * client does not retry, and a reason of at most 123 bytes of UTF-8. Without a code the close
 * is 1000 (normal). A bad code or reason is a `RangeError` thrown by the operation.
 */
export interface DisconnectOptions {
  readonly code?: number
  readonly reason?: string
}

/**
 * The per-client operations a WebSocket handler may call (seed §2.11 SocketController).
 * `Data` is the application's client data (`setClientData`/`getClientData`, see
 * {@link ClientDataAccess}); a handler states it by its context's type,
 * `(data, ctx: SocketContext<Session>) => …`, and the route builders take it from there.
 */
export interface SocketContext<Data extends object = AnyClientData> extends ClientDataAccess<Data> {
  /** The id of the client whose message or connection is being handled. */
  readonly clientId: number
  /** The upgrade request that opened this connection (path, query, headers such as Origin). */
  readonly request: HttpRequest
  /** Sends an event to this client. */
  emit(event: string, data?: unknown): void
  /** Sends an event to another client by id. */
  send(clientId: number, event: string, data?: unknown): void
  /** Sends an event to many clients; see {@link BroadcastTarget}. */
  broadcast(event: string, data?: unknown, target?: BroadcastTarget): void
  /** Sends a message without envelope to this client, or to `clientId` when given. */
  sendRaw(message: RawMessage, clientId?: number): void
  /** Sends a message without envelope to many clients. */
  broadcastRaw(message: RawMessage, target?: BroadcastTarget): void
  /** Puts this client in a room (namespace `'/'` by default). */
  joinRoom(room: string, namespace?: string): void
  /** Takes this client out of a room (namespace `'/'` by default). */
  leaveRoom(room: string, namespace?: string): void
  /**
   * Closes this client's connection, or another client's when an id is given; with a code
   * (4000–4999) and a reason, a kick the client does not retry (see {@link DisconnectOptions}).
   */
  disconnectClient(clientId?: number, options?: DisconnectOptions): void
  /**
   * Asks a client (this one, or any of this node by id) and settles to its answer or why there
   * is none (never rejects): the client answers with `client.handle(event, fn)`
   * (docs/protocol.md, "Server requests"). `A` is the answer's type, the application's promise.
   */
  requestClient<A = unknown>(clientId: number, event: string, data?: unknown, options?: ClientRequestOptions): Promise<ClientAnswer<A>>
  /** Asks every client of a room on this node; one answer (or reason) per client, in room order. */
  requestRoom<A = unknown>(room: string, event: string, data?: unknown, options?: RoomRequestOptions): Promise<readonly ClientAnswer<A>[]>
  /** The address of the client's peer as the socket saw it; `undefined` where the server has none. */
  readonly remoteAddress?: string | undefined
  /** The server's rate limiter (`rateLimit` events use it); absent outside a server: no limit. */
  readonly limiter?: RateLimiter
  /**
   * A topic's presence on the server (`server.presence(topic, options)`): the same object for
   * every client of the server. Absent outside a server (a context made by hand, a Worker hub).
   */
  readonly presence?: (topic: string, options?: PresenceOptions) => Presence
  /**
   * The span of the event being handled, as W3C Trace Context (its parent: the envelope's
   * `traceparent`), when the server traces (`instrumentation`): a handler's own spans take it
   * as their parent (`otelContext(ctx.trace)` from `twinport/otel`). Absent otherwise.
   */
  readonly trace?: TraceContext
  /** Read-only: the server's state for the admin page (`adminRoutes`); absent outside a server. */
  readonly admin?: AdminView
}
