/**
 * `runServer`: the effectful shell (DESIGN §1). One `node:net` listener; every connection
 * starts as HTTP and becomes a WebSocket client when it asks for a valid upgrade. The
 * shell owns sockets, timers, the client registry and the log sinks; every protocol
 * decision is the pure core's.
 */
import { createServer, type Server, type Socket } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import { compileCors, type Cors } from '../core/http/compile-cors.js'
import { decodeCorsConfig } from '../core/http/cors-config.js'
import { errorResponse } from '../core/http/response.js'
import { withHeader } from '../core/http/response-updates.js'
import { serializeResponse } from '../core/http/serialize-response.js'
import type { Header, HttpRequest, Response } from '../core/http/types.js'
import type { Logger } from '../core/log/logger.js'
import { composeHttp } from '../core/middleware/compose-http.js'
import { compileRoutes } from '../core/route/compile-routes.js'
import { describeRouteTableError } from '../core/route/route-table-error.js'
import { dispatchConnect } from '../core/route/dispatch-connect.js'
import { dispatchDisconnect } from '../core/route/dispatch-disconnect.js'
import { dispatchHttp } from '../core/route/dispatch-http.js'
import type { HttpContext } from '../core/route/http-context.js'
import type { RawMessage } from '../core/route/raw-message.js'
import { routes } from '../core/route/routes.js'
import type { BroadcastTarget, SocketContext } from '../core/route/socket-context.js'
import type { WsErrorReporter } from '../core/route/ws-error-reporter.js'
import { CLOSE_CODE } from '../core/ws/close-code.js'
import { encodeEvent } from '../core/ws/envelope.js'
import { handshakeResponse } from '../core/ws/handshake-response.js'
import { type Upgrade, validateUpgrade } from '../core/ws/validate-upgrade.js'
import type { Client, ClientType } from './client.js'
import { createFlushBatcher } from './flush-batcher.js'
import { httpDate } from './http-date.js'
import { type HttpSession, startHttpSession } from './http-session.js'
import { guardLogger } from './guard-logger.js'
import { createLogger } from './log/create-logger.js'
import { createNamespaceRegistry, type NamespaceRegistry } from './namespace-registry.js'
import { encodeBinary, encodeText } from './outgoing.js'
import { resolveOptions, type ServerOptions } from './server-options.js'
import { startWsSession, type WsSession } from './ws-session.js'

/** What `runServer` resolves to: the seed's Server operations (§4.1) on a running server. */
export interface ServerHandle {
  /** Where the server listens (the port is the real one when `0` was asked). */
  readonly address: { readonly host: string; readonly port: number }
  readonly logger: Logger
  /** Namespaces and rooms (seed NamespaceManager). */
  readonly namespaces: NamespaceRegistry
  /** Sends an event to one WebSocket client; false when there is no such client. */
  send(clientId: number, event: string, data?: unknown): boolean
  /** Sends an event to every WebSocket client, a namespace, or a room; answers how many got it. */
  broadcast(event: string, data?: unknown, target?: BroadcastTarget): number
  /** Sends a message without envelope to one client. */
  sendRaw(clientId: number, message: RawMessage): boolean
  /** Sends a message without envelope to many clients; answers how many got it. */
  broadcastRaw(message: RawMessage, target?: BroadcastTarget): number
  joinRoom(clientId: number, room: string, namespace?: string): void
  leaveRoom(clientId: number, room: string, namespace?: string): void
  /** Moves a WebSocket client to another namespace (every client starts in `/`). */
  joinNamespace(clientId: number, namespace: string): void
  /** Closes a client: a WebSocket with close code 1000, an HTTP connection at once. */
  disconnectClient(clientId: number): void
  setClientData(clientId: number, key: string, value: unknown): void
  getClientData(clientId: number, key?: string): unknown
  /** Every open connection with its type (seed `$clientTypes`). */
  clients(): readonly { readonly id: number; readonly type: ClientType }[]
  /** Logs at debug level, only in debug mode (seed `Server::log`). */
  log(message: string): void
  /** Graceful shutdown: stop accepting, close WebSockets with 1001, finish HTTP responses. */
  close(): Promise<void>
}

interface WsClient {
  readonly client: Client
  readonly session: WsSession
  readonly ctx: SocketContext
}

/**
 * Starts a server. Rejects with an Error naming every bad option or route-table problem.
 *
 * @example
 * const server = await runServer({ port: 0, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
 * await server.close()
 */
