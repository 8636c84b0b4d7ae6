/**
 * One connection as the shell tracks it (seed §2.1: `$clients`, `$clientTypes`,
 * `$clientData`): its id, socket, type, and the application's per-client data.
 */
import type { Socket } from 'node:net'

export type ClientType = 'http' | 'ws'

export interface Client {
  readonly id: number
  readonly socket: Socket
  type: ClientType
  readonly data: Map<string, unknown>
}
