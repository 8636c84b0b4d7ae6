/**
 * Delivery of frames to WebSocket clients: one client, or the receivers of a broadcast
 * (everyone, a namespace, or a room), each frame encoded once by the caller and the same
 * bytes written to every receiver. A client whose unsent bytes are past the send-buffer
 * limit is too slow: it is dropped so that memory stays bounded and everyone else keeps
 * receiving (DESIGN §5).
 */
import type { Socket } from 'node:net'
import type { BroadcastTarget } from '../core/route/socket-context.js'
import type { NamespaceRegistry } from './namespace-registry.js'

export interface DeliveryDeps {
  readonly maxSendBuffer: number
  readonly registry: NamespaceRegistry
  /** The connected WebSocket clients by id. */
  readonly sessions: ReadonlyMap<number, { readonly socket: Socket }>
  /** Told before a slow consumer's socket is destroyed. */
  readonly onSlowConsumer: (socket: Socket, waitingBytes: number) => void
}

export interface Delivery {
  /** Writes to one socket, unless it is gone or too slow. */
  write(socket: Socket, bytes: Uint8Array): void
  /** Writes to one client; false when there is no such WebSocket client. */
  send(clientId: number, bytes: Uint8Array): boolean
  /** Writes to every receiver of `target`; answers how many there were. */
  broadcast(bytes: Uint8Array, target: BroadcastTarget | undefined): number
}

export const createDelivery = ({ maxSendBuffer, registry, sessions, onSlowConsumer }: DeliveryDeps): Delivery => {
  const write = (socket: Socket, bytes: Uint8Array): void => {
    if (socket.destroyed || socket.writableEnded) return
    if (socket.writableLength > maxSendBuffer) {
      onSlowConsumer(socket, socket.writableLength)
      socket.destroy()
      return
    }
    socket.write(bytes)
  }

  const receivers = (target: BroadcastTarget | undefined): Iterable<number> => {
    if (target?.room !== undefined) return registry.roomMembers(target.room, target.namespace) ?? []
    if (target?.namespace !== undefined) return registry.namespaceMembers(target.namespace) ?? []
    return sessions.keys()
  }

  return {
    write,
    send(clientId, bytes) {
      const session = sessions.get(clientId)
      if (session === undefined) return false
      write(session.socket, bytes)
      return true
    },
    broadcast(bytes, target) {
      let count = 0
      for (const id of receivers(target)) {
        if (id === target?.except) continue
        const session = sessions.get(id)
        if (session === undefined) continue
        write(session.socket, bytes)
        count += 1
      }
      return count
    },
  }
}