export const runServer = async (options: ServerOptions = {}): Promise<ServerHandle> => {
  const resolved = resolveOptions(options)
  if (E.isLeft(resolved)) throw new Error(`runServer: invalid options\n  ${resolved.left.join('\n  ')}`)
  const { limits, debug } = resolved.right
  const compiledEither = compileRoutes(routes(options.routes ?? []))
  if (E.isLeft(compiledEither)) throw new Error(`runServer: invalid route table\n  ${compiledEither.left.map(describeRouteTableError).join('\n  ')}`)
  const compiled = compiledEither.right
  let cors: Cors | undefined
  if (options.cors !== false) {
    const config = decodeCorsConfig(options.cors ?? {})
    if (E.isLeft(config)) throw new Error(`runServer: invalid option cors.${config.left.field}: ${config.left.message}`)
    cors = compileCors(config.right)
  }
  const logger: Logger = guardLogger(options.logger ?? createLogger({ minLevel: debug ? 'debug' : 'info' }))
  const logDebug = (message: string, context: Readonly<Record<string, unknown>>): void => {
    if (debug) logger.debug(message, context)
  }

  const registry = createNamespaceRegistry()
  const batcher = createFlushBatcher()
  const clients = new Map<number, Client>()
  const wsClients = new Map<number, WsClient>()
  const httpSessions = new Map<number, HttpSession>()
  const sockets = new Set<Socket>()
  let nextId = 1
  let draining = false

  const onWsError: WsErrorReporter = (error, site) => logger.exception(error, { ...site })
  const onHttpError = (error: unknown, request: HttpRequest): void => logger.exception(error, { method: request.method, path: request.path })

  // A client whose unsent bytes are past the limit is too slow: drop it, keep everyone else.
  const write = (entry: WsClient, bytes: Uint8Array): void => {
    const socket = entry.client.socket
    if (socket.destroyed || socket.writableEnded) return
    if (socket.writableLength > limits.maxSendBuffer) {
      logger.warning('slow consumer disconnected: {bytes} bytes waiting', { clientId: entry.client.id, bytes: socket.writableLength })
      socket.destroy()
      return
    }
    socket.write(bytes)
  }

  const targets = (target: BroadcastTarget | undefined): Iterable<number> => {
    if (target?.room !== undefined) return registry.roomMembers(target.room, target.namespace) ?? []
    if (target?.namespace !== undefined) return registry.namespaceMembers(target.namespace) ?? []
    return wsClients.keys()
  }

  // The frame is encoded once and the same bytes go to every receiver.
  const broadcastBytes = (bytes: Uint8Array, target: BroadcastTarget | undefined): number => {
    let count = 0
    for (const id of targets(target)) {
      if (id === target?.except) continue
      const entry = wsClients.get(id)
      if (entry === undefined) continue
      write(entry, bytes)
      count += 1
    }
    return count
  }

  const rawBytes = (message: RawMessage): Uint8Array => (message._tag === 'Text' ? encodeText(message.text) : encodeBinary(message.data))
  const eventBytes = (event: string, data: unknown): Uint8Array => encodeText(encodeEvent({ event, data }))

  const sendBytes = (clientId: number, bytes: Uint8Array): boolean => {
    const entry = wsClients.get(clientId)
    if (entry === undefined) return false
    write(entry, bytes)
    return true
  }

  const disconnectClient = (clientId: number): void => {
    const entry = wsClients.get(clientId)
    if (entry !== undefined) return entry.session.close(CLOSE_CODE.NORMAL, '')
    clients.get(clientId)?.socket.destroy()
  }

  // Only a connected WebSocket client can be in a room: a stale id would never be cleaned up.
  const joinRoom = (clientId: number, room: string, namespace?: string): void => {
    if (wsClients.has(clientId)) registry.joinRoom(clientId, room, namespace)
  }

  const getClientData = (clientId: number, key?: string): unknown => {
    const data = clients.get(clientId)?.data
    if (data === undefined) return undefined
    return key === undefined ? Object.fromEntries(data) : data.get(key)
  }
  const setClientData = (clientId: number, key: string, value: unknown): void => {
    clients.get(clientId)?.data.set(key, value)
  }

  const httpContext: HttpContext = {
    send: (clientId, event, data) => void sendBytes(clientId, eventBytes(event, data)),
    broadcast: (event, data, target) => void broadcastBytes(eventBytes(event, data), target),
    clients: () => [...wsClients.keys()],
    roomMembers: (room, namespace) => registry.clientsInRoom(room, namespace),
    disconnectClient,
    getClientData,
    setClientData,
  }

  const socketContext = (client: Client, request: HttpRequest): SocketContext => ({
    clientId: client.id,
    request,
    emit: (event, data) => void sendBytes(client.id, eventBytes(event, data)),
    send: (clientId, event, data) => void sendBytes(clientId, eventBytes(event, data)),
    broadcast: (event, data, target) => void broadcastBytes(eventBytes(event, data), target),
    sendRaw: (message, clientId = client.id) => void sendBytes(clientId, rawBytes(message)),
    broadcastRaw: (message, target) => void broadcastBytes(rawBytes(message), target),
    joinRoom: (room, namespace) => joinRoom(client.id, room, namespace),
    leaveRoom: (room, namespace) => registry.leaveRoom(client.id, room, namespace),
    disconnectClient: (clientId = client.id) => disconnectClient(clientId),
    setClientData: (key, value) => setClientData(client.id, key, value),
    getClientData: (key) => getClientData(client.id, key),
  })

  const respond = (request: HttpRequest): Promise<Response> =>
    dispatchHttp(compiled, request, {
      middleware: options.httpMiddleware ?? [],
      ...(cors === undefined ? {} : { cors }),
      context: httpContext,
      onError: onHttpError,
    })

  // The WebSocket handshake (RFC 6455 §4.2): the core validates it, then the HTTP
  // middleware sees it like any request (authentication, logging) and may refuse it.
  const upgradeAccepted = errorResponse(101, 'Switching Protocols')
  const httpStack = composeHttp(options.httpMiddleware ?? [])
  // Upgrades validated by decideUpgrade, for takeOver to answer without validating twice.
  const validated = new WeakMap<HttpRequest, Upgrade>()
  const extraHeaders = new WeakMap<HttpRequest, readonly Header[]>()
  const decideUpgrade = (client: Client, request: HttpRequest): Response | undefined | Promise<Response | undefined> => {
    if (draining) return errorResponse(503, 'server shutting down')
    const checked = validateUpgrade(request, { allowedOrigins: resolved.right.allowedOrigins, protocols: resolved.right.protocols })
    if (E.isLeft(checked)) {
      logDebug('websocket handshake refused', { clientId: client.id, status: checked.left.status, reason: checked.left.reason })
      return checked.left.headers.reduce((res, [name, value]) => withHeader(res, name, value), errorResponse(checked.left.status, checked.left.reason))
    }
    validated.set(request, checked.right)
    if ((options.httpMiddleware ?? []).length === 0) return undefined
    return httpStack(request, httpContext, async () => upgradeAccepted).then(
      (res) => {
        if (res.status !== 101) return res
        // Headers a middleware added to the acceptance (a cookie, say) go out with the 101.
        if (res.headers.length > 0) extraHeaders.set(request, res.headers)
        return undefined
      },
      (error: unknown) => {
        onHttpError(error, request)
        return errorResponse(500, 'Internal Server Error')
      },
    )
  }

  const takeOver = (client: Client, request: HttpRequest, rest: Uint8Array): void => {
    const upgrade = validated.get(request)
    if (upgrade === undefined || client.socket.destroyed) return void client.socket.destroy()
    httpSessions.delete(client.id)
    client.type = 'ws'
    client.socket.write(handshakeResponse(upgrade, extraHeaders.get(request)))
    const ctx = socketContext(client, request)
    let entry: WsClient | undefined
    const session = startWsSession(client.socket, ctx, {
      limits,
      compiled,
      wsMiddleware: options.wsMiddleware ?? [],
      onError: onWsError,
      write: (bytes) => {
        if (entry !== undefined) write(entry, bytes)
      },
      hold: () => batcher.hold(client.socket),
      debug: logDebug,
    })
    entry = { client, session, ctx }
    wsClients.set(client.id, entry)
    registry.joinNamespace(client.id)
    const connected = dispatchConnect(compiled, ctx, onWsError)
    client.socket.once('close', () => {
      wsClients.delete(client.id)
      registry.leaveNamespace(client.id)
      void connected.then(() => dispatchDisconnect(compiled, ctx, onWsError))
    })
    receivers.set(client.id, session)
    if (rest.length > 0) session.receive(rest)
  }

  const receivers = new Map<number, { receive(chunk: Uint8Array): void }>()

  const accept = (socket: Socket): void => {
    if (draining || sockets.size >= limits.maxConnections) {
      logger.warning('connection refused: {reason}', { reason: draining ? 'shutting down' : 'too many connections' })
      socket.on('error', () => undefined)
      socket.resume() // read (and drop) what the client sends, so its FIN is seen and the socket closes
      setTimeout(() => socket.destroy(), limits.closeTimeoutMs).unref()
      socket.end(serializeResponse(errorResponse(503, 'Service Unavailable'), { keepAlive: false, date: httpDate() }))
      return
    }
    socket.setNoDelay(true)
    const client: Client = { id: nextId++, socket, type: 'http', data: new Map() }
    clients.set(client.id, client)
    sockets.add(socket)
    const http = startHttpSession(socket, {
      limits,
      respond,
      decideUpgrade: (request) => decideUpgrade(client, request),
      takeOver: (request, rest) => takeOver(client, request, rest),
      hold: () => batcher.hold(socket),
      draining: () => draining,
      debug: logDebug,
    })
    httpSessions.set(client.id, http)
    receivers.set(client.id, http)
    socket.on('data', (chunk: Buffer) => receivers.get(client.id)?.receive(chunk))
    socket.on('error', (error) => logDebug('socket error', { clientId: client.id, error: error.message }))
    socket.on('end', () => {
      // Half-closed by the peer: a WebSocket ends here; an HTTP client still gets the answers it is owed.
      if (client.type === 'ws') socket.end()
      else http.finish()
    })
    socket.once('close', () => {
      sockets.delete(socket)
      clients.delete(client.id)
      httpSessions.delete(client.id)
      receivers.delete(client.id)
    })
  }

  const server: Server = createServer({ noDelay: true, allowHalfOpen: true }, accept)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(resolved.right.port, resolved.right.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  server.on('error', (error) => logger.exception(error, { phase: 'listen' }))

  const sweepEvery = Math.max(10, Math.min(1000, limits.headerTimeoutMs / 4, limits.keepAliveTimeoutMs / 4, limits.requestTimeoutMs / 4))
  const sweeper = setInterval(() => {
    const now = Date.now()
    for (const session of httpSessions.values()) session.sweep(now)
  }, sweepEvery)
  sweeper.unref()
  const heartbeat = setInterval(() => {
    for (const entry of wsClients.values()) entry.session.heartbeat()
  }, limits.heartbeatIntervalMs)
  heartbeat.unref()

  const bound = server.address()
  const port = typeof bound === 'object' && bound !== null ? bound.port : resolved.right.port
  logger.info('twinport listening on {host}:{port}', { host: resolved.right.host, port })

  let closing: Promise<void> | undefined
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      draining = true
      clearInterval(sweeper)
      clearInterval(heartbeat)
      // Sockets that outlive the grace period are cut.
      const force = setTimeout(() => {
        for (const socket of sockets) socket.destroy()
      }, limits.closeTimeoutMs)
      force.unref()
      // net.Server calls back once it stopped listening and its last connection has closed.
      server.close(() => {
        clearTimeout(force)
        resolve()
      })
      for (const entry of wsClients.values()) entry.session.close(CLOSE_CODE.GOING_AWAY, 'server shutting down')
      for (const session of httpSessions.values()) session.finish()
    })
    return closing
  }

  return {
    address: { host: resolved.right.host, port },
    logger,
    namespaces: registry,
    send: (clientId, event, data) => sendBytes(clientId, eventBytes(event, data)),
    broadcast: (event, data, target) => broadcastBytes(eventBytes(event, data), target),
    sendRaw: (clientId, message) => sendBytes(clientId, rawBytes(message)),
    broadcastRaw: (message, target) => broadcastBytes(rawBytes(message), target),
    joinRoom,
    leaveRoom: (clientId, room, namespace) => registry.leaveRoom(clientId, room, namespace),
    joinNamespace: (clientId, namespace) => {
      if (wsClients.has(clientId)) registry.joinNamespace(clientId, namespace)
    },
    disconnectClient,
    setClientData,
    getClientData,
    clients: () => [...clients.values()].map((c) => ({ id: c.id, type: c.type })),
    log: (message) => {
      if (debug) logger.debug(message)
    },
    close,
  }
}
