/**
 * Write batching: while one socket's input is being handled, its writes are corked, and
 * all corked sockets are uncorked together once the handlers' promises have settled (on
 * the next check phase). Ten pipelined requests or ten echoed frames leave in one write.
 */
import type { Socket } from 'node:net'

export interface FlushBatcher {
  /** Corks the socket until the batch is flushed (at most once per batch). */
  hold(socket: Socket): void
}

export const createFlushBatcher = (): FlushBatcher => {
  const held = new Set<Socket>()
  let scheduled = false

  const flush = (): void => {
    scheduled = false
    for (const socket of held) {
      if (!socket.destroyed) socket.uncork()
    }
    held.clear()
  }

  return {
    hold(socket) {
      if (held.has(socket)) return
      held.add(socket)
      socket.cork()
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
  }
}
