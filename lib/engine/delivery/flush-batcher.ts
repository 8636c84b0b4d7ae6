/**
 * Write batching: while one socket's input is being handled, its writes are corked, and
 * all corked sockets are uncorked together once the handlers' promises have settled (after
 * the current batch of I/O callbacks). Ten pipelined requests or ten echoed frames leave
 * in one write.
 */
import type { SocketIo, Timers } from '../platform.js'

export interface FlushBatcher<S> {
  /** Corks the socket until the batch is flushed (at most once per batch). */
  hold(socket: S): void
}

export const createFlushBatcher = <S>(io: SocketIo<S>, timers: Timers): FlushBatcher<S> => {
  const held = new Set<S>()
  let scheduled = false

  const flush = (): void => {
    scheduled = false
    for (const socket of held) {
      if (!io.isClosed(socket)) io.uncork(socket)
    }
    held.clear()
  }

  return {
    hold(socket) {
      if (held.has(socket)) return
      held.add(socket)
      io.cork(socket)
      if (!scheduled) {
        scheduled = true
        timers.afterIo(flush)
      }
    },
  }
}
