/**
 * One connection as the engine tracks it (the `Client` record an adapter keeps with its
 * socket) and, once its upgrade is accepted, the `SocketContext` its WebSocket handlers
 * receive (the seed's SocketController operations) and the WebSocket connection itself: one
 * object per connection, not three. The class extends `WsConnection`, so an upgraded client is
 * its own receiver (`client.receiver = client`) and an idle WebSocket costs one object of
 * thirteen fields (six here, seven of the connection's) instead of a client and a connection
 * (issue 32); an HTTP or event-stream client carries the connection's fields unused. The
 * operations are getters on the prototype that hand out functions bound to the client, so
 * handlers may destructure them (`(data, { emit, joinRoom }) => ...`) without every client
 * carrying a dozen closures, and the server's operations (`ClientOps`) and its `WsShared` live
 * on a prototype made once per server (`clientContexts`).
 * Must not import `node:*`, Buffer or process.
 */
import type { HttpRequest } from '../../core/http/types.js'
import type { ClientAnswer, ClientRequestOptions, RoomRequestOptions } from '../../core/route/client-answer.js'
import type { RawMessage } from '../../core/route/raw-message.js'
import type { AdminView } from '../../core/metrics/admin-snapshot.js'
import type { RateLimiter } from '../../core/limit/rate-limiter.js'
import type { BroadcastTarget, DisconnectOptions, SocketContext } from '../../core/route/socket-context.js'
import type { Client, ClientType, Receiver } from './client.js'
import { WsConnection } from './ws-connection.js'
import type { WsShared } from './ws-shared.js'

/** The server operations a context forwards to; one record per server. */
export interface ClientOps {
  send(clientId: number, event: string, data: unknown): boolean
  broadcast(event: string, data: unknown, target: BroadcastTarget | undefined): number
  sendRaw(clientId: number, message: RawMessage): boolean
  broadcastRaw(message: RawMessage, target: BroadcastTarget | undefined): number
  joinRoom(clientId: number, room: string, namespace?: string): void
  leaveRoom(clientId: number, room: string, namespace?: string): void
  disconnectClient(clientId: number, options?: DisconnectOptions): void
  setClientData(clientId: number, key: string, value: unknown): void
  getClientData(clientId: number, key?: string): unknown
  requestClient<A>(clientId: number, event: string, data: unknown, options: ClientRequestOptions | undefined): Promise<ClientAnswer<A>>
  requestRoom<A>(room: string, event: string, data: unknown, options: RoomRequestOptions | undefined): Promise<readonly ClientAnswer<A>[]>
}

export abstract class ClientContext<S> extends WsConnection<S> implements Client<S>, SocketContext {
  /** Created on the first `setClientData`: most clients never store anything. */
  data: Map<string, unknown> | undefined = undefined
  /**
   * The upgrade request, kept (`compactRequest`) from the moment the upgrade is accepted;
   * `undefined` while the connection is HTTP, when no handler can see this context.
   */
  request: HttpRequest = undefined as unknown as HttpRequest
  /** The peer's address as the socket saw it (read once, at accept); `undefined`: unknown. */
  remoteAddress: string | undefined = undefined

  constructor(
    /** Changes once at most: a client that recovers its session takes back its old id. */
    public id: number,
    readonly socket: S,
    /** What the socket's bytes go to: the HTTP connection, then the WebSocket connection. */
    public receiver: Receiver,
  ) {
    super()
  }

  /** The client is its own WebSocket connection's context. */
  get ctx(): this {
    return this
  }

  /** The server's operations, from the prototype of the server's class. */
  protected abstract get ops(): ClientOps

  /** The server's rate limiter, from the prototype of the server's class. */
  abstract get limiter(): RateLimiter | undefined

  /** The server's presence topics, from the prototype of the server's class. */
  abstract get presence(): SocketContext['presence']
  /** What the admin page reads of the server, from the prototype of the server's class. */
  abstract get admin(): AdminView | undefined

  /** `ws` from the accepted upgrade on; `sse` from the event stream's head on. */
  get type(): ClientType {
    if ((this.request as HttpRequest | undefined) === undefined) return 'http'
    return this.receiver.eventStream === undefined ? 'ws' : 'sse'
  }

  get clientId(): number {
    return this.id
  }

  // What `JSON.stringify(ctx)` shows: the socket and the receiver are the server's.
  toJSON(): { readonly clientId: number; readonly request: HttpRequest } {
    return { clientId: this.id, request: this.request }
  }

  get emit(): SocketContext['emit'] {
    return (event, data) => void this.ops.send(this.id, event, data)
  }
  get send(): SocketContext['send'] {
    return (clientId, event, data) => void this.ops.send(clientId, event, data)
  }
  get broadcast(): SocketContext['broadcast'] {
    return (event, data, target) => void this.ops.broadcast(event, data, target)
  }
  get sendRaw(): SocketContext['sendRaw'] {
    return (message, clientId = this.id) => void this.ops.sendRaw(clientId, message)
  }
  get broadcastRaw(): SocketContext['broadcastRaw'] {
    return (message, target) => void this.ops.broadcastRaw(message, target)
  }
  get joinRoom(): SocketContext['joinRoom'] {
    return (room, namespace) => this.ops.joinRoom(this.id, room, namespace)
  }
  get leaveRoom(): SocketContext['leaveRoom'] {
    return (room, namespace) => this.ops.leaveRoom(this.id, room, namespace)
  }
  get disconnectClient(): SocketContext['disconnectClient'] {
    return (clientId = this.id, options) => this.ops.disconnectClient(clientId, options)
  }
  get requestClient(): SocketContext['requestClient'] {
    return (clientId, event, data, options) => this.ops.requestClient(clientId, event, data, options)
  }
  get requestRoom(): SocketContext['requestRoom'] {
    return (room, event, data, options) => this.ops.requestRoom(room, event, data, options)
  }
  get setClientData(): SocketContext['setClientData'] {
    return (key, value) => this.ops.setClientData(this.id, key, value)
  }
  get getClientData(): SocketContext['getClientData'] {
    return (key?: string) => this.ops.getClientData(this.id, key)
  }
}

/** How a server makes its clients: `new Clients(id, socket, receiver)`. */
export type ClientContexts<S> = new (id: number, socket: S, receiver: Receiver) => ClientContext<S>

/**
 * The class of one server's clients: `ClientContext` with `ops` on its prototype, so that no
 * client carries a field for what every client of the server shares.
 *
 * @example
 * const Clients = clientContexts<Socket>(ops, wsShared)
 * const client = new Clients(1, socket, httpSession) // client.type === 'http'
 * client.request = compactRequest(upgrade)           // client.type === 'ws'; handlers get `client`
 * client.receiver = client                           // its bytes go to its WebSocket connection
 */
export const clientContexts = <S>(ops: ClientOps, wsShared: WsShared<S>, limiter?: RateLimiter, presence?: SocketContext['presence'], admin?: AdminView): ClientContexts<S> =>
  class extends ClientContext<S> {
    protected get ops(): ClientOps {
      return ops
    }
    protected get shared(): WsShared<S> {
      return wsShared
    }
    get limiter(): RateLimiter | undefined {
      return limiter
    }
    get presence(): SocketContext['presence'] {
      return presence
    }
    get admin(): AdminView | undefined {
      return admin
    }
  }
