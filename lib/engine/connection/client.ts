/**
 * One connection as the engine tracks it (seed §2.1: `$clients`, `$clientTypes`,
 * `$clientData`): its id, the runtime's socket, its type, what reads its bytes now (the
 * HTTP connection, then the WebSocket connection after an upgrade), and the application's
 * per-client data. An adapter keeps this record with its socket and hands it back with
 * every chunk, end and close. The engine's clients are `ClientContext`s (client-context.ts):
 * the same object is a WebSocket client's `SocketContext`.
 */

/** `sse`: a Server-Sent Events client (its request answered with `eventStream`). */
export type ClientType = 'http' | 'ws' | 'sse'

/** What the socket's bytes and end go to. */
export interface Receiver {
  receive(chunk: Uint8Array): void
  /** The peer ended its side of the connection. */
  peerEnded(): void
  /**
   * The socket took what was waiting to be sent (Node's `drain`, Bun's `drain`, Deno's last
   * write settled): a streamed response pulls its next piece. Adapters call it when present,
   * every time what `SocketIo.buffered` counted is all taken, also when that happens inside
   * `uncork` (the kernel took the corked bytes whole, so no `drain` will follow): a pump
   * waiting on a corked backlog is woken by nothing else.
   */
  writable?(): void
  /** Set by an event-stream connection (its framing). */
  readonly eventStream?: unknown
}

export interface Client<S> {
  /** Changes once at most: a client that recovers its session takes back its old id. */
  id: number
  readonly socket: S
  /** `ws` once its upgrade was accepted, `sse` once its event stream began. */
  readonly type: ClientType
  receiver: Receiver
  /** Created on the first `setClientData`: most clients never store anything. */
  data: Map<string, unknown> | undefined
}
