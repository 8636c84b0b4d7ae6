/**
 * Delivery of frames to WebSocket clients: one client, or the receivers of a broadcast
 * (everyone, a namespace, or a room), each frame encoded once by the caller and the same
 * bytes written to every receiver.
 *
 * The slow-consumer rule (DESIGN §5, docs/decisions.md "Slow consumers"): a client is slow
 * when the bytes waiting for it, not counting the largest frame queued since its backlog
 * was last empty, are past `maxSendBuffer`. So a client that reads at a normal pace while
 * a message near the message limit drains is never dropped because a ping, a pong or
 * another event joined the queue behind it, and memory per client stays bounded by
 * `maxSendBuffer` plus two of the largest frames. A slow client is told why (close 1008, queued behind its
 * backlog), gets nothing more, and is dropped when it has not read up by the close time-out.
 */
import type { BroadcastTarget } from '../core/route/socket-context.js'
import type { NamespaceRegistry } from './namespace-registry.js'
import type { SocketIo } from './platform.js'

/** What delivery needs of a WebSocket session. */
export interface Outlet<S> {
  readonly socket: S
  /** The largest frame queued since the backlog was last empty (exempt from the limit). */
  inFlight: number
  /** Stops the session after a slow-consumer verdict: close frame, end, destroy later. */
  dropSlow(): void
}

export interface DeliveryDeps<S> {
  readonly io: SocketIo<S>
  readonly maxSendBuffer: number
  readonly registry: NamespaceRegistry
  /** The connected WebSocket clients by id. */
  readonly sessions: ReadonlyMap<number, Outlet<S>>
  /** Told before a slow consumer is dropped. */
  readonly onSlowConsumer: (outlet: Outlet<S>, waitingBytes: number) => void
  /**
   * Holds a receiver's writes until the end of the I/O turn (the flush batcher), so the
   * broadcasts of one turn reach each receiver in one write; absent: written at once.
   */
  readonly hold?: (socket: S) => void
}

export interface Delivery<S> {
  /** Writes to one session, unless it is gone or too slow. */
  write(outlet: Outlet<S>, bytes: Uint8Array): void
  /** Writes to one client; false when there is no such WebSocket client. */
  send(clientId: number, bytes: Uint8Array): boolean
  /** Writes to every receiver of `target`; answers how many there were. */
  broadcast(bytes: Uint8Array, target: BroadcastTarget | undefined): number
}

export const createDelivery = <S>({ io, maxSendBuffer, registry, sessions, onSlowConsumer, hold }: DeliveryDeps<S>): Delivery<S> => {
  const write = (outlet: Outlet<S>, bytes: Uint8Array): void => {
    const socket = outlet.socket
    if (io.isClosed(socket) || io.isEnded(socket)) return
    const waiting = io.buffered(socket)
    if (waiting === 0) outlet.inFlight = bytes.length
    else if (waiting - outlet.inFlight > maxSendBuffer) {
      onSlowConsumer(outlet, waiting)
      outlet.dropSlow()
      return
    } else if (bytes.length > outlet.inFlight) outlet.inFlight = bytes.length
    io.write(socket, bytes)
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
      write(session, bytes)
      return true
    },
    broadcast(bytes, target) {
      let count = 0
      for (const id of receivers(target)) {
        if (id === target?.except) continue
        const session = sessions.get(id)
        if (session === undefined) continue
        hold?.(session.socket)
        write(session, bytes)
        count += 1
      }
      return count
    },
  }
}
