/**
 * The part of the Cloudflare Workers runtime `twinport/workers` uses, typed here so the project
 * needs no Workers type package: `WebSocketPair`, a Durable Object's state with the WebSocket
 * Hibernation API (`acceptWebSocket`, `getWebSockets`, `serializeAttachment`), its storage,
 * and the namespace binding a Worker reaches its objects through
 * (https://developers.cloudflare.com/durable-objects/best-practices/websockets/).
 *
 * Types and one accessor; no node:* imports (nothing of Node exists on Workers).
 */

/** The server end of a `WebSocketPair`, as the runtime hands it to a Durable Object. */
export interface WorkerWebSocket {
  send(message: string | ArrayBuffer | Uint8Array): void
  close(code?: number, reason?: string): void
  /** Outside a Durable Object: start delivering events (not used with hibernation). */
  accept(): void
  /** Keeps a small structured-clonable value with the socket, across hibernation. */
  serializeAttachment(value: unknown): void
  deserializeAttachment(): unknown
  readonly readyState: number
}

/** `new WebSocketPair()`: two ends, `0` for the client (returned in the 101), `1` for the server. */
export interface WebSocketPairLike {
  readonly 0: WorkerWebSocket
  readonly 1: WorkerWebSocket
}

/** A Durable Object's transactional storage (only `get` and `put` are used). */
export interface DurableStorage {
  get<T>(key: string): Promise<T | undefined>
  put<T>(key: string, value: T): Promise<void>
}

/** The `state` a Durable Object is constructed with: the Hibernation API and its storage. */
export interface DurableObjectStateLike {
  readonly storage: DurableStorage
  /** Takes the socket over: its events go to the object's handlers, and the object may hibernate. */
  acceptWebSocket(socket: WorkerWebSocket, tags?: readonly string[]): void
  /** The sockets this object accepted and that are still open (all, or those with `tag`). */
  getWebSockets(tag?: string): WorkerWebSocket[]
}

/** An object of a namespace, reached by `fetch`. */
export interface DurableObjectStub {
  fetch(request: Request): Promise<Response>
}

/** The binding of a Durable Object namespace in a Worker's `env`. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown
  get(id: unknown): DurableObjectStub
}

/** The `ResponseInit` of Workers, which may carry the client end of a WebSocket pair with a 101. */
export interface WorkerResponseInit extends ResponseInit {
  readonly webSocket?: WorkerWebSocket
}

/** The runtime's `WebSocketPair` constructor, or `undefined` outside Workers (Node running a doc example). */
export const webSocketPair = (): (new () => WebSocketPairLike) | undefined =>
  (globalThis as { WebSocketPair?: new () => WebSocketPairLike }).WebSocketPair

/** `new Response(null, { status: 101, webSocket })`: what the Workers runtime takes as an accepted upgrade. */
export const upgradeResponse = (socket: WorkerWebSocket, headers: Headers): Response =>
  new Response(null, { status: 101, webSocket: socket, headers } as WorkerResponseInit)
