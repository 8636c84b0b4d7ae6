/**
 * `createEngine`: the server, whatever the runtime (DESIGN §7). Every connection starts as
 * HTTP and becomes a WebSocket client when it asks for a valid upgrade. This file only
 * builds the parts from the options and the `Platform` an adapter gives it, and joins them;
 * each part is a module of its own:
 * - the connections: `ClientTable` (who is connected), `HttpConnection` / `WsConnection` (one
 *   connection in each protocol) and what each kind shares per server (`HttpShared`,
 *   `WsShared`), `Upgrades` (the handshake, decided as an `UpgradeDecision`), `Lifecycle`
 *   (accept, closed, time-outs, heartbeat, graceful close);
 * - what handlers do: `ServerOps`, `Broadcaster`, delivery and the flush batcher;
 * - recovery (`SessionRecovery`, `restoreSession`), the cluster (`wireCluster`), and
 *   permessage-deflate (`WsCompression`).
 * Must not import `node:*`, Buffer or process.
 * Over 300 lines: the wiring of every part from the options, a statement or two per part in
 * the order they depend on each other; no behaviour of its own to move out.
 */
import * as E from 'fp-ts/lib/Either.js'
import { compileCors, type Cors } from '../core/http/compile-cors.js'
import { decodeCorsConfig } from '../core/http/cors-config.js'
import { createHeadScratch } from '../core/http/head-scratch.js'
import { createSerializeCache } from '../core/http/serialize-response.js'
import type { HttpRequest } from '../core/http/types.js'
import type { Logger } from '../core/log/logger.js'
import { compileRoutes } from '../core/route/compile-routes.js'
import { describeRouteTableError } from '../core/route/route-table-error.js'
import { composeHttp } from '../core/route/compose-http.js'
import { guardUpgrades } from '../core/route/guard-upgrades.js'
import { upgradeChecksOf } from '../core/route/upgrade-middleware.js'
import type { HttpDispatchOptions } from '../core/route/dispatch-http.js'
import { createRouteMemo } from '../core/route/match-route.js'
import type { HttpContext } from '../core/route/http-context.js'
import { routes } from '../core/route/routes.js'
import type { WsErrorReporter } from '../core/route/ws-error-reporter.js'
import { createMasker } from '../core/ws/mask.js'
import { Broadcaster } from './delivery/broadcaster.js'
import type { Client } from './connection/client.js'
import { clientContexts } from './connection/client-context.js'
import { ClientTable, type Member } from './registry/client-table.js'
import { ConnectHandlers } from './connection/connect-handlers.js'
import { createDelivery } from './delivery/delivery.js'
import { createEmbeddedHttp, type EmbeddedHttp } from './http/embedded-http.js'
import { createFlushBatcher } from './delivery/flush-batcher.js'
import { guardLogger } from './options/guard-logger.js'
import { HttpShared } from './connection/http-shared.js'
import { inProcessCluster } from './cluster/in-process-cluster.js'
import { Lifecycle } from './connection/lifecycle.js'
import { AcceptWall, isDescriptorError } from './connection/accept-wall.js'
import { fitToFdLimit } from './options/fd-limit.js'
import { createNamespaceRegistry } from './registry/namespace-registry.js'
import type { Platform } from './platform.js'
import type { ServerHandle } from './server-handle.js'
import { ServerOps } from './server-ops.js'
import { ClientRequests } from './delivery/client-requests.js'
import { type ResolvedOptions, resolveOptions, type ServerOptions } from './options/server-options.js'
import { SessionRecovery } from './recovery/session-recovery.js'
import { Upgrades } from './connection/upgrades.js'
import { wireCluster } from './cluster/wire-cluster.js'
import { PresenceHub } from './presence/presence-hub.js'
import { createWsCompression, type WsCompression } from './deflate/ws-compression.js'
import { HttpCompression } from './http/http-compression.js'
import { webHttpDecoder } from './http/web-http-decoder.js'
import { WsShared } from './connection/ws-shared.js'
import { SseShared } from './connection/sse-shared.js'
import { embeddedEventStreams } from './http/embedded-event-streams.js'
import { NO_INSTRUMENTATION } from './instrumentation/instrumentation.js'
import { combineInstrumentation } from './instrumentation/combine-instrumentation.js'
import { observeServer, startMetrics } from './instrumentation/start-metrics.js'
import { startLimits } from './limit/start-limits.js'
import { errorRing } from '../core/metrics/error-ring.js'
import type { ServerHealth } from '../core/metrics/server-health.js'
import { createAdminView } from './admin/admin-view.js'
import { recordingInstrumentation, recordingLogger } from './admin/record-errors.js'

