/**
 * What `runServer` resolves to: the seed's Server operations (§4.1) on a running server.
 * Types only.
 */
import type { Logger } from '../core/log/logger.js'
import type { ClientAnswer, ClientRequestOptions, RoomRequestOptions } from '../core/route/client-answer.js'
import type { RawMessage } from '../core/route/raw-message.js'
import type { BroadcastTarget, DisconnectOptions } from '../core/route/socket-context.js'
import type { ClientType } from './connection/client.js'
import type { ClusterHandle } from './cluster/cluster-handle.js'
import type { NamespaceRegistry } from './registry/namespace-registry.js'
import type { TlsOptions } from './options/tls-options.js'
import type { Presence, PresenceOptions } from '../core/presence/presence.js'

/** What `runServer` resolves to: the seed's Server operations (§4.1) on a running server. */
export interface ServerHandle {
  /**
   * Where the server listens (the port is the real one when `0` was asked). On a Unix
   * socket, `path` is set and `port` is 0.
   */
  readonly address: { readonly host: string; readonly port: number; readonly path?: string }
  readonly logger: Logger
  /** Namespaces and rooms (seed NamespaceManager). */
  readonly namespaces: NamespaceRegistry
  /**
   * The cluster-wide operations: clients and counts of a room on every node, a client of
   * another node, server-to-server events. With the default in-process adapter, this node only.
   */
  readonly cluster: ClusterHandle
  /** Sends an event to one WebSocket client; false when there is no such client. */
  send(clientId: number, event: string, data?: unknown): boolean
  /**
   * Sends an event to every WebSocket client, a namespace, or a room, on every node of the
   * cluster; answers how many clients of this node got it.
   */
  broadcast(event: string, data?: unknown, target?: BroadcastTarget): number
  /** Sends a message without envelope to one client. */
  sendRaw(clientId: number, message: RawMessage): boolean
  /** Sends a message without envelope to many clients (every node); answers how many of this node got it. */
  broadcastRaw(message: RawMessage, target?: BroadcastTarget): number
  joinRoom(clientId: number, room: string, namespace?: string): void
  leaveRoom(clientId: number, room: string, namespace?: string): void
  /** Moves a WebSocket client to another namespace (every client starts in `/`). */
  joinNamespace(clientId: number, namespace: string): void
  /**
   * Closes a client: a WebSocket with close code 1000, or with `code` (4000–4999, the "stay
   * away" codes the twinport client does not retry) and `reason` (at most 123 bytes of UTF-8;
   * a bad code or reason throws a `RangeError`); an HTTP connection at once. A client away
   * (its session parked) ends for good. For a client of another node: `cluster.disconnectClient`.
   */
  disconnectClient(clientId: number, options?: DisconnectOptions): void
  setClientData(clientId: number, key: string, value: unknown): void
  getClientData(clientId: number, key?: string): unknown
  /**
   * Asks a WebSocket client of this node and settles to its answer, or why there is none
   * (`timeout`, `disconnected`, `not_supported`, …): never rejects. The client answers with
   * `client.handle(event, fn)`. For a client of another node: `cluster.request`.
   */
  requestClient<A = unknown>(clientId: number, event: string, data?: unknown, options?: ClientRequestOptions): Promise<ClientAnswer<A>>
  /** Asks every client of a room on this node: one answer (or reason) per client, in room order. */
  requestRoom<A = unknown>(room: string, event: string, data?: unknown, options?: RoomRequestOptions): Promise<readonly ClientAnswer<A>[]>
  /**
   * A topic's presence: connections tracked under keys with metadata, their joins and leaves
   * in order, the same on every node of the cluster (docs/guide.md "Presence"). The first call
   * for a topic opens it and takes `options`; later calls answer the same object.
   */
  presence(topic: string, options?: PresenceOptions): Presence
  /** Every open connection with its type (seed `$clientTypes`). */
  clients(): readonly { readonly id: number; readonly type: ClientType }[]
  /** Logs at debug level, only in debug mode (seed `Server::log`). */
  log(message: string): void
  /**
   * Serves another key and certificate to new connections (a renewed certificate, without a
   * restart); open connections keep theirs. Rejects, changing nothing, when `tls` is not a
   * usable key and certificate, when the server was started without `tls`, or on a runtime
   * that cannot (Bun, Deno: see docs/decisions.md).
   */
  setSecureContext(tls: TlsOptions): Promise<void>
  /** Graceful shutdown: stop accepting, close WebSockets with 1001, finish HTTP responses. */
  close(): Promise<void>
}

