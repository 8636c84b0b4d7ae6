/**
 * What the native transport keeps with each connection (`NativeConn`), and the engine's
 * socket operations on it (`nativeSocketIo`). The addon writes what the kernel takes at once
 * (one `writev` per uncork) and keeps only the rest, so `buffered` is the addon's backlog plus
 * what a cork holds. Corked writes are handed over together, up to 16 arrays per `writev`,
 * never joined by a copy here. A broadcast's receivers are written in one `writeMany` call
 * (`writeShared`): the frame is handed over once for all of them.
 *
 * A server holds tens of thousands of these: four fields (the engine's `Client` is kept by
 * the server's slot table, not here); the yes-or-no facts (corking, ended, closed) are bits
 * of one number. A close this side causes (destroy, an end after the
 * peer's, a failed write) is reported to the engine after the current I/O, as node:net's
 * `close` is, so the engine is never re-entered. Part of lib/native: imports the engine's
 * types, the shared runtime layer's cork (lib/runtime/corked-writes.ts) and this folder only.
 */
import type { SocketIo } from '../engine/platform.js'
import { CLOSED, type Corked, CORKING, corkedBytes, ENDED, holdCorked } from '../runtime/corked-writes.js'
import type { NativeBinding } from './native-binding.js'

/** The engine's socket on the native transport. */
export interface NativeConn {
  /** The addon's name for the connection; reused only after it closed. */
  readonly slot: number
  /** Writes held by a cork: one array (most often the only one), or several. */
  corked: Corked
  /** Bytes the addon still queues plus the corked bytes: what the engine's `buffered` asks. */
  pending: number
  /** `CORKING`, `ENDED`, `CLOSED` (lib/runtime/corked-writes.ts). */
  flags: number
}

/** At most this many arrays per `write` call (the addon's `writev` limit). */
const MAX_CHUNKS = 16

/**
 * A new connection's record.
 *
 * @example
 * const conn = newNativeConn(3)
 * conn.pending // 0
 */
export const newNativeConn = (slot: number): NativeConn => ({ slot, corked: undefined, pending: 0, flags: 0 })

/**
 * The connection is gone (the addon said so): nothing more is written.
 *
 * @example
 * nativeConnClosed(conn)
 * io.isClosed(conn) // true
 */
export const nativeConnClosed = (conn: NativeConn): void => {
  conn.flags |= CLOSED
  conn.corked = undefined
  conn.pending = 0
}

/**
 * The addon sent everything it held.
 *
 * @example
 * // native's drain(slot) callback:
 * nativeConnDrained(conn) // then the receiver's `writable`, unless the connection ended
 */
export const nativeConnDrained = (conn: NativeConn): void => {
  conn.pending = corkedBytes(conn.corked)
}

/**
 * The engine's operations on native connections through `binding`; `closedHere(conn)` is
 * called once for a connection this side closed (the server reports it to the engine later).
 *
 * @example
 * const io = nativeSocketIo(binding, (conn) => setImmediate(() => engine.closed(clients[conn.slot])))
 * io.cork(conn)
 * io.write(conn, frameA)
 * io.write(conn, frameB)
 * io.uncork(conn) // one writev(frameA, frameB); what the kernel does not take waits natively
 */
