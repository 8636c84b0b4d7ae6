/**
 * What the Bun adapter keeps with each `Bun.listen` socket (`Conn`), and the engine's socket
 * operations on it (`bunSocketIo`): Bun's `socket.write` takes what the kernel accepts and
 * answers how much, so the rest waits here, in order, for `drain`; corked writes are joined
 * into one write on uncork. `buffered` (the backlog and the corked bytes) is what the
 * engine's slow-consumer rule measures. The receiver is told `writable` whenever that is all
 * taken: on `drain`, and on an uncork the kernel takes whole (which brings no `drain`).
 *
 * A server holds tens of thousands of these, so a `Conn` is six fields: the TLS handshake's
 * time-out lives in the server's map of handshakes, and the three yes-or-no facts (corking,
 * ended, closed) are bits of one number. Uses only the socket's documented `write`,
 * `shutdown` and `terminate`, so it runs (and is specified) outside Bun too.
 */
import { Buffer } from 'node:buffer'
import { joinBytes } from '../core/join-bytes.js'
import type { Client } from '../engine/connection/client.js'
import type { SocketIo } from '../engine/platform.js'
import { CLOSED, type Corked, CORKING, corkedBytes, ENDED, holdCorked } from '../runtime/corked-writes.js'
import type { BunSocket } from './bun-api.js'

/** Kept with each Bun socket, and the engine's socket: plain fields, not the native `data` accessor. */
export interface Conn {
  readonly socket: Socket
  client: Client<Conn> | undefined
  /** Bytes the kernel has not taken yet, oldest first; none most of the time. */
  backlog: Uint8Array[] | undefined
  /** Writes held by a cork, joined on uncork: one array (most often the only one), or several. */
  corked: Corked
  /** The bytes in `backlog` and `corked` together: what the engine's `buffered` asks. */
  pending: number
  /** `CORKING`, `ENDED`, `CLOSED` (lib/runtime/corked-writes.ts). */
  flags: number
}
/** A `Bun.listen` socket of this adapter: its `data` is the connection's `Conn`. */
export type Socket = BunSocket<Conn>

// Corked writes are joined into an uninitialised Buffer: every byte of it is written at once.
const allocateBuffer = (size: number): Uint8Array => Buffer.allocUnsafe(size)

const pushBacklog = (conn: Conn, bytes: Uint8Array): void => {
  ;(conn.backlog ??= []).push(bytes)
  conn.pending += bytes.length
}

// Writes now what the kernel takes; keeps the rest. Never called while writes are corked, so
// `pending` is the backlog's alone.
const writeThrough = (conn: Conn, bytes: Uint8Array): void => {
  if (conn.pending > 0) return pushBacklog(conn, bytes)
  const written = Math.max(0, conn.socket.write(bytes))
  if (written < bytes.length) pushBacklog(conn, bytes.subarray(written))
}

/**
 * `drain`: the kernel takes more; writes the backlog in order, then ends if asked to.
 *
 * @example
 * // In Bun.listen's handlers (lib/bun/run-server.ts): the backlog leaves as the kernel takes it.
 * const handlers = { open: (socket: Socket) => void (socket.data = newConn(socket)), drain: flushBacklog }
 */
export const flushBacklog = (socket: Socket): void => {
  const conn = socket.data
  const backlog = conn.backlog
  while (backlog !== undefined && backlog.length > 0) {
    const head = backlog[0] as Uint8Array
    const written = Math.max(0, socket.write(head))
    conn.pending -= written
    if (written < head.length) {
      backlog[0] = head.subarray(written)
      return
    }
    backlog.shift()
  }
  conn.backlog = undefined
  if ((conn.flags & (ENDED | CLOSED)) === ENDED) return socket.shutdown()
  // Everything waiting was taken: a streamed response may send its next piece.
  conn.client?.receiver.writable?.()
}

/**
 * A new connection's record, kept in `socket.data`.
 *
 * @example
 * // In Bun.listen's `open(socket)`:
 * socket.data = newConn(socket)
 * bunSocketIo.buffered(socket.data) // 0: nothing waits
 */
export const newConn = (socket: Socket): Conn => ({ socket, client: undefined, backlog: undefined, corked: undefined, pending: 0, flags: 0 })

/**
 * `close`: the socket is gone; nothing more is written, and the backlog is dropped (what is
 * still corked stays counted until the uncork that drops it).
 *
 * @example
 * // In Bun.listen's `close(socket)`: what the kernel did not take is dropped.
 * connClosed(socket.data)
 * bunSocketIo.buffered(socket.data) // 0
 * bunSocketIo.isClosed(socket.data) // true
 */
export const connClosed = (conn: Conn): void => {
  conn.flags |= CLOSED
  conn.backlog = undefined
  conn.pending = corkedBytes(conn.corked)
}

/**
 * The engine's operations on a Bun connection.
 *
 * @example
 * const conn = newConn(socket) // socket: from Bun.listen's `open`
 * bunSocketIo.cork(conn)
 * bunSocketIo.write(conn, Uint8Array.of(1, 2))
 * bunSocketIo.write(conn, Uint8Array.of(3))
 * bunSocketIo.buffered(conn) // 3: held by the cork
 * bunSocketIo.uncork(conn)   // one socket.write(01 02 03); what the kernel does not take waits for `drain`
 */
export const bunSocketIo: SocketIo<Conn> = {
  write(conn, bytes) {
    const flags = conn.flags
    if ((flags & (CLOSED | ENDED)) !== 0) return
    if ((flags & CORKING) === 0) return writeThrough(conn, bytes)
    holdCorked(conn, bytes)
  },
  buffered: (conn) => conn.pending,
  isClosed: (conn) => (conn.flags & CLOSED) !== 0,
  isEnded: (conn) => (conn.flags & ENDED) !== 0,
  end(conn, bytes) {
    if ((conn.flags & (CLOSED | ENDED)) !== 0) return
    if (bytes !== undefined) bunSocketIo.write(conn, bytes)
    bunSocketIo.uncork(conn)
    conn.flags |= ENDED
    if (conn.pending === 0) conn.socket.shutdown()
  },
  destroy(conn) {
    if ((conn.flags & CLOSED) !== 0) return
    conn.flags |= CLOSED
    conn.socket.terminate()
  },
  cork(conn) {
    conn.flags |= CORKING
  },
  pause(conn) {
    if ((conn.flags & CLOSED) === 0) conn.socket.pause()
  },
  resume(conn) {
    if ((conn.flags & CLOSED) === 0) conn.socket.resume()
  },
  remoteAddress: (conn) => conn.socket.remoteAddress,
  uncork(conn) {
    if ((conn.flags & CORKING) === 0) return
    conn.flags &= ~CORKING
    const corked = conn.corked
    if (corked === undefined) return
    conn.corked = undefined
    const bytes = Array.isArray(corked) ? joinBytes(corked, corkedBytes(corked), allocateBuffer) : (corked as Uint8Array)
    conn.pending -= bytes.length
    if ((conn.flags & CLOSED) !== 0) return
    writeThrough(conn, bytes)
    // The kernel took the corked bytes whole: Bun sends no `drain` for a write it took, so say
    // here what `drain` would have. A streamed answer whose piece was corked behind its head
    // counted more than its high-water mark and waits for this (docs/decisions.md "The Bun
    // adapter's lost wake-up").
    if (conn.pending === 0) conn.client?.receiver.writable?.()
  },
}
