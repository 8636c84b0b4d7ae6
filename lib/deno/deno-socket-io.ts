/**
 * What the Deno adapter keeps with each connection (`Socket`), and the engine's socket
 * operations on it (`createDenoIo`). A Deno connection is written with promises: one write in
 * flight at a time, continued from its promise; what is written meanwhile waits in a backlog
 * and leaves joined in the next write, in order, and a short write puts its rest back at the
 * front. The backlog plus what a cork holds is `buffered`, what the engine's slow-consumer
 * rule measures. `closeWrite()` sends the FIN once the backlog is out.
 *
 * Imports the core, the engine's types, the shared runtime layer and this folder, never
 * another adapter.
 */
import { joinBytes } from '../core/join-bytes.js'
import type { Client } from '../engine/connection/client.js'
import type { SocketIo } from '../engine/platform.js'
import { corkedBytes } from '../runtime/corked-writes.js'
import type { DenoConn } from './deno-api.js'

/** One connection as the adapter keeps it (the engine's socket). */
export interface Socket {
  readonly conn: DenoConn
  client: Client<Socket> | undefined
  backlog: Uint8Array[]
  backlogBytes: number
  corked: Uint8Array[] | undefined
  writing: boolean
  ended: boolean // our side: no more writes; FIN once the backlog is out
  peerEnded: boolean
  closed: boolean
  /** Set while reading is paused: the read loop waits for it to be called. */
  paused: (() => void) | null | undefined
}

/**
 * The engine's operations on Deno connections; `onGone(socket)` is called once when one is
 * closed (by either side).
 *
 * @example
 * const io = createDenoIo((socket) => engine.closed(socket.client))
 * io.cork(socket)
 * io.write(socket, frame)
 * io.uncork(socket) // one conn.write; what is written while it is out leaves joined in the next
 */
export const createDenoIo = (onGone: (socket: Socket) => void): SocketIo<Socket> => {
  const gone = (socket: Socket): void => {
    if (socket.closed) return
    socket.closed = true
    socket.backlog = []
    socket.backlogBytes = 0
    try {
      socket.conn.close()
    } catch {
      // Already closed by the peer: nothing left to release.
    }
    onGone(socket)
  }

  // Once both sides have ended, the connection is over.
  const afterEnd = async (socket: Socket): Promise<void> => {
    try {
      await socket.conn.closeWrite()
    } catch {
      return gone(socket)
    }
    if (socket.peerEnded) gone(socket)
  }

  // One write in flight per connection, continued from its promise: everything queued while it
  // was out leaves joined in the next write, in order. No async function per write.
  const write = (socket: Socket, chunk: Uint8Array): void => {
    socket.writing = true
    socket.conn.write(chunk).then((written) => {
      if (socket.closed) return
      socket.backlogBytes -= written
      if (written < chunk.length) socket.backlog.unshift(chunk.subarray(written))
      if (socket.backlog.length > 0) return writeBacklog(socket)
      socket.writing = false
      if (socket.ended) return void afterEnd(socket)
      // Everything waiting was taken: a streamed response may send its next piece.
      socket.client?.receiver.writable?.()
    }, () => gone(socket))
  }

  const writeBacklog = (socket: Socket): void => {
    const chunk = joinBytes(socket.backlog, socket.backlogBytes)
    socket.backlog = []
    write(socket, chunk)
  }

  const enqueue = (socket: Socket, bytes: Uint8Array): void => {
    if (bytes.length === 0) return
    socket.backlogBytes += bytes.length
    if (socket.writing) socket.backlog.push(bytes)
    else write(socket, bytes)
  }

  const io: SocketIo<Socket> = {
    write(socket, bytes) {
      if (socket.closed || socket.ended) return
      if (socket.corked !== undefined) socket.corked.push(bytes)
      else enqueue(socket, bytes)
    },
    buffered: (socket) => socket.backlogBytes + corkedBytes(socket.corked),
    isClosed: (socket) => socket.closed,
    isEnded: (socket) => socket.ended,
    end(socket, bytes) {
      if (socket.closed || socket.ended) return
      if (bytes !== undefined) io.write(socket, bytes)
      io.uncork(socket)
      socket.ended = true
      if (!socket.writing) void afterEnd(socket)
    },
    destroy: gone,
    cork(socket) {
      socket.corked ??= []
    },
    // `paused` is null while paused before the loop waits, the loop's wake-up once it does.
    pause(socket) {
      socket.paused ??= null
    },
    resume(socket) {
      const wake = socket.paused
      socket.paused = undefined
      wake?.()
    },
    remoteAddress: (socket) => socket.conn.remoteAddr?.hostname,
    uncork(socket) {
      const parts = socket.corked
      if (parts === undefined) return
      socket.corked = undefined
      const total = corkedBytes(parts)
      if (total > 0 && !socket.closed) enqueue(socket, joinBytes(parts, total))
    },
  }
  return io
}
