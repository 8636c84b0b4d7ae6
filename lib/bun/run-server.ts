/**
 * `runServer` on Bun (`twinport/bun`): the adapter between `Bun.listen` and the portable
 * engine (`lib/engine/`). Same options, same handle, same behaviour as on Node; it holds no
 * protocol, room or time-out logic of its own.
 *
 * Bun's `socket.write` takes what the kernel accepts and answers how much; the adapter
 * keeps the rest per connection and writes it on `drain`, and that backlog is what the
 * engine's slow-consumer rule measures. Corked writes are joined into one write.
 *
 * With `tls`, Bun does the handshake (ALPN `http/1.1`); a connection reaches the engine once
 * its handshake is done, and one that fails or does not finish in time is closed.
 */
import { Buffer } from 'node:buffer'
import type { Client } from '../engine/client.js'
import { createEngine } from '../engine/create-engine.js'
import type { Platform, SocketIo } from '../engine/platform.js'
import type { ServerHandle } from '../engine/server-handle.js'
import type { ServerOptions } from '../engine/server-options.js'
import { createLogger } from '../node/log/create-logger.js'
import { nativeAcceptKey } from '../node/native-accept-key.js'
import { createPerMessageDeflate } from '../node/permessage-deflate.js'
import { nodeFrames } from '../node/node-frames.js'
import { nodeTimers } from '../node/node-platform.js'
import { checkTlsMaterial } from '../node/tls-material.js'
import { type BunSocket, bunApi, bunTls } from './bun-api.js'

/** Kept with each Bun socket, and the engine's socket: plain fields, not the native `data` accessor. */
interface Conn {
  readonly socket: Socket
  client: Client<Conn> | undefined
  /** Bytes the kernel has not taken yet, oldest first; none most of the time. */
  backlog: Uint8Array[] | undefined
  backlogBytes: number
  /** Writes held by a cork, joined on uncork: the first apart, as it is most often the only one. */
  corking: boolean
  corkedFirst: Uint8Array | undefined
  corkedMore: Uint8Array[] | undefined
  corkedBytes: number
  ended: boolean
  closed: boolean
  /** The TLS handshake's time-out, while it runs. */
  handshake: ReturnType<typeof setTimeout> | undefined
}
type Socket = BunSocket<Conn>

const pushBacklog = (conn: Conn, bytes: Uint8Array): void => {
  ;(conn.backlog ??= []).push(bytes)
  conn.backlogBytes += bytes.length
}

// Writes now what the kernel takes; keeps the rest.
const writeThrough = (conn: Conn, bytes: Uint8Array): void => {
  if (conn.backlogBytes > 0) return pushBacklog(conn, bytes)
  const written = Math.max(0, conn.socket.write(bytes))
  if (written < bytes.length) pushBacklog(conn, bytes.subarray(written))
}

const join = (first: Uint8Array, more: readonly Uint8Array[], total: number): Uint8Array => {
  const joined = Buffer.allocUnsafe(total)
  joined.set(first, 0)
  let at = first.length
  for (const part of more) {
    joined.set(part, at)
    at += part.length
  }
  return joined
}

// The kernel takes more: write the backlog in order, then end if asked to.
const flushBacklog = (socket: Socket): void => {
  const conn = socket.data
  const backlog = conn.backlog
  while (backlog !== undefined && backlog.length > 0) {
    const head = backlog[0] as Uint8Array
    const written = Math.max(0, socket.write(head))
    conn.backlogBytes -= written
    if (written < head.length) {
      backlog[0] = head.subarray(written)
      return
    }
    backlog.shift()
  }
  conn.backlog = undefined
  if (conn.ended && !conn.closed) socket.shutdown()
}

const bunSocketIo: SocketIo<Conn> = {
  write(conn, bytes) {
    if (conn.closed || conn.ended) return
    if (!conn.corking) return writeThrough(conn, bytes)
    if (conn.corkedFirst === undefined) conn.corkedFirst = bytes
    else (conn.corkedMore ??= []).push(bytes)
    conn.corkedBytes += bytes.length
  },
  buffered: (conn) => conn.backlogBytes + conn.corkedBytes,
  isClosed: (conn) => conn.closed,
  isEnded: (conn) => conn.ended,
  end(conn, bytes) {
    if (conn.closed || conn.ended) return
    if (bytes !== undefined) bunSocketIo.write(conn, bytes)
    bunSocketIo.uncork(conn)
    conn.ended = true
    if (conn.backlogBytes === 0) conn.socket.shutdown()
  },
  destroy(conn) {
    if (conn.closed) return
    conn.closed = true
    conn.socket.terminate()
  },
  cork(conn) {
    conn.corking = true
  },
  uncork(conn) {
    if (!conn.corking) return
    conn.corking = false
    const first = conn.corkedFirst
    if (first === undefined) return
    const more = conn.corkedMore
    const total = conn.corkedBytes
    conn.corkedFirst = undefined
    conn.corkedMore = undefined
    conn.corkedBytes = 0
    if (!conn.closed) writeThrough(conn, more === undefined ? first : join(first, more, total))
  },
}

