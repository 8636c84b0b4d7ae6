/**
 * `serveNet`: a server on `node:net` (and `node:tls` with the `tls` option) driving the
 * portable engine (`lib/engine/`) with a given platform. It listens, hands each socket to
 * the engine (a TLS socket once its handshake is done), and passes the socket's bytes, end
 * and close along; it holds no protocol, room or time-out logic of its own.
 *
 * Node's adapter is this with `nodePlatform` (lib/node/run-server.ts); Deno's adapter
 * serves TLS through it too, on Deno's `node:net` and `node:tls` (lib/deno/tls-server.ts).
 * Part of the shared runtime layer (lib/runtime/): imports the core, the engine, `node:*`
 * and this layer, never an adapter.
 */
import { createServer, type Server, type Socket } from 'node:net'
import { createEngine } from '../engine/create-engine.js'
import type { Platform } from '../engine/platform.js'
import type { ServerHandle } from '../engine/server-handle.js'
import { resolveTlsOptions, type ServerOptions, type TlsOptions } from '../engine/options/server-options.js'
import { acceptSockets } from './accept-sockets.js'
import { checkListenHandle } from './check-listen-handle.js'
import { createTlsAcceptor, type TlsAcceptor } from './tls/tls-acceptor.js'

/**
 * Options of a server on `node:net`: the shared options, and two more ways to listen.
 */
export interface NetServerOptions extends ServerOptions {
  /** A Unix domain socket path to listen on instead of `host`/`port` (behind nginx, say). */
  readonly path?: string
  /**
   * An already-open listening handle to serve instead of `host`/`port`: `{ fd: 3 }` for
   * systemd socket activation, or a listening `net.Server` with no listeners of its own (one
   * received from a parent process). An HTTP server is refused at start: serve twinport
   * beside it with `attach(server, options)`.
   */
  readonly handle?: { readonly fd: number } | Server
}

/**
 * Starts a server on `node:net` with `platform`. Rejects with an Error naming every bad
 * option or route-table problem. `notice`, when given, is logged as a warning at start
 * (why `runServer` serves on `node:net` although the native transport was asked for).
 *
 * @example
 * const server = await serveNet({ port: 0, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] }, nodePlatform)
 * await server.close()
 */
export const serveNet = async (options: NetServerOptions, platform: Platform<Socket>, notice?: string): Promise<ServerHandle> => {
  if (options.path !== undefined && options.handle !== undefined) throw new Error('runServer: invalid options\n  path and handle: give one place to listen, not both')
  if (options.path !== undefined && (typeof options.path !== 'string' || options.path === '')) throw new Error('runServer: invalid options\n  path: expected a non-empty string')
  const handleProblem = options.handle === undefined ? undefined : checkListenHandle(options.handle)
  if (handleProblem !== undefined) throw new Error(`runServer: invalid options\n  ${handleProblem}`)
  const engine = createEngine(options, platform)
  const { logger } = engine
  const debug = engine.options.debug
  if (notice !== undefined) logger.warning(notice)
  const acceptSocket = acceptSockets(engine)
  const accept = (socket: Socket): void => void acceptSocket(socket)

  // With `tls`, a connection reaches `accept` once its TLS handshake is done.
  let tlsAcceptor: TlsAcceptor | undefined
  const { tls, limits } = engine.options
  if (tls !== undefined) {
    try {
      tlsAcceptor = createTlsAcceptor(tls, {
        handshakeTimeoutMs: limits.tlsHandshakeTimeoutMs,
        onSecure: accept,
        onFailure: (message, context) => {
          if (debug) logger.debug(message, context)
        },
      })
    } catch (error) {
      await engine.handle.close()
      throw new Error(`runServer: invalid options\n  ${(error as Error).message}`)
    }
  }

  const { host, port: askedPort } = engine.options
  const server: Server = createServer({ noDelay: true, allowHalfOpen: true }, tlsAcceptor?.accept ?? accept)
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      const listening = (): void => {
        server.off('error', reject)
        resolve()
      }
      if (options.path !== undefined) server.listen(options.path, listening)
      else if (options.handle !== undefined) server.listen(options.handle, listening)
      else server.listen(askedPort, host, listening)
    })
  } catch (error) {
    await engine.handle.close()
    throw error
  }
  // An accept the runtime failed (libuv tells only when it could not shed the connection itself):
  // out of file descriptors is counted and logged once per interval by the engine.
  server.on('error', (error) => ((error as { syscall?: unknown }).syscall === 'accept' ? engine.acceptFailed(error) : logger.exception(error, { phase: 'listen' })))

  const bound = server.address()
  const address = typeof bound === 'string'
    ? { host, port: 0, path: bound }
    : { host: options.handle === undefined ? host : (bound?.address ?? host), port: bound?.port ?? askedPort }
  if (address.path === undefined) logger.info('twinport listening on {host}:{port}', { host: address.host, port: address.port })
  else logger.info('twinport listening on {path}', { path: address.path })

  const setSecureContext = async (next: TlsOptions): Promise<void> => {
    if (tlsAcceptor === undefined) throw new Error('setSecureContext: the server was started without the tls option')
    const checked = resolveTlsOptions(next)
    if (checked._tag === 'Left') throw new Error(`setSecureContext: invalid options\n  ${checked.left.join('\n  ')}`)
    try {
      tlsAcceptor.setSecureContext(checked.right)
    } catch (error) {
      throw new Error(`setSecureContext: invalid options\n  ${(error as Error).message}`)
    }
    if (debug) logger.debug('tls: new connections get the new certificate')
  }

  const stopListening = new Promise<void>((resolve) => server.once('close', () => resolve()))
  return {
    ...engine.handle,
    address,
    setSecureContext,
    close: async () => {
      if (server.listening) server.close()
      tlsAcceptor?.dropPending()
      await Promise.all([engine.handle.close(), stopListening])
    },
  }
}
