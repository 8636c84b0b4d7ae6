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
 *
 * Imports the engine, the shared runtime layer (lib/runtime/) and this folder, never
 * another adapter.
 */
import { Buffer } from 'node:buffer'
import { createEngine } from '../engine/create-engine.js'
import type { Platform } from '../engine/platform.js'
import type { ServerHandle } from '../engine/server-handle.js'
import type { ServerOptions } from '../engine/options/server-options.js'
import { nodeCompatParts } from '../runtime/node-compat-parts.js'
import { nodeFrames } from '../runtime/node-frames.js'
import { nodeTimers } from '../runtime/node-timers.js'
import { openFileLimit } from '../runtime/open-file-limit.js'
import { checkTlsMaterial } from '../runtime/tls/tls-material.js'
import { bunApi, bunTls } from './bun-api.js'
import { bunFiles } from './bun-files.js'
import { bunSocketIo, type Conn, connClosed, flushBacklog, newConn } from './bun-socket-io.js'

const bunPlatform: Platform<Conn> = {
  ...nodeCompatParts,
  io: bunSocketIo,
  // Bun's timers are Node's (unref, setImmediate).
  timers: nodeTimers,
  frames: nodeFrames,
  allocate: (size) => Buffer.allocUnsafe(size),
  files: bunFiles,
  openFileLimit,
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
  // The connections whose TLS handshake runs, each with its time-out.
  const handshaking = new Map<Conn, ReturnType<typeof setTimeout>>()
  const handshakeOver = (conn: Conn): void => {
    const timer = handshaking.get(conn)
    if (timer === undefined) return
    clearTimeout(timer)
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
          const conn = newConn(socket)
          socket.data = conn
          socket.setNoDelay(true)
          if (tls === undefined) {
            conn.client = engine.accept(conn)
            return
          }
          const timer = setTimeout(() => {
            handshakeOver(conn)
            if (debug) logger.debug('tls handshake timed out', { error: `no handshake within ${limits.tlsHandshakeTimeoutMs} ms` })
            bunSocketIo.destroy(conn)
          }, limits.tlsHandshakeTimeoutMs).unref()
          handshaking.set(conn, timer)
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
          if (tls !== undefined) handshakeOver(conn)
          connClosed(conn)
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
        // A handshake cut short by the stop: its time-out must not fire (and log) afterwards.
        for (const [conn, timer] of handshaking) {
          clearTimeout(timer)
          bunSocketIo.destroy(conn)
        }
        handshaking.clear()
      }
      await engine.handle.close()
    },
  }
}
