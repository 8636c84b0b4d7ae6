/**
 * An in-memory `Platform` for engine specs (portable: Node, Bun, Deno): a socket is a record
 * that keeps every byte the engine writes, and the timers are the runtime's own.
 */
import { makeLogger } from '../../lib/core/log/make-logger.js'
import { portableFrames } from '../../lib/engine/delivery/outgoing.js'
import type { Client } from '../../lib/engine/connection/client.js'
import type { Engine } from '../../lib/engine/create-engine.js'
import type { Platform } from '../../lib/engine/platform.js'

/** A socket as the engine sees it in these specs: what it wrote, and whether it ended or closed. */
export interface MemorySocket {
  out: Uint8Array[]
  ended: boolean
  closed: boolean
}

/** A platform on `MemorySocket`s (or a richer record), with `deflate` when a codec is given. */
export const memoryPlatform = <S extends MemorySocket>(deflate?: Platform<S>['deflate']): Platform<S> => ({
  io: {
    write: (s, bytes) => void s.out.push(bytes.slice()),
    buffered: () => 0,
    isClosed: (s) => s.closed,
    isEnded: (s) => s.ended,
    end: (s, bytes) => {
      if (bytes !== undefined) s.out.push(bytes.slice())
      s.ended = true
    },
    destroy: (s) => void (s.closed = true),
    cork: () => undefined,
    uncork: () => undefined,
  },
  timers: {
    now: () => Date.now(),
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
    afterIo: (run) => void setTimeout(run, 0),
  },
  frames: portableFrames,
  allocate: (size) => new Uint8Array(size),
  defaultLogger: () => makeLogger(() => undefined),
  ...(deflate === undefined ? {} : { deflate }),
})

/**
 * One fresh memory socket accepted by `engine`, and `stop`: the engine closed with that
 * client gone, as a runtime adapter would report it.
 */
export const acceptMemorySocket = (engine: Engine<MemorySocket>): { socket: MemorySocket; client: Client<MemorySocket>; stop: () => Promise<void> } => {
  const socket: MemorySocket = { out: [], ended: false, closed: false }
  const client = engine.accept(socket)
  if (client === undefined) throw new Error('the engine refused a memory socket')
  const stop = async (): Promise<void> => {
    const closing = engine.handle.close()
    engine.closed(client)
    await closing
  }
  return { socket, client, stop }
}