/** A running engine: what an adapter calls, and the handle's operations. */
export interface Engine<S> {
  readonly options: ResolvedOptions
  readonly logger: Logger
  /**
   * A new connection. Answers the record the adapter keeps with the socket and hands back
   * with every chunk (`client.receiver.receive`), end (`client.receiver.peerEnded`) and
   * close (`closed`); or `undefined` when the connection is refused (past `maxConnections`
   * or shutting down): the engine has queued a 503 and ended it, and the adapter should
   * keep reading (and dropping) the peer's bytes so its FIN is seen.
   */
  accept(socket: S): Client<S> | undefined
  /** The connection is gone (both sides closed, or destroyed). */
  closed(client: Client<S>): void
  /**
   * The runtime failed to accept a connection (an accept error it reports): out of file
   * descriptors (EMFILE, ENFILE) is counted and logged once per interval with the counts
   * (`AcceptWall`); anything else is logged as it comes.
   */
  acceptFailed(error: unknown): void
  /**
   * The operations of a running server, less what only the adapter knows (its address).
   * `close` stops the heartbeat and time-outs, closes WebSockets with 1001, finishes HTTP
   * answers, cuts what outlives the grace period, and resolves once no connection is left;
   * the adapter stops listening. The adapter adds what only it knows: its address, and
   * the TLS context.
   */
  readonly handle: Omit<ServerHandle, 'address' | 'setSecureContext'>
  /**
   * The HTTP side without a socket, for a host that owns the HTTP layer (`attach` to a Node
   * server, `toFetch`): the same routes, middleware, CORS and error answers.
   */
  readonly embedded: EmbeddedHttp
}

/**
 * Switches for specs and measurements, not for applications (not in `ServerOptions`): each
 * is per engine, so two servers in one process never see each other's.
 */
export interface EngineInternals {
  /** `false`: every WebSocket frame goes through the general decoder (default `true`). */
  readonly smallFrames?: boolean
  /** `false`: client frames are unmasked in JavaScript, never WebAssembly SIMD (default `true`). */
  readonly simdMasking?: boolean
}

/**
 * Builds the engine. Throws an Error naming every bad option or route-table problem (the
 * adapter's `runServer` lets it reject its promise).
 *
 * @example
 * const engine = createEngine({ routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] }, platform)
 */
