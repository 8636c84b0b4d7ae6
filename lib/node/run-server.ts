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
import { compactRequest } from '../core/http/compact-request.js'
import { dispatchHttpNow, type HttpDispatchOptions } from '../core/route/dispatch-http.js'
import type { HttpContext } from '../core/route/http-context.js'
import { routes } from '../core/route/routes.js'
import type { WsErrorReporter } from '../core/route/ws-error-reporter.js'
import { CLOSE_CODE } from '../core/ws/close-code.js'
import { handshakeResponse } from '../core/ws/handshake-response.js'
import { type Upgrade, type UpgradeOptions, validateUpgrade } from '../core/ws/validate-upgrade.js'
import type { Client } from './client.js'
import type { ServerHandle } from './server-handle.js'
import { createFlushBatcher } from './flush-batcher.js'
import { httpDate } from './http-date.js'
import { nativeAcceptKey } from './native-accept-key.js'
import { HttpSession, type HttpShared } from './http-session.js'
import { guardLogger } from './guard-logger.js'
import { createLogger } from './log/create-logger.js'
import { createNamespaceRegistry } from './namespace-registry.js'
import { createDelivery } from './delivery.js'
import { encodeEventFrame, encodeRawFrame } from './outgoing.js'
import { resolveOptions, type ServerOptions } from './server-options.js'
import { WsSession, type WsShared } from './ws-session.js'
import { ClientContext, type ClientOps } from './client-context.js'

