/**
 * `runServer` on Deno (`twinport/deno`): the adapter between `Deno.listen` (or
 * `Deno.listenTls`) and the portable engine (`lib/engine/`). Same options, same handle,
 * same behaviour as on Node; it holds no protocol, room or time-out logic of its own.
 *
 * A Deno connection is read and written with promises: each connection has a read loop,
 * and a write pump that sends the backlog in order (joined into one write when several
 * frames wait). The backlog is what the engine's slow-consumer rule measures.
 */
import type { Client } from '../engine/client.js'
import { createEngine } from '../engine/create-engine.js'
import { joinBytes } from '../engine/join-bytes.js'
import { portableFrames } from '../engine/outgoing.js'
import type { Platform, SocketIo, Timers } from '../engine/platform.js'
import type { ServerHandle } from '../engine/server-handle.js'
import type { ServerOptions } from '../engine/server-options.js'
import { createLogger } from '../node/log/create-logger.js'
import { nativeAcceptKey } from '../node/native-accept-key.js'
import { createPerMessageDeflate } from '../node/permessage-deflate.js'
import { type DenoConn, type DenoTlsOptions, denoApi } from './deno-api.js'

/** One connection as the adapter keeps it (the engine's socket). */
interface Socket {
  readonly conn: DenoConn
  client: Client<Socket> | undefined
  backlog: Uint8Array[]
  backlogBytes: number
  corked: Uint8Array[] | undefined
  writing: boolean
  ended: boolean // our side: no more writes; FIN once the backlog is out
  peerEnded: boolean
  closed: boolean
}

const READ_SIZE = 64 * 1024

const createDenoIo = (onGone: (socket: Socket) => void): SocketIo<Socket> => {
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

  const pump = async (socket: Socket): Promise<void> => {
    socket.writing = true
    while (socket.backlog.length > 0 && !socket.closed) {
      const chunk = joinBytes(socket.backlog, socket.backlogBytes)
      socket.backlog = [chunk]
      let written: number
      try {
        written = await socket.conn.write(chunk)
      } catch {
        return gone(socket)
      }
      socket.backlogBytes -= written
      const rest = (socket.backlog[0] as Uint8Array).subarray(written)
      socket.backlog.shift()
      if (rest.length > 0) socket.backlog.unshift(rest)
    }
    socket.writing = false
    if (socket.ended && !socket.closed) void afterEnd(socket)
  }

  const enqueue = (socket: Socket, bytes: Uint8Array): void => {
    if (bytes.length === 0) return
    socket.backlog.push(bytes)
    socket.backlogBytes += bytes.length
    if (!socket.writing) void pump(socket)
  }

  const io: SocketIo<Socket> = {
    write(socket, bytes) {
      if (socket.closed || socket.ended) return
      if (socket.corked !== undefined) socket.corked.push(bytes)
      else enqueue(socket, bytes)
    },
    buffered(socket) {
      let corked = 0
      for (const part of socket.corked ?? []) corked += part.length
      return socket.backlogBytes + corked
    },
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
    uncork(socket) {
      const parts = socket.corked
      if (parts === undefined) return
      socket.corked = undefined
      let total = 0
      for (const part of parts) total += part.length
      if (total > 0 && !socket.closed) enqueue(socket, joinBytes(parts, total))
    },
  }
  return io
}

/** Options of `runServer` on Deno: the same as on Node, plus TLS (`Deno.listenTls`). */
export interface DenoServerOptions extends ServerOptions {
  readonly tls?: DenoTlsOptions
}

/**
 * Starts a server on Deno (needs `--allow-net`). Rejects with an Error naming every bad
 * option or route-table problem, or when Deno is not the runtime.
 *
 * @example
 * const server = await runServer({ port: 0, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
 * await server.close()
 */
export const runServer = async (options: DenoServerOptions = {}): Promise<ServerHandle> => {
  const deno = denoApi()
  if (deno === undefined) throw new Error('twinport/deno: runServer needs the Deno runtime (use `twinport` on Node)')
  const unref = <T>(id: T): T => {
    deno.unrefTimer(id as number)
    return id
  }
  const timers: Timers = {
    now: Date.now,
    setTimeout: (run, ms) => unref(setTimeout(run, ms)),
    clearTimeout: (id) => clearTimeout(id as number),
    setInterval: (run, ms) => unref(setInterval(run, ms)),
    clearInterval: (id) => clearInterval(id as number),
    afterIo: (run) => void setTimeout(run, 0),
  }
  // Set once the engine exists; a socket can only be gone after it was accepted.
  let closedHook: (socket: Socket) => void = () => undefined
  const io = createDenoIo((socket) => closedHook(socket))
  const platform: Platform<Socket> = {
    io,
    timers,
    frames: portableFrames,
    acceptKey: nativeAcceptKey,
    allocate: (size) => new Uint8Array(size),
    defaultLogger: (debug) => createLogger({ minLevel: debug ? 'debug' : 'info' }),
    deflate: createPerMessageDeflate,
  }
  const engine = createEngine(options, platform)
  closedHook = (socket) => {
    if (socket.client !== undefined) engine.closed(socket.client)
  }
  const { logger } = engine
  const debug = engine.options.debug
  const { host, port: askedPort } = engine.options

  const serve = async (socket: Socket): Promise<void> => {
    const scratch = new Uint8Array(READ_SIZE)
    for (;;) {
      let n: number | null
      try {
        n = await socket.conn.read(scratch)
      } catch (error) {
        if (debug) logger.debug('socket error', { clientId: socket.client?.id, error: error instanceof Error ? error.message : String(error) })
        return io.destroy(socket)
      }
      if (socket.closed) return
      if (n === null) {
        socket.peerEnded = true
        if (socket.ended && !socket.writing) return io.destroy(socket)
        socket.client?.receiver.peerEnded()
        return
      }
      // The scratch buffer is reused: the engine keeps a copy.
      socket.client?.receiver.receive(scratch.slice(0, n))
    }
  }

  let listener
  try {
    listener = options.tls === undefined
      ? deno.listen({ hostname: host, port: askedPort, transport: 'tcp' })
      : deno.listenTls({ hostname: host, port: askedPort, cert: options.tls.cert, key: options.tls.key, alpnProtocols: ['http/1.1'] })
  } catch (error) {
    await engine.handle.close()
    throw error
  }
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        const socket: Socket = { conn, client: undefined, backlog: [], backlogBytes: 0, corked: undefined, writing: false, ended: false, peerEnded: false, closed: false }
        try {
          conn.setNoDelay?.(true)
        } catch {
          // A TLS connection before its handshake: Nagle stays as the runtime set it.
        }
        socket.client = engine.accept(socket)
        void serve(socket)
      }
    } catch {
      // The listener was closed.
    }
  })()
  const port = listener.addr.port
  logger.info('twinport listening on {host}:{port}', { host, port })

  let stopped = false
  return {
    ...engine.handle,
    address: { host, port },
    close: async () => {
      if (!stopped) {
        stopped = true
        listener.close()
      }
      await Promise.all([engine.handle.close(), accepting])
    },
  }
}
