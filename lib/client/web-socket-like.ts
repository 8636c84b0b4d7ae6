/**
 * The part of the standard `WebSocket` the client uses, as a structural type, so the global
 * `WebSocket` of browsers, Node ≥ 22, Bun and Deno fits, and so does the `ws` package's (the
 * constructor option for Node 20). Types only.
 */

/** A WebSocket as the client drives it: the `on…` handler properties, `send` and `close`. */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number
  /** The client sets `'arraybuffer'`, so a binary message can be measured and refused. */
  binaryType: string
  // Handlers take `never` so that any implementation's event type fits; the client reads
  // only `data` (message), `code` and `reason` (close), and `message` (error, when present).
  onopen: ((event: never) => void) | null
  onmessage: ((event: never) => void) | null
  onerror: ((event: never) => void) | null
  onclose: ((event: never) => void) | null
  send(data: string): void
  close(code?: number, reason?: string): void
}

/** A `WebSocket` constructor: `globalThis.WebSocket`, or `WebSocket` from the `ws` package. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike

/**
 * A fallback transport for `connect`'s `fallback` option (`sseFallback()` of
 * `twinport/client/fallback`): given the WebSocket constructor, the constructor `connect` uses
 * instead, whose sockets choose the transport of each connection.
 */
export type Fallback = (WebSocket: WebSocketConstructor) => WebSocketConstructor
