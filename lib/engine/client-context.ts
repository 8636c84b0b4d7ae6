/**
 * The `SocketContext` a WebSocket client's handlers receive (the seed's SocketController
 * operations). One instance per client holds three fields; the operations are getters on
 * the prototype that hand out functions bound to the client, so handlers may destructure
 * them (`(data, { emit, joinRoom }) => ...`) without every client carrying a dozen closures.
 */
import type { HttpRequest } from '../core/http/types.js'
import type { RawMessage } from '../core/route/raw-message.js'
import type { BroadcastTarget, SocketContext } from '../core/route/socket-context.js'

/** The server operations a context forwards to; one record per server. */
export interface ClientOps {
  send(clientId: number, event: string, data: unknown): boolean
  broadcast(event: string, data: unknown, target: BroadcastTarget | undefined): number
  sendRaw(clientId: number, message: RawMessage): boolean
  broadcastRaw(message: RawMessage, target: BroadcastTarget | undefined): number
  joinRoom(clientId: number, room: string, namespace?: string): void
  leaveRoom(clientId: number, room: string, namespace?: string): void
  disconnectClient(clientId: number): void
  setClientData(clientId: number, key: string, value: unknown): void
  getClientData(clientId: number, key?: string): unknown
}

export class ClientContext implements SocketContext {
  constructor(
    readonly clientId: number,
    readonly request: HttpRequest,
    private readonly ops: ClientOps,
  ) {}

  get emit(): SocketContext['emit'] {
    return (event, data) => void this.ops.send(this.clientId, event, data)
  }
  get send(): SocketContext['send'] {
    return (clientId, event, data) => void this.ops.send(clientId, event, data)
  }
  get broadcast(): SocketContext['broadcast'] {
    return (event, data, target) => void this.ops.broadcast(event, data, target)
  }
  get sendRaw(): SocketContext['sendRaw'] {
    return (message, clientId = this.clientId) => void this.ops.sendRaw(clientId, message)
  }
  get broadcastRaw(): SocketContext['broadcastRaw'] {
    return (message, target) => void this.ops.broadcastRaw(message, target)
  }
  get joinRoom(): SocketContext['joinRoom'] {
    return (room, namespace) => this.ops.joinRoom(this.clientId, room, namespace)
  }
  get leaveRoom(): SocketContext['leaveRoom'] {
    return (room, namespace) => this.ops.leaveRoom(this.clientId, room, namespace)
  }
  get disconnectClient(): SocketContext['disconnectClient'] {
    return (clientId = this.clientId) => this.ops.disconnectClient(clientId)
  }
  get setClientData(): SocketContext['setClientData'] {
    return (key, value) => this.ops.setClientData(this.clientId, key, value)
  }
  get getClientData(): SocketContext['getClientData'] {
    return (key) => this.ops.getClientData(this.clientId, key)
  }
}
