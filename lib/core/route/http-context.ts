/**
 * What an HTTP handler receives besides its Request: the server operations that reach
 * WebSocket clients, so a REST endpoint can broadcast to a room (the demo's
 * `POST /api/rooms/{room}/messages`). The server supplies it. Types only; pure and portable.
 */
import type { AdminView } from '../metrics/admin-snapshot.js'
import type { StaticFiles } from '../http/static/static-files.js'
import type { MetricsRegistry } from '../metrics/metrics-registry.js'
import type { ServerHealth } from '../metrics/server-health.js'
import type { RateLimiter } from '../limit/rate-limiter.js'
import type { Handshake } from './handshake.js'
import type { BroadcastTarget, DisconnectOptions } from './socket-context.js'

/** Server operations available to HTTP handlers. */
export interface HttpContext {
  /** Sends an event to one WebSocket client. */
  send(clientId: number, event: string, data?: unknown): void
  /** Sends an event to many WebSocket clients; see {@link BroadcastTarget}. */
  broadcast(event: string, data?: unknown, target?: BroadcastTarget): void
  /** The ids of every connected WebSocket client. */
  clients(): readonly number[]
  /** The ids of the clients in a room (namespace `'/'` by default). */
  roomMembers(room: string, namespace?: string): readonly number[]
  /** Closes a WebSocket client's connection; a code (4000–4999) and reason make it a kick. */
  disconnectClient(clientId: number, options?: DisconnectOptions): void
  /** Reads data stored for a client (one key, or all as a record). */
  getClientData(clientId: number, key?: string): unknown
  /** Stores data for a client. */
  setClientData(clientId: number, key: string, value: unknown): void
  /** The runtime's file reading (`serveStatic` uses it); absent where the server has none. */
  readonly files?: StaticFiles
  /** The server's clock, milliseconds since the epoch; absent outside a server. */
  readonly now?: () => number
  /** The server's metrics (`metricsRoute` renders them); absent when they are off or outside a server. */
  readonly metrics?: MetricsRegistry
  /** The server's state for `healthRoute`: draining, the cluster link; absent outside a server. */
  readonly health?: () => ServerHealth
  /**
   * Present while the request is a WebSocket upgrade the server is deciding on: the client
   * data the connection starts with (see {@link Handshake}); `undefined` on other requests.
   */
  readonly handshake?: Handshake
  /** The server's rate limiter (`rateLimit` routes use it); absent outside a server: no limit. */
  readonly limiter?: RateLimiter
  /** Read-only: the server's state for the admin page (`adminRoutes`); absent outside a server. */
  readonly admin?: AdminView
}