// The client a socket belongs to, so the socket's listeners can be shared functions.
const CLIENT = Symbol('twinport.client')
type ClientSocket = Socket & { [CLIENT]?: Client }

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
  const wsClients = new Map<number, WsSession>()
  const httpSessions = new Map<number, HttpSession>()
  let nextId = 1
  let draining = false

  const onWsError: WsErrorReporter = (error, site) => logger.exception(error, { ...site })
  const onHttpError = (error: unknown, request: HttpRequest): void => logger.exception(error, { method: request.method, path: request.path })

  const delivery = createDelivery({
    maxSendBuffer: limits.maxSendBuffer,
    registry,
    sessions: wsClients,
    onSlowConsumer: (socket, bytes) =>
      logger.warning('slow consumer disconnected: {bytes} bytes waiting', { clientId: (socket as ClientSocket)[CLIENT]?.id, bytes }),
  })

  const disconnectClient = (clientId: number): void => {
    const session = wsClients.get(clientId)
    if (session !== undefined) return session.close(CLOSE_CODE.NORMAL, '')
    clients.get(clientId)?.socket.destroy()
  }

  // Only a connected WebSocket client can be in a room: a stale id would never be cleaned up.
  const joinRoom = (clientId: number, room: string, namespace?: string): void => {
    if (wsClients.has(clientId)) registry.joinRoom(clientId, room, namespace)
  }
  const leaveRoom = (clientId: number, room: string, namespace?: string): void => registry.leaveRoom(clientId, room, namespace)

  const getClientData = (clientId: number, key?: string): unknown => {
    const client = clients.get(clientId)
    if (client === undefined) return undefined
    if (key === undefined) return Object.fromEntries(client.data ?? [])
    return client.data?.get(key)
  }
  const setClientData = (clientId: number, key: string, value: unknown): void => {
    const client = clients.get(clientId)
    if (client !== undefined) (client.data ??= new Map()).set(key, value)
  }

  const ops: ClientOps = {
    send: (clientId, event, data) => delivery.send(clientId, encodeEventFrame(event, data)),
    broadcast: (event, data, target) => delivery.broadcast(encodeEventFrame(event, data), target),
    sendRaw: (clientId, message) => delivery.send(clientId, encodeRawFrame(message)),
    broadcastRaw: (message, target) => delivery.broadcast(encodeRawFrame(message), target),
    joinRoom,
    leaveRoom,
    disconnectClient,
    setClientData,
    getClientData,
  }

  const httpContext: HttpContext = {
    send: (clientId, event, data) => void ops.send(clientId, event, data),
    broadcast: (event, data, target) => void ops.broadcast(event, data, target),
    clients: () => [...wsClients.keys()],
    roomMembers: (room, namespace) => registry.clientsInRoom(room, namespace),
    disconnectClient,
    getClientData,
    setClientData,
  }

  const dispatchOptions: HttpDispatchOptions = {
    middleware: options.httpMiddleware ?? [],
    ...(cors === undefined ? {} : { cors }),
    context: httpContext,
    onError: onHttpError,
  }
  const respond = (request: HttpRequest): Response | Promise<Response> => dispatchHttpNow(compiled, request, dispatchOptions)

  // The WebSocket handshake (RFC 6455 §4.2): the core validates it, then the HTTP
  // middleware sees it like any request (authentication, logging) and may refuse it.
  const upgradeAccepted = errorResponse(101, 'Switching Protocols')
  const upgradeOptions: UpgradeOptions = { allowedOrigins: resolved.right.allowedOrigins, protocols: resolved.right.protocols, acceptKey: nativeAcceptKey }
  const httpStack = composeHttp(options.httpMiddleware ?? [])
  // Upgrades validated by decideUpgrade, for takeOver to answer without validating twice.
  const validated = new WeakMap<HttpRequest, Upgrade>()
  const extraHeaders = new WeakMap<HttpRequest, readonly Header[]>()
  const decideUpgrade = (client: Client, request: HttpRequest): Response | undefined | Promise<Response | undefined> => {
    if (draining) return errorResponse(503, 'server shutting down')
    const checked = validateUpgrade(request, upgradeOptions)
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

  const wsShared: WsShared = {
    limits,
    frameLimits: { maxPayload: limits.maxFramePayload, requireMask: true },
    messageLimits: { maxMessage: limits.maxMessage },
    compiled,
    wsMiddleware: options.wsMiddleware ?? [],
    onError: onWsError,
    write: delivery.write,
    hold: (socket) => batcher.hold(socket),
    debug: logDebug,
  }
  // Connect handlers still running, so that disconnect handlers wait for them.
  const connecting = new Map<number, Promise<unknown>>()

  const takeOver = (client: Client, request: HttpRequest, rest: Uint8Array): void => {
    const upgrade = validated.get(request)
    const extra = extraHeaders.get(request)
    // The request lives on as ctx.request: drop what only the handshake needed.
    validated.delete(request)
    extraHeaders.delete(request)
    if (upgrade === undefined || client.socket.destroyed) return void client.socket.destroy()
    httpSessions.delete(client.id)
    client.type = 'ws'
    client.socket.write(handshakeResponse(upgrade, extra))
    const session = new WsSession(client.socket, new ClientContext(client.id, compactRequest(request), ops), wsShared)
    client.receiver = session
    wsClients.set(client.id, session)
    registry.joinNamespace(client.id)
    const connected = dispatchConnect(compiled, session.ctx, onWsError)
    connecting.set(client.id, connected)
    void connected.then(() => connecting.delete(client.id))
    if (rest.length > 0) session.receive(rest)
  }

  // The socket listeners are shared by every connection; `this` is the socket.
  // The core sees a plain Uint8Array view of each chunk: every `subarray` it takes is then
  // the engine's own, not Buffer's slower override (and handlers get what the types say).
  function onSocketData(this: ClientSocket, chunk: Buffer): void {
    this[CLIENT]?.receiver.receive(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length))
  }
  function onSocketEnd(this: ClientSocket): void {
    this[CLIENT]?.receiver.peerEnded()
  }
  function onSocketError(this: ClientSocket, error: Error): void {
    logDebug('socket error', { clientId: this[CLIENT]?.id, error: error.message })
  }
  function onSocketClose(this: ClientSocket): void {
    const client = this[CLIENT]
    if (client === undefined) return
    clients.delete(client.id)
    httpSessions.delete(client.id)
    const session = wsClients.get(client.id)
    if (session === undefined) return
    session.closed()
    wsClients.delete(client.id)
    registry.leaveNamespace(client.id)
    const connected = connecting.get(client.id)
    if (connected === undefined) void dispatchDisconnect(compiled, session.ctx, onWsError)
    else void connected.then(() => dispatchDisconnect(compiled, session.ctx, onWsError))
  }

  // One record per server. A session finds its client through its socket: `accept` sets it
  // before the socket's first byte can be read.
  const clientOf = (session: HttpSession): Client => (session.socket as ClientSocket)[CLIENT] as Client
  const httpShared: HttpShared = {
    limits,
    httpLimits: { maxRequestLine: limits.maxRequestLine, maxHeaderBytes: limits.maxHeaderBytes, maxHeaders: limits.maxHeaders, maxBody: limits.maxBody },
    respond,
    decideUpgrade: (session, request) => decideUpgrade(clientOf(session), request),
    takeOver: (session, request, rest) => takeOver(clientOf(session), request, rest),
    hold: (socket) => batcher.hold(socket),
    draining: () => draining,
    debug: logDebug,
  }

  const accept = (socket: ClientSocket): void => {
    if (draining || clients.size >= limits.maxConnections) {
      logger.warning('connection refused: {reason}', { reason: draining ? 'shutting down' : 'too many connections' })
      socket.on('error', () => undefined)
      socket.resume() // read (and drop) what the client sends, so its FIN is seen and the socket closes
      setTimeout(() => socket.destroy(), limits.closeTimeoutMs).unref()
      socket.end(serializeResponse(errorResponse(503, 'Service Unavailable'), { keepAlive: false, date: httpDate() }))
      return
    }
    socket.setNoDelay(true)
    const id = nextId++
    const http = new HttpSession(socket, httpShared)
    const client: Client = { id, socket, type: 'http', receiver: http, data: undefined }
    socket[CLIENT] = client
    clients.set(id, client)
    httpSessions.set(id, http)
    socket.on('data', onSocketData)
    socket.on('end', onSocketEnd)
    socket.on('error', onSocketError)
    socket.on('close', onSocketClose)
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
    for (const session of wsClients.values()) session.heartbeat()
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
        for (const client of clients.values()) client.socket.destroy()
      }, limits.closeTimeoutMs)
      force.unref()
      // net.Server calls back once it stopped listening and its last connection has closed.
      server.close(() => {
        clearTimeout(force)
        resolve()
      })
      for (const session of wsClients.values()) session.close(CLOSE_CODE.GOING_AWAY, 'server shutting down')
      for (const session of httpSessions.values()) session.finish()
    })
    return closing
  }

  return {
    address: { host: resolved.right.host, port },
    logger,
    namespaces: registry,
    send: ops.send,
    broadcast: ops.broadcast,
    sendRaw: ops.sendRaw,
    broadcastRaw: ops.broadcastRaw,
    joinRoom,
    leaveRoom,
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
