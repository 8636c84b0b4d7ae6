/**
 * One connection as the shell tracks it (seed §2.1: `$clients`, `$clientTypes`,
 * `$clientData`): its id, socket, type, what reads its bytes now (the HTTP session, then
 * the WebSocket session after an upgrade), and the application's per-client data.
 */
import type { Socket } from 'node:net'

export type ClientType = 'http' | 'ws'

/** What the socket's bytes and end go to. */
export interface Receiver {
  receive(chunk: Uint8Array): void
  /** The peer ended its side of the connection. */
  peerEnded(): void
}

export interface Client {
  readonly id: number
  readonly socket: Socket
  type: ClientType
  receiver: Receiver
  /** Created on the first `setClientData`: most clients never store anything. */
  data: Map<string, unknown> | undefined
}
