/**
 * `ServerOps`: what a handler can do to the server's clients (the seed's SocketController
 * operations), one object per server: send and broadcast (events and raw messages), rooms,
 * disconnect, per-client data. A WebSocket handler's context (client-context.ts), the HTTP
 * context, the cluster's requests and the `ServerHandle` all end here; each method is the
 * one definition of its operation. Must not import `node:*`, Buffer or process.
 */
import type { ClientAnswer, ClientRequestOptions, RoomRequestOptions } from '../core/route/client-answer.js'
import type { RawMessage } from '../core/route/raw-message.js'
import type { BroadcastTarget, DisconnectOptions } from '../core/route/socket-context.js'
import type { AppClose } from '../core/ws/app-close.js'
import { checkedClose } from './checked-close.js'
import { CLOSE_CODE } from '../core/ws/close-code.js'
import { encodeEvent } from '../core/ws/envelope.js'
import type { Broadcaster } from './delivery/broadcaster.js'
import type { ClientOps } from './connection/client-context.js'
import type { ClientRequests } from './delivery/client-requests.js'
import type { ClientTable } from './registry/client-table.js'
import type { Delivery } from './delivery/delivery.js'
import type { NamespaceRegistry } from './registry/namespace-registry.js'
import { encodeRawFrame } from './delivery/outgoing.js'
import type { FrameWriter, SocketIo } from './platform.js'
import type { SessionRecovery } from './recovery/session-recovery.js'
import { type Instrumentation, NO_INSTRUMENTATION } from './instrumentation/instrumentation.js'

export class ServerOps<S> implements ClientOps {
  constructor(
    private readonly table: ClientTable<S>,
    private readonly registry: NamespaceRegistry,
    private readonly delivery: Delivery<S>,
    private readonly broadcaster: Broadcaster<S>,
    private readonly recovery: SessionRecovery<S>,
    private readonly io: SocketIo<S>,
    private readonly frames: FrameWriter,
    /** The server→client requests waiting for their answers. */
    readonly requests: ClientRequests<S>,
    /** Where the engine reports what happens in it (`Instrumentation`); the no-op by default. */
    readonly instrumentation: Instrumentation = NO_INSTRUMENTATION,
  ) {}

  /** An event to one WebSocket client of this node; false when there is none. */
  send(clientId: number, event: string, data: unknown): boolean {
    const text = encodeEvent({ event, data })
    this.instrumentation.eventSent(event)
    return this.delivery.send(clientId, this.frames.text(text), text)
  }

  /**
   * An event to this node's members of a room (namespace `/`), encoded once: the same frame
   * written to each (presence's diffs, which every node sends to its own members itself, so
   * nothing crosses the cluster). Answers how many got it.
   */
  sendToLocalRoom(room: string, event: string, data: unknown): number {
    const members = this.registry.roomMembers(room)
    if (members === undefined || members.size === 0) return 0
    const text = encodeEvent({ event, data })
    const frame = this.frames.text(text)
    let count = 0
    for (const clientId of members) {
      this.instrumentation.eventSent(event)
      if (this.delivery.send(clientId, frame, text)) count += 1
    }
    return count
  }

  /** An event to every receiver of `target` on every node; answers this node's count. */
  broadcast(event: string, data: unknown, target: BroadcastTarget | undefined): number {
    const text = encodeEvent({ event, data })
    this.instrumentation.eventSent(event)
    return this.broadcaster.publish(this.frames.text(text), target, text)
  }

  /** A message without envelope to one WebSocket client of this node. */
  sendRaw(clientId: number, message: RawMessage): boolean {
    return this.delivery.send(clientId, encodeRawFrame(this.frames, message))
  }

  /** A message without envelope to every receiver of `target` on every node. */
  broadcastRaw(message: RawMessage, target: BroadcastTarget | undefined): number {
    return this.broadcaster.publish(encodeRawFrame(this.frames, message), target, undefined)
  }

  /** Only a connected WebSocket client can be in a room: a stale id would never be cleaned up. */
  joinRoom(clientId: number, room: string, namespace?: string): void {
    if (!this.table.ws.has(clientId)) return
    this.registry.joinRoom(clientId, room, namespace)
    this.recovery.changed(clientId, { namespace: namespace ?? '/', room })
  }

  leaveRoom(clientId: number, room: string, namespace?: string): void {
    this.registry.leaveRoom(clientId, room, namespace)
    this.recovery.changed(clientId, undefined, { namespace: namespace ?? '/', room })
  }

  /** Moves a WebSocket client to another namespace (its rooms there start empty). */
  joinNamespace(clientId: number, namespace: string): void {
    if (this.table.ws.has(clientId)) this.registry.joinNamespace(clientId, namespace)
  }

  /**
   * A client away ends its session; a WebSocket client is closed (1000, or the kick's code and
   * reason); an HTTP one is cut. Throws a `RangeError` for a bad code or reason.
   */
  disconnectClient(clientId: number, options?: DisconnectOptions): void {
    this.closeClient(clientId, checkedClose(options))
  }

  /** `disconnectClient` with the close already checked: false when this node has no such client. */
  closeClient(clientId: number, close: AppClose | undefined): boolean {
    const away = this.recovery.parked.get(clientId)
    if (away !== undefined) return this.recovery.expire(away), true
    const connection = this.table.ws.get(clientId)
    if (connection !== undefined) return connection.close(close?.code ?? CLOSE_CODE.NORMAL, close?.reason ?? ''), true
    const client = this.table.all.get(clientId)
    if (client === undefined) return false
    this.io.destroy(client.socket)
    return true
  }

  /** Asks a WebSocket client of this node; settles to its answer or why there is none. */
  requestClient<A>(clientId: number, event: string, data: unknown, options: ClientRequestOptions | undefined): Promise<ClientAnswer<A>> {
    return this.requests.ask<A>(clientId, event, data, options?.timeoutMs)
  }

  /** Asks every client of a room of this node: one answer (or reason) each, in room order. */
  requestRoom<A>(room: string, event: string, data: unknown, options: RoomRequestOptions | undefined): Promise<readonly ClientAnswer<A>[]> {
    return Promise.all(this.registry.clientsInRoom(room, options?.namespace).map((clientId) => this.requestClient<A>(clientId, event, data, options)))
  }

  setClientData(clientId: number, key: string, value: unknown): void {
    if (this.table.setData(clientId, key, value)) this.recovery.changed(clientId)
  }

  getClientData(clientId: number, key?: string): unknown {
    return this.table.data(clientId, key)
  }
}