export const createEngine = <S>(options: ServerOptions, platform: Platform<S>, internals: EngineInternals = {}): Engine<S> => {
  const { io, timers, frames } = platform
  const resolved = resolveOptions(options)
  if (E.isLeft(resolved)) throw new Error(`runServer: invalid options\n  ${resolved.left.join('\n  ')}`)
  // maxConnections follows the open-file limit where the platform reads it (options/fd-limit.ts).
  const fdLimit = platform.openFileLimit?.()
  const fit = fitToFdLimit(resolved.right.limits, options.limits?.maxConnections !== undefined, fdLimit)
  const settings: ResolvedOptions = fit.limits === resolved.right.limits ? resolved.right : { ...resolved.right, limits: fit.limits }
  const { limits, debug } = settings
  const compiledEither = compileRoutes(routes(options.routes ?? []))
  if (E.isLeft(compiledEither)) throw new Error(`runServer: invalid route table\n  ${compiledEither.left.map(describeRouteTableError).join('\n  ')}`)
  const compiled = compiledEither.right
  let cors: Cors | undefined
  if (options.cors !== false) {
    const config = decodeCorsConfig(options.cors ?? {})
    if (E.isLeft(config)) throw new Error(`runServer: invalid option cors.${config.left.field}: ${config.left.message}`)
    cors = compileCors(config.right)
  }
  // The last errors (log lines, error events) for the admin page: this server's own ring.
  const errors = errorRing()
  const logger: Logger = recordingLogger(guardLogger(options.logger ?? platform.defaultLogger(debug)), errors, () => timers.now())
  const logDebug = (message: string, context: Readonly<Record<string, unknown>>): void => {
    if (debug) logger.debug(message, context)
  }
  const onWsError: WsErrorReporter = (error, site) => logger.exception(error, { ...site })
  const onHttpError = (error: unknown, request: HttpRequest): void => logger.exception(error, { method: request.method, path: request.path })

  // The rest of the cluster (no other node by default); told when rooms open and close.
  const cluster = options.cluster ?? inProcessCluster()
  // The server's metrics (on unless `metrics: false`), and the instrumentation the engine calls.
  const metrics = startMetrics(options.metrics, options.cluster?.nodeId, new Set(compiled.events.keys()), timers)
  const instrumentation = recordingInstrumentation(combineInstrumentation(metrics?.instrumentation ?? NO_INSTRUMENTATION, options.instrumentation ?? NO_INSTRUMENTATION), errors, () => timers.now())
  instrumentation.bind?.({ registry: metrics?.registry, node: cluster.nodeId })
  const registry = createNamespaceRegistry(cluster)
  const batcher = createFlushBatcher(io, timers)
  const table = new ClientTable<S>()
  // Told when a client is gone for good: `requests` is made below, and called only later.
  const handlers = new ConnectHandlers(compiled, onWsError, (clientId) => {
    requests.gone(clientId)
    presence.clientGone(clientId)
  })
  const recovery = new SessionRecovery<S>({
    settings: settings.recovery,
    raw: compiled.raw !== undefined,
    table,
    registry,
    handlers,
    io,
    timers,
    frames,
    limits,
    logger,
    debug: logDebug,
    nodeId: cluster.nodeId,
    instrumentation,
  })
  const delivery = createDelivery<S>({
    io,
    frames,
    maxSendBuffer: limits.maxSendBuffer,
    registry,
    connections: table.ws,
    parked: recovery.parked,
    hold: (socket) => {
      if (broadcaster.busy) batcher.hold(socket)
    },
    afterIo: (run) => timers.afterIo(run),
    now: () => timers.now(),
    onSlowConsumer: (outlet, bytes) => {
      instrumentation.slowConsumer()
      logger.warning('slow consumer disconnected: {bytes} bytes waiting', { clientId: (outlet as Member<S>).ctx.clientId, bytes })
    },
  })
  const broadcaster = new Broadcaster<S>(delivery, cluster, recovery, timers, logger, instrumentation)
  const requests = new ClientRequests<S>(delivery, frames, timers, (clientId) => table.ws.has(clientId) || recovery.parked.has(clientId))
  const ops = new ServerOps<S>(table, registry, delivery, broadcaster, recovery, io, frames, requests, instrumentation)
  // Rate limits, connection limits and the abuse log (the `rateLimits` option).
  const { limiter, gate, abuse } = startLimits(options.rateLimits, cluster, table, timers, logger)
  // Another node's post for an event stream of this one (`eventStreams` is made below, and called only later).
  const clusterHandle = wireCluster({ cluster, registry, table, delivery, broadcaster, ops, frames, logger, timers, post: (sid, text) => eventStreams.deliver(sid, text), nodeLeft: (node) => presence.nodeLeft(node) })
  // Presence topics (`server.presence`), kept the same on every node through the cluster.
  const presence = new PresenceHub({
    adapter: cluster,
    on: (event, handler) => clusterHandle.on(event, handler),
    isClient: (clientId) => table.ws.has(clientId),
    sendToRoom: (room, event, data) => void ops.sendToLocalRoom(room, event, data),
    timers,
    logger,
  })
  const health = (): ServerHealth => ({ draining: table.draining, cluster: options.cluster === undefined ? 'alone' : (options.cluster.linkState?.() ?? 'up'), node: cluster.nodeId })
  // What the admin page reads (`ctx.admin`): every node's when a cluster adapter is in use.
  const admin = createAdminView({ table, registry, io, metrics: metrics?.registry, ring: errors, health, now: () => timers.now(), cluster: options.cluster === undefined ? undefined : clusterHandle })

  const httpContext: HttpContext = {
    send: (clientId, event, data) => void ops.send(clientId, event, data),
    broadcast: (event, data, target) => void ops.broadcast(event, data, target),
    clients: () => [...table.ws.keys()],
    roomMembers: (room, namespace) => registry.clientsInRoom(room, namespace),
    disconnectClient: (clientId, options) => ops.disconnectClient(clientId, options),
    getClientData: (clientId, key) => ops.getClientData(clientId, key),
    setClientData: (clientId, key, value) => ops.setClientData(clientId, key, value),
    ...(platform.files === undefined ? {} : { files: platform.files }),
    now: () => timers.now(),
    limiter,
    ...(metrics === undefined ? {} : { metrics: metrics.registry }),
    health,
    admin,
  }
  if (metrics !== undefined) observeServer(metrics, { table, registry, parked: recovery.parked, io })
  // The HTTP middleware, composed once: for the dispatch and for the upgrade's decision alike.
  // Without middleware there is no stack: the dispatch answers synchronously when the handler does.
  const httpMiddleware = options.httpMiddleware ?? []
  const httpStack = httpMiddleware.length === 0 ? undefined : composeHttp(httpMiddleware)
  // What an event stream about to open must pass, as an upgrade passes the middleware.
  const upgradeChecks = upgradeChecksOf(httpMiddleware)
  // Upgrades also go through the table's upgrade guards, innermost (after the application's
  // middleware); plain requests never do, so a table with guards costs them nothing.
  const guard = guardUpgrades(compiled.guards)
  const upgradeStack = guard === undefined ? httpStack : composeHttp([...httpMiddleware, guard])
  const dispatchOptions: HttpDispatchOptions = {
    ...(httpStack === undefined ? {} : { stack: httpStack }),
    memo: createRouteMemo(),
    ...(cors === undefined ? {} : { cors }),
    context: httpContext,
    onError: onHttpError,
    // Request bodies of routes declared with `decompress`: the runtime's decoders, else the web ones.
    decoding: { decoder: platform.decompression?.() ?? webHttpDecoder(), maxBody: limits.maxBody },
  }

  // permessage-deflate (RFC 7692), when on and the runtime has a codec.
  const frameLimits = { maxPayload: limits.maxFramePayload, requireMask: true }
  const compression = startCompression(settings, platform, frameLimits, logger, logDebug)
  const wsShared = new WsShared<S>(platform, limits, frameLimits, internals.smallFrames ?? true, createMasker({ simd: internals.simdMasking ?? true }), compiled, options.wsMiddleware ?? [], onWsError, delivery, ops, batcher, logger, debug, abuse)
  const upgrades = new Upgrades<S>({
    table,
    io,
    options: {
      allowedOrigins: settings.allowedOrigins,
      protocols: settings.protocols,
      ...(platform.acceptKey === undefined ? {} : { acceptKey: platform.acceptKey }),
    },
    stack: upgradeStack,
    httpContext,
    onHttpError,
    compression,
    recovery,
    registry,
    handlers,
    wsShared,
    debug: logDebug,
    timers,
    closeTimeoutMs: limits.closeTimeoutMs,
    gate,
    abuse,
  })
  // The parser's scratch and the serialiser's pool and caches: this server's alone.
  const eventStreams = new SseShared<S>({
    io, timers, limits, table, registry, handlers, recovery, delivery, logger, debugOn: debug,
    compiled, wsMiddleware: options.wsMiddleware ?? [], onError: onWsError, allowedOrigins: settings.allowedOrigins, requests, cluster, instrumentation,
    httpContext, onHttpError, upgradeChecks,
  })
  const httpCompression = startHttpCompression(settings, platform, logger)
  const httpShared = new HttpShared<S>(platform, limits, createHeadScratch(), createSerializeCache(), compiled, dispatchOptions, upgrades, eventStreams, table, batcher, logger, debug, httpCompression, abuse, instrumentation)
  if (fit.warning !== undefined) logger.warning(fit.warning, { maxConnections: limits.maxConnections, fdLimit })
  const wall = new AcceptWall(timers, logger, () => table.all.size, limits.maxConnections, fdLimit)
  const lifecycle = new Lifecycle<S>({ table, io, timers, limits, logger, Clients: clientContexts<S>(ops, wsShared, limiter, (topic, options) => presence.topic(topic, options), admin), httpShared, registry, recovery, handlers, compression, cluster, wall, gate, abuse, ...(metrics === undefined ? {} : { probe: metrics.probe }) })

  const embedded = createEmbeddedHttp({
    compiled,
    dispatch: dispatchOptions,
    planOf: (method, path) => httpShared.bodyPlan(method, path),
    maxBody: limits.maxBody,
    logger,
    draining: () => table.draining,
    post: (body) => eventStreams.post(body),
    // An event stream under a host (`attach`, `toFetch`): a client of the registry on a pull outlet.
    openStream: embeddedEventStreams<S>({
      platform,
      adopt: (socket, remoteAddress) => lifecycle.adopt(socket, remoteAddress),
      closed: (client) => lifecycle.closed(client),
      streams: eventStreams,
    }),
    instrumentation,
    now: () => timers.now(),
  })

  return {
    options: settings,
    logger,
    embedded,
    accept: (socket) => lifecycle.accept(socket),
    closed: (client) => lifecycle.closed(client),
    acceptFailed: (error) => {
      if (isDescriptorError(error)) wall.hit('descriptors')
      else logger.exception(error, { phase: 'accept' })
    },
    handle: {
      logger,
      namespaces: registry,
      cluster: clusterHandle,
      send: (clientId, event, data) => ops.send(clientId, event, data),
      broadcast: (event, data, target) => ops.broadcast(event, data, target),
      sendRaw: (clientId, message) => ops.sendRaw(clientId, message),
      broadcastRaw: (message, target) => ops.broadcastRaw(message, target),
      joinRoom: (clientId, room, namespace) => ops.joinRoom(clientId, room, namespace),
      leaveRoom: (clientId, room, namespace) => ops.leaveRoom(clientId, room, namespace),
      joinNamespace: (clientId, namespace) => ops.joinNamespace(clientId, namespace),
      disconnectClient: (clientId, options) => ops.disconnectClient(clientId, options),
      setClientData: (clientId, key, value) => ops.setClientData(clientId, key, value),
      getClientData: (clientId, key) => ops.getClientData(clientId, key),
      requestClient: (clientId, event, data, options) => ops.requestClient(clientId, event, data, options),
      requestRoom: (room, event, data, options) => ops.requestRoom(room, event, data, options),
      presence: (topic, options) => presence.topic(topic, options),
      clients: () => [...table.all.values()].map((c) => ({ id: c.id, type: c.type })),
      log: (message) => {
        if (debug) logger.debug(message)
      },
      close: () => {
        presence.close()
        return lifecycle.close()
      },
    },
  }
}

