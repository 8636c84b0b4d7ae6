/**
 * `runServer` on Bun (`twinport/bun`): the adapter between `Bun.listen` and the portable
 * engine (`lib/engine/`). Same options, same handle, same behaviour as on Node; it holds no
 * protocol, room or time-out logic of its own.
 *
 * Bun's `socket.write` takes what the kernel accepts and answers how much; the adapter
 * keeps the rest per connection and writes it on `drain`, and that backlog is what the
 * engine's slow-consumer rule measures. Corked writes are joined into one write.
 */
import { Buffer } from 'node:buffer'
import type { Client } from '../engine/client.js'
import { createEngine } from '../engine/create-engine.js'
import { joinBytes } from '../engine/join-bytes.js'
import type { Platform, SocketIo } from '../engine/platform.js'
import type { ServerHandle } from '../engine/server-handle.js'
import type { ServerOptions } from '../engine/server-options.js'
import { createLogger } from '../node/log/create-logger.js'
import { nativeAcceptKey } from '../node/native-accept-key.js'
import { createPerMessageDeflate } from '../node/permessage-deflate.js'
import { nodeFrames } from '../node/node-frames.js'
import { nodeTimers } from '../node/node-platform.js'
import { type BunSocket, type BunTlsOptions, bunApi } from './bun-api.js'

/** What the adapter keeps with each Bun socket. */
interface Conn {
  client: Client<Socket> | undefined
  /** Bytes the kernel has not taken yet, oldest first. */
  backlog: Uint8Array[]
  backlogBytes: number
  /** Writes held by a cork, joined on uncork. */
  corked: Uint8Array[] | undefined
  corkedBytes: number
  ended: boolean
  closed: boolean
}
type Socket = BunSocket<Conn>

const pushBacklog = (conn: Conn, bytes: Uint8Array): void => {
  conn.backlog.push(bytes)
  conn.backlogBytes += bytes.length
}

// Writes now what the kernel takes; keeps the rest.
const writeThrough = (socket: Socket, bytes: Uint8Array): void => {
  const conn = socket.data
  if (conn.backlogBytes > 0) return pushBacklog(conn, bytes)
  const written = Math.max(0, socket.write(bytes))
  if (written < bytes.length) pushBacklog(conn, bytes.subarray(written))
}

// The kernel takes more: write the backlog in order, then end if asked to.
const flushBacklog = (socket: Socket): void => {
  const conn = socket.data
  while (conn.backlog.length > 0) {
    const head = conn.backlog[0] as Uint8Array
    const written = Math.max(0, socket.write(head))
    conn.backlogBytes -= written
    if (written < head.length) {
      conn.backlog[0] = head.subarray(written)
      return
    }
    conn.backlog.shift()
  }
  if (conn.ended && !conn.closed) socket.shutdown()
}

const bunSocketIo: SocketIo<Socket> = {
  write(socket, bytes) {
    const conn = socket.data
    if (conn.closed || conn.ended) return
    if (conn.corked !== undefined) {
      conn.corked.push(bytes)
      conn.corkedBytes += bytes.length
      return
    }
    writeThrough(socket, bytes)
  },
  buffered: (socket) => socket.data.backlogBytes + socket.data.corkedBytes,
  isClosed: (socket) => socket.data.closed,
  isEnded: (socket) => socket.data.ended,
  end(socket, bytes) {
    const conn = socket.data
    if (conn.closed || conn.ended) return
    if (bytes !== undefined) bunSocketIo.write(socket, bytes)
    bunSocketIo.uncork(socket)
    conn.ended = true
    if (conn.backlogBytes === 0) socket.shutdown()
  },
  destroy(socket) {
    const conn = socket.data
    if (conn.closed) return
    conn.closed = true
    socket.terminate()
  },
  cork(socket) {
    socket.data.corked ??= []
  },
  uncork(socket) {
    const conn = socket.data
    const parts = conn.corked
    if (parts === undefined) return
    conn.corked = undefined
    const total = conn.corkedBytes
    conn.corkedBytes = 0
    if (parts.length > 0 && !conn.closed) writeThrough(socket, joinBytes(parts, total, allocate))
  },
}

const allocate = (size: number): Uint8Array => Buffer.allocUnsafe(size)

const bunPlatform: Platform<Socket> = {
  io: bunSocketIo,
  // Bun's timers are Node's (unref, setImmediate).
  timers: nodeTimers,
  frames: nodeFrames,
  acceptKey: nativeAcceptKey,
  allocate,
  defaultLogger: (debug) => createLogger({ minLevel: debug ? 'debug' : 'info' }),
  deflate: createPerMessageDeflate,
}

/** Options of `runServer` on Bun: the same as on Node, plus TLS (`Bun.listen`'s `tls`). */
export interface BunServerOptions extends ServerOptions {
  readonly tls?: BunTlsOptions
}

/**
 * Starts a server on Bun. Rejects with an Error naming every bad option or route-table
 * problem, or when Bun is not the runtime.
 *
 * @example
 * const server = await runServer({ port: 0, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
 * await server.close()
 */
export const runServer = async (options: BunServerOptions = {}): Promise<ServerHandle> => {
  const bun = bunApi()
  if (bun === undefined) throw new Error('twinport/bun: runServer needs the Bun runtime (use `twinport` on Node)')
  const engine = createEngine(options, bunPlatform)
  const { logger } = engine
  const debug = engine.options.debug
  const { host, port: askedPort } = engine.options

  let listener
  try {
    listener = bun.listen<Conn>({
      hostname: host,
      port: askedPort,
      allowHalfOpen: true,
      ...(options.tls === undefined ? {} : { tls: options.tls }),
      socket: {
        open(socket) {
          socket.data = { client: undefined, backlog: [], backlogBytes: 0, corked: undefined, corkedBytes: 0, ended: false, closed: false }
          socket.setNoDelay(true)
          socket.data.client = engine.accept(socket)
        },
        // A plain view: the engine's `subarray`s are its own, not Buffer's override.
        data: (socket, chunk) => socket.data.client?.receiver.receive(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)),
        drain: flushBacklog,
        end: (socket) => socket.data.client?.receiver.peerEnded(),
        close(socket) {
          const conn = socket.data
          conn.closed = true
          conn.backlog = []
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
    close: async () => {
      if (!stopped) {
        stopped = true
        listener.stop(false)
      }
      await engine.handle.close()
    },
  }
}