export const nativeSocketIo = (binding: NativeBinding, closedHere: (conn: NativeConn) => void): SocketIo<NativeConn> => {
  let lastAddress: string | undefined
  const close = (conn: NativeConn): void => {
    if ((conn.flags & CLOSED) !== 0) return
    nativeConnClosed(conn)
    binding.destroy(conn.slot)
    closedHere(conn)
  }
  // Hands `chunks` to the addon; a negative answer is a failed socket (EPIPE, ECONNRESET).
  const send = (conn: NativeConn, chunks: Uint8Array | readonly Uint8Array[]): void => {
    let queued: number
    if (!Array.isArray(chunks)) queued = binding.write(conn.slot, chunks as Uint8Array)
    else if (chunks.length <= MAX_CHUNKS) queued = binding.write(conn.slot, ...(chunks as Uint8Array[]))
    else {
      queued = 0
      for (let at = 0; at < chunks.length && queued >= 0; at += MAX_CHUNKS) queued = binding.write(conn.slot, ...(chunks.slice(at, at + MAX_CHUNKS) as Uint8Array[]))
    }
    if (queued < 0) close(conn)
    else conn.pending = queued
  }
  // One broadcast's receivers, handed to the addon in one `writeMany` (grown as batches need;
  // `targets` is overwritten, not cleared: it holds at most one batch of connections).
  let slots = new Uint32Array(64)
  let results = new Int32Array(128)
  const targets: NativeConn[] = []
  const writeMany = binding.writeMany?.bind(binding)
  const io: SocketIo<NativeConn> = {
    write(conn, bytes) {
      const flags = conn.flags
      if ((flags & (CLOSED | ENDED)) !== 0) return
      if ((flags & CORKING) === 0) return send(conn, bytes)
      holdCorked(conn, bytes)
    },
    // The receivers that cork get the bytes held as `write` would; the others go to the addon
    // in one call, which reports only those left with bytes queued or failed.
    writeShared(conns, count, bytes) {
      let n = 0
      for (let i = 0; i < count; i++) {
        const conn = conns[i] as NativeConn
        const flags = conn.flags
        if ((flags & (CLOSED | ENDED)) !== 0) continue
        if ((flags & CORKING) !== 0 || writeMany === undefined) {
          io.write(conn, bytes)
          continue
        }
        if (n === slots.length) {
          const grown = new Uint32Array(n * 2)
          grown.set(slots)
          slots = grown
          results = new Int32Array(n * 4)
        }
        slots[n] = conn.slot
        targets[n] = conn
        n += 1
      }
      if (n === 0 || writeMany === undefined) return
      const reported = writeMany(bytes, slots, n, results)
      for (let r = 0; r < reported; r++) {
        const conn = targets[results[2 * r] as number] as NativeConn
        const outcome = results[2 * r + 1] as number
        if (outcome < 0) close(conn)
        else conn.pending = outcome
      }
    },
    buffered: (conn) => conn.pending,
    // Read once, at accept (the engine keeps it on the client): per-address limits and logs.
    // Connections in a row from one address (behind a proxy, a load test) share one string.
    remoteAddress(conn) {
      if ((conn.flags & CLOSED) !== 0) return undefined
      const address = binding.remoteAddress?.(conn.slot)
      if (address !== lastAddress) lastAddress = address
      return lastAddress
    },
    isClosed: (conn) => (conn.flags & CLOSED) !== 0,
    isEnded: (conn) => (conn.flags & ENDED) !== 0,
    end(conn, bytes) {
      if ((conn.flags & (CLOSED | ENDED)) !== 0) return
      if (bytes !== undefined) io.write(conn, bytes)
      io.uncork(conn)
      if ((conn.flags & CLOSED) !== 0) return
      conn.flags |= ENDED
      if (binding.end(conn.slot) === 1) {
        nativeConnClosed(conn)
        closedHere(conn)
      }
    },
    destroy: close,
    cork(conn) {
      conn.flags |= CORKING
    },
    uncork(conn) {
      if ((conn.flags & CORKING) === 0) return
      conn.flags &= ~CORKING
      const corked = conn.corked
      if (corked === undefined) return
      conn.corked = undefined
      conn.pending -= corkedBytes(corked)
      if ((conn.flags & CLOSED) === 0) send(conn, corked)
    },
    pause(conn) {
      if ((conn.flags & CLOSED) === 0) binding.pause(conn.slot)
    },
    resume(conn) {
      if ((conn.flags & CLOSED) === 0) binding.resume(conn.slot)
    },
  }
  return io
}