// The server's permessage-deflate, or `undefined` when it is off, or on in a runtime that
// brought no codec (the extension is then declined, which the log says once).
const startCompression = <S>(
  resolved: ResolvedOptions,
  platform: Platform<S>,
  frameLimits: { readonly maxPayload: number; readonly requireMask: boolean },
  logger: Logger,
  debug: (message: string, context: Readonly<Record<string, unknown>>) => void,
): WsCompression | undefined => {
  const config = resolved.perMessageDeflate
  if (!config.enabled) return undefined
  if (platform.deflate === undefined) {
    logger.warning('perMessageDeflate is on, but this runtime has no DEFLATE codec: the extension is declined')
    return undefined
  }
  return createWsCompression({ config, codec: platform.deflate(config), frameLimits, debug })
}

// The server's HTTP compression, or `undefined` when it is off, or on in a runtime that brought
// no codec (answers then leave uncompressed, which the log says once).
const startHttpCompression = <S>(resolved: ResolvedOptions, platform: Platform<S>, logger: Logger): HttpCompression | undefined => {
  const config = resolved.compress
  if (!config.enabled) return undefined
  if (platform.compression === undefined) {
    logger.warning('compress is on, but this runtime has no compression codec: answers are sent uncompressed')
    return undefined
  }
  const codec = platform.compression(config)
  const missing = config.codings.filter((c) => !codec.codings.includes(c))
  if (missing.length > 0) logger.debug('compress: this runtime cannot produce {codings}: not offered', { codings: missing.join(', ') })
  const compression = new HttpCompression(config, codec, (error) => logger.exception(error, { phase: 'compressing an answer' }))
  return compression.codings.length === 0 ? undefined : compression
}