const bunPlatform: Platform<Conn> = {
  io: bunSocketIo,
  // Bun's timers are Node's (unref, setImmediate).
  timers: nodeTimers,
  frames: nodeFrames,
  acceptKey: nativeAcceptKey,
  allocate: (size) => Buffer.allocUnsafe(size),
  defaultLogger: (debug) => createLogger({ minLevel: debug ? 'debug' : 'info' }),
  deflate: createPerMessageDeflate,
}

/**
 * Starts a server on Bun. Rejects with an Error naming every bad option or route-table
 * problem, or when Bun is not the runtime.
 *
 * @example
 * const server = await runServer({ port: 0, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
 * await server.close()
 */
export const runServer = async (options: ServerOptions = {}): Promise<ServerHandle> => {
  const bun = bunApi()
  if (bun === undefined) throw new Error('twinport/bun: runServer needs the Bun runtime (use `twinport` on Node)')
  const engine = createEngine(options, bunPlatform)
  const { logger } = engine
  const debug = engine.options.debug
  const { host, port: askedPort, tls, limits } = engine.options
  const problems = tls === undefined ? [] : checkTlsMaterial(tls)
  if (problems.length > 0) {
    await engine.handle.close()
    throw new Error(`runServer: invalid options\n  ${problems.join('\n  ')}`)
  }
  const handshaking = new Set<Conn>()
  const handshakeOver = (conn: Conn): void => {
    clearTimeout(conn.handshake)
    conn.handshake = undefined
    handshaking.delete(conn)
  }

  let listener
  try {
    listener = bun.listen<Conn>({
      hostname: host,
      port: askedPort,
      allowHalfOpen: true,
      ...(tls === undefined ? {} : { tls: bunTls(tls) }),
      socket: {
        open(socket) {
          const conn: Conn = {
            socket, client: undefined, backlog: undefined, backlogBytes: 0, corking: false, corkedFirst: undefined, corkedMore: undefined, corkedBytes: 0,
            ended: false, closed: false, handshake: undefined,
          }
          socket.data = conn
          socket.setNoDelay(true)
          if (tls === undefined) {
            conn.client = engine.accept(conn)
            return
          }
          handshaking.add(conn)
          conn.handshake = setTimeout(() => {
            handshakeOver(conn)
            if (debug) logger.debug('tls handshake timed out', { error: `no handshake within ${limits.tlsHandshakeTimeoutMs} ms` })
            bunSocketIo.destroy(conn)
          }, limits.tlsHandshakeTimeoutMs).unref()
        },
        handshake(socket, success, error) {
          const conn = socket.data
          handshakeOver(conn)
          if (success) {
            conn.client = engine.accept(conn)
            return
          }
          if (debug) logger.debug('tls handshake failed', { error: error.message })
          bunSocketIo.destroy(conn)
        },
        // Plain Uint8Arrays, not Buffers: the engine's `slice` copies, as the standard says.
        binaryType: 'uint8array',
        data: (socket, chunk) => socket.data.client?.receiver.receive(chunk),
        drain: flushBacklog,
        end: (socket) => socket.data.client?.receiver.peerEnded(),
        close(socket) {
          const conn = socket.data
          handshakeOver(conn)
          conn.closed = true
          conn.backlog = undefined
          conn.backlogBytes = 0
          if (conn.client !== undefined) engine.closed(conn.client)
        },
        error(socket, error) {
          if (debug) logger.debug('socket error', { clientId: socket.data.client?.id, error: error.message })
        },
      },
    })
  } catch (error) {
    await engine.handle.close()
    throw error
  }
  const port = listener.port
  logger.info('twinport listening on {host}:{port}', { host, port })

  let stopped = false
  return {
    ...engine.handle,
    address: { host, port },
    setSecureContext: () =>
      Promise.reject(
        new Error(
          tls === undefined
            ? 'setSecureContext: the server was started without the tls option'
            : 'setSecureContext: not available on Bun (Bun.listen cannot change its certificate; restart the server, see docs/decisions.md)',
        ),
      ),
    close: async () => {
      if (!stopped) {
        stopped = true
        listener.stop(false)
        for (const conn of handshaking) bunSocketIo.destroy(conn)
        handshaking.clear()
      }
      await engine.handle.close()
    },
  }
}
