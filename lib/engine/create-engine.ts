/**
 * `createEngine`: the server, whatever the runtime (DESIGN §7). Every connection starts as
 * HTTP and becomes a WebSocket client when it asks for a valid upgrade. The engine owns the
 * client registry, namespaces and rooms, delivery and backpressure, time-outs, the
 * heartbeat and graceful close; it reaches sockets, the clock and timers only through the
 * `Platform` an adapter gives it, and every protocol decision is the pure core's.
 * Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import { compileCors, type Cors } from '../core/http/compile-cors.js'
import { decodeCorsConfig } from '../core/http/cors-config.js'
import { errorResponse } from '../core/http/response.js'
import { withHeader } from '../core/http/response-updates.js'
import { createHeadScratch } from '../core/http/head-scratch.js'
import { createSerializeCache, serializeResponse } from '../core/http/serialize-response.js'
import type { Header, HttpRequest, Response } from '../core/http/types.js'
import type { Logger } from '../core/log/logger.js'
import { composeHttp } from '../core/route/compose-http.js'
import { compileRoutes } from '../core/route/compile-routes.js'
import { describeRouteTableError } from '../core/route/route-table-error.js'
import { dispatchConnect } from '../core/route/dispatch-connect.js'
import { dispatchDisconnect } from '../core/route/dispatch-disconnect.js'
import { compactRequest } from '../core/http/compact-request.js'
import { dispatchHttpNow, type HttpDispatchOptions } from '../core/route/dispatch-http.js'
import { createRouteMemo } from '../core/route/match-route.js'
import type { HttpContext } from '../core/route/http-context.js'
import { routes } from '../core/route/routes.js'
import type { WsErrorReporter } from '../core/route/ws-error-reporter.js'
import type { BroadcastTarget } from '../core/route/socket-context.js'
import { CLOSE_CODE } from '../core/ws/close-code.js'
import { encodeEvent } from '../core/ws/envelope.js'
import { handshakeResponse } from '../core/ws/handshake-response.js'
import { CLOSE_RECONNECTING, readSessionQuery, type ResyncReason, sessionMessage } from '../core/ws/session-wire.js'
import type { Sequence } from '../core/cluster/cluster-message.js'
import type { DeflateAgreement } from '../core/ws/extensions/accept-deflate-offer.js'
import { type Upgrade, type UpgradeOptions, validateUpgrade } from '../core/ws/validate-upgrade.js'
import type { Client, Receiver } from './client.js'
import type { ClusterTarget } from './cluster-adapter.js'
import { createClusterHandle } from './cluster-handle.js'
import { inProcessCluster } from './in-process-cluster.js'
import { type ClientContext, type ClientOps, clientContexts } from './client-context.js'
import { ClientSession, type FrameSource, newSessionId } from './client-session.js'
import { cursorKey, cursorTarget } from './cursor-key.js'
import { loadSession } from './load-session.js'
import { mergeTail, type TailRead } from './merge-tail.js'
import { createRecoveryJournal, type SessionState } from './recovery-journal.js'
import type { ReadRoomSince } from './recovery-store.js'
import { within } from './within.js'
import { createDelivery } from './delivery.js'
import { createFlushBatcher } from './flush-batcher.js'
import { frameText } from './frame-text.js'
import { guardLogger } from './guard-logger.js'
import { httpDate } from './http-date.js'
import { HttpSession, type HttpShared } from './http-session.js'
import { createNamespaceRegistry } from './namespace-registry.js'
import { encodeRawFrame } from './outgoing.js'
import type { Platform } from './platform.js'
import type { ServerHandle } from './server-handle.js'
import { type ResolvedOptions, resolveOptions, type ServerOptions } from './server-options.js'
import { createWsCompression, type WsCompression } from './ws-compression.js'
import { WsSession, type WsShared } from './ws-session.js'

// Without a faster reader from the platform, ASCII is read as the UTF-8 it also is.
const asciiDecoder = new TextDecoder()
const decodeAsciiPortably = (bytes: Uint8Array, from: number, to: number): string => asciiDecoder.decode(bytes.subarray(from, to))

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
   * The operations of a running server, less what only the adapter knows (its address).
   * `close` stops the heartbeat and time-outs, closes WebSockets with 1001, finishes HTTP
   * answers, cuts what outlives the grace period, and resolves once no connection is left;
   * the adapter stops listening. The adapter adds what only it knows: its address, and
   * the TLS context.
   */
  readonly handle: Omit<ServerHandle, 'address' | 'setSecureContext'>
}

/**
 * Switches for specs and measurements, not for applications (not in `ServerOptions`): each
 * is per engine, so two servers in one process never see each other's.
 */
export interface EngineInternals {
  /** `false`: every WebSocket frame goes through the general decoder (default `true`). */
  readonly smallFrames?: boolean
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
  const logger: Logger = guardLogger(options.logger ?? platform.defaultLogger(debug))
  const logDebug = (message: string, context: Readonly<Record<string, unknown>>): void => {
    if (debug) logger.debug(message, context)
  }

  // The rest of the cluster (no other node by default); told when rooms open and close.
  const cluster = options.cluster ?? inProcessCluster()
  const registry = createNamespaceRegistry(cluster)
  const batcher = createFlushBatcher(io, timers)
  const clients = new Map<number, ClientContext<S>>()
  // The WebSocket clients are the clients whose receiver is a WebSocket session: found through
  // `clients`, without a second map entry per connection (an idle server holds 10,000 of them).
  const wsOf = (client: Client<S> | undefined): WsSession<S> | undefined => (client?.receiver instanceof WsSession ? client.receiver : undefined)
  function* wsIds(): Generator<number, void, undefined> {
    for (const client of clients.values()) if (client.receiver instanceof WsSession) yield client.id
  }
  const wsClients = {
    get: (clientId: number): WsSession<S> | undefined => wsOf(clients.get(clientId)),
    has: (clientId: number): boolean => wsOf(clients.get(clientId)) !== undefined,
    keys: wsIds,
  }
  const httpSessions = new Map<number, HttpSession<S>>()
  // Client sessions (opt-in): every session by id, and those whose client is away, by client id.
  const recovery = resolved.right.recovery
  const books = new Map<string, ClientSession>()
  const parked = new Map<number, ClientSession>()
  // With a shared store (recovery.store): the journal that writes sessions there, and the
  // source of the broadcast being delivered now (its target and place, for the cursors).
  const store = recovery?.store
  let source: FrameSource | undefined
  const journal =
    recovery === undefined || store === undefined
      ? undefined
      : createRecoveryJournal({
          store,
          timers,
          logger,
          nodeId: cluster.nodeId,
          windowMs: recovery.windowMs,
          flushMs: recovery.flushMs,
          maxPendingBytes: recovery.maxPendingBytes,
          timeoutMs: recovery.loadTimeoutMs,
          state: (book) => stateOf(book),
          source: () => source,
          moved: (book) => moved(book),
        })
  let nextId = 1
  let draining = false

  const onWsError: WsErrorReporter = (error, site) => logger.exception(error, { ...site })
  const onHttpError = (error: unknown, request: HttpRequest): void => logger.exception(error, { method: request.method, path: request.path })

  const delivery = createDelivery<S>({
    io,
    frames,
    maxSendBuffer: limits.maxSendBuffer,
    registry,
    sessions: wsClients,
    parked,
    hold: (socket) => {
      if (busyTurn) batcher.hold(socket)
    },
    afterIo: (run) => timers.afterIo(run),
    onSlowConsumer: (outlet, bytes) =>
      logger.warning('slow consumer disconnected: {bytes} bytes waiting', { clientId: (outlet as WsSession<S>).ctx.clientId, bytes }),
  })

  const disconnectClient = (clientId: number): void => {
    const away = parked.get(clientId)
    if (away !== undefined) return expire(away)
    const session = wsClients.get(clientId)
    if (session !== undefined) return session.close(CLOSE_CODE.NORMAL, '')
    const client = clients.get(clientId)
    if (client !== undefined) io.destroy(client.socket)
  }

  // Only a connected WebSocket client can be in a room: a stale id would never be cleaned up.
  const joinRoom = (clientId: number, room: string, namespace?: string): void => {
    if (!wsClients.has(clientId)) return
    registry.joinRoom(clientId, room, namespace)
    if (journal !== undefined) recorded(clientId, { namespace: namespace ?? '/', room })
  }
  const leaveRoom = (clientId: number, room: string, namespace?: string): void => {
    registry.leaveRoom(clientId, room, namespace)
    if (journal !== undefined) recorded(clientId, undefined, { namespace: namespace ?? '/', room })
  }

  const getClientData = (clientId: number, key?: string): unknown => {
    const client = clients.get(clientId)
    if (client === undefined) return undefined
    if (key === undefined) return Object.fromEntries(client.data ?? [])
    return client.data?.get(key)
  }
  const setClientData = (clientId: number, key: string, value: unknown): void => {
    const client = clients.get(clientId)
    if (client === undefined) return
    ;(client.data ??= new Map()).set(key, value)
    if (journal !== undefined) recorded(clientId)
  }

  // ---- sessions in the shared store (recovery.store) -------------------------------------

  const bookOf = (clientId: number): ClientSession | undefined => wsClients.get(clientId)?.book ?? parked.get(clientId)
  // A session's state changed: written at the next flush; a target it now receives gets a
  // cursor (the place of the target's last broadcast), one it left loses it.
  const recorded = (clientId: number, joined?: { namespace: string; room?: string }, left?: { namespace: string; room: string }): void => {
    const book = bookOf(clientId)
    if (book === undefined || journal === undefined) return
    if (left !== undefined) book.cursors?.delete(cursorKey(left))
    if (joined !== undefined) placeCursor(book, cursorKey(joined))
    journal.changed(book)
  }
  const placeCursor = (book: ClientSession, key: string): void => {
    const cursors = (book.cursors ??= new Map())
    if (cursors.has(key) || store?.targetPosition === undefined) return
    store.targetPosition(cursorTarget(key)).then(
      (position) => {
        const now = cursors.get(key)
        if (now !== undefined && !before(now, position)) return
        if (books.get(book.sid) !== book) return
        cursors.set(key, position)
        journal?.changed(book)
      },
      (error: unknown) => logDebug('recovery: no place for {target} yet: {error}', { target: key, error: String(error) }),
    )
  }
  const stateOf = (book: ClientSession): SessionState | undefined => {
    const namespace = registry.namespaceOf(book.clientId)
    if (namespace === undefined || books.get(book.sid) !== book) return undefined
    const all = registry.roomsOfClient(book.clientId)
    const other = all.filter((r) => r.namespace !== namespace)
    const data = parked.get(book.clientId) === book ? book.data : clients.get(book.clientId)?.data
    return {
      namespace,
      rooms: all.filter((r) => r.namespace === namespace).map((r) => r.room),
      ...(other.length === 0 ? {} : { otherRooms: other }),
      data: Object.fromEntries(data ?? []),
    }
  }
  // Another node holds the session now (its client came back there): this one lets it go.
  const moved = (book: ClientSession): void => {
    if (books.get(book.sid) !== book) return
    logDebug('recovery: session {sid} moved to another node', { sid: book.sid })
    if (parked.get(book.clientId) === book) return expire(book, false)
    books.delete(book.sid)
    wsClients.get(book.clientId)?.close(CLOSE_CODE.NORMAL, 'session moved')
  }

  // A broadcast is encoded once: the same frame bytes go to the cluster adapter for the other
  // nodes (which write them as they are) and to the local receivers. `except` is local.
  // Clients with a session get an envelope numbered (its `text`), the rest the same frame.
  const everywhere: ClusterTarget = {}
  // The first broadcast of an I/O turn is written at once; from the second on, receivers'
  // writes are held to the end of the turn (the flush batcher), so a burst of broadcasts
  // reaches each receiver in one write instead of one per message.
  let broadcastsThisTurn = 0
  let busyTurn = false
  const fanOut = (frame: Uint8Array, target: BroadcastTarget | ClusterTarget | undefined, text: string | undefined): number => {
    broadcastsThisTurn += 1
    if (broadcastsThisTurn === 1) {
      timers.afterIo(() => {
        broadcastsThisTurn = 0
        busyTurn = false
      })
    } else busyTurn = true
    return delivery.broadcast(frame, target, text)
  }
  // The other nodes first: their writes start while this node writes its own.
  const broadcastFrame = (frame: Uint8Array, target: BroadcastTarget | undefined, text: string | undefined): number => {
    const to: ClusterTarget = target === undefined ? everywhere : { namespace: target.namespace, room: target.room }
    try {
      cluster.publish(frame, to, text !== undefined)
    } catch (error) {
      logger.exception(error, { phase: 'cluster publish' })
    }
    if (journal === undefined || text === undefined) return fanOut(frame, target, text)
    // Its place in the target's log is not known yet: recovery knows it by its bytes.
    source = { key: cursorKey(to), origin: cluster.nodeId, frame }
    try {
      return fanOut(frame, target, text)
    } finally {
      source = undefined
    }
  }
  // Another node's envelope: its text is needed only when this node has sessions to number.
  const fromCluster = (frame: Uint8Array, target: ClusterTarget, envelope: boolean, seq?: Sequence): number => {
    const text = envelope && (books.size > 0 || parked.size > 0) ? frameText(frame) : undefined
    if (journal === undefined || text === undefined) return fanOut(frame, target, text)
    source = { key: cursorKey(target), origin: '', ...(seq === undefined || seq.n === 0 ? {} : { position: seq }) }
    try {
      return fanOut(frame, target, text)
    } finally {
      source = undefined
    }
  }

  const ops: ClientOps = {
    send: (clientId, event, data) => {
      const text = encodeEvent({ event, data })
      return delivery.send(clientId, frames.text(text), text)
    },
    broadcast: (event, data, target) => {
      const text = encodeEvent({ event, data })
      return broadcastFrame(frames.text(text), target, text)
    },
    sendRaw: (clientId, message) => delivery.send(clientId, encodeRawFrame(frames, message)),
    broadcastRaw: (message, target) => broadcastFrame(encodeRawFrame(frames, message), target, undefined),
    joinRoom,
    leaveRoom,
    disconnectClient,
    setClientData,
    getClientData,
  }
  // The server's clients: one object per connection, its handlers' context once it upgrades.
  const Clients = clientContexts<S>(ops)

  // Another node's request about a client of this one: done when it is a WebSocket client here.
  const ifWsClient = (clientId: number, run: () => void): boolean => {
    if (!wsClients.has(clientId)) return false
    run()
    return true
  }
  const clusterSide = createClusterHandle({
    adapter: cluster,
    registry,
    localClients: () => wsClients.keys(),
    sendFrame: (clientId, frame, text) => delivery.send(clientId, frame, text),
    eventFrame: (event, data) => {
      const text = encodeEvent({ event, data })
      return { frame: frames.text(text), text }
    },
    rawFrame: (message) => encodeRawFrame(frames, message),
    disconnect: (clientId) => ifWsClient(clientId, () => disconnectClient(clientId)),
    join: (clientId, room, namespace) => ifWsClient(clientId, () => joinRoom(clientId, room, namespace)),
    leave: (clientId, room, namespace) => ifWsClient(clientId, () => leaveRoom(clientId, room, namespace)),
    logger,
  })
  // Frames from other nodes are written to local sockets as they came: no JSON on the way.
  cluster.attach({
    deliver: fromCluster,
    deliverTo: (clientId, frame, envelope) => delivery.send(clientId, frame, envelope && (books.size > 0 || parked.size > 0) ? frameText(frame) : undefined),
    answer: clusterSide.answer,
    logger,
    timers,
  })

  const httpContext: HttpContext = {
    send: (clientId, event, data) => void ops.send(clientId, event, data),
    broadcast: (event, data, target) => void ops.broadcast(event, data, target),
    clients: () => [...wsClients.keys()],
    roomMembers: (room, namespace) => registry.clientsInRoom(room, namespace),
    disconnectClient,
    getClientData,
    setClientData,
  }

  // The HTTP middleware, composed once: for the dispatch and for the upgrade's decision alike.
  const httpMiddleware = options.httpMiddleware ?? []
  const httpStack = composeHttp(httpMiddleware)
  const dispatchOptions: HttpDispatchOptions = {
    // Without middleware the dispatch answers synchronously when the handler does.
    ...(httpMiddleware.length === 0 ? {} : { stack: httpStack }),
    memo: createRouteMemo(),
    ...(cors === undefined ? {} : { cors }),
    context: httpContext,
    onError: onHttpError,
  }
  const respond = (request: HttpRequest): Response | Promise<Response> => dispatchHttpNow(compiled, request, dispatchOptions)

  // The WebSocket handshake (RFC 6455 §4.2): the core validates it, then the HTTP
  // middleware sees it like any request (authentication, logging) and may refuse it.
  const upgradeAccepted = errorResponse(101, 'Switching Protocols')
  const upgradeOptions: UpgradeOptions = {
    allowedOrigins: resolved.right.allowedOrigins,
    protocols: resolved.right.protocols,
    ...(platform.acceptKey === undefined ? {} : { acceptKey: platform.acceptKey }),
  }
  // Upgrades validated by decideUpgrade, for takeOver to answer without validating twice.
  const validated = new WeakMap<HttpRequest, Upgrade>()
  const extraHeaders = new WeakMap<HttpRequest, readonly Header[]>()
  // permessage-deflate (RFC 7692), when on and the runtime has a codec; agreements by request.
  const frameLimits = { maxPayload: limits.maxFramePayload, requireMask: true }
  const compression = startCompression(resolved.right, platform, frameLimits, logger, logDebug)
  const agreements = new WeakMap<HttpRequest, DeflateAgreement>()
  // A resume of a session this node does not hold waits for the store (within its bound).
  const decideUpgrade = (clientId: number, request: HttpRequest): Response | undefined | Promise<Response | undefined> => {
    const decided = decideUpgradeHere(clientId, request)
    if (journal === undefined || (decided !== undefined && !(decided instanceof Promise))) return decided
    const asked = compiled.raw === undefined ? readSessionQuery(request.rawQuery) : undefined
    const resume = asked?.resume
    if (resume === undefined || books.has(resume.sid)) return decided
    return Promise.resolve(decided).then((res) => {
      if (res !== undefined) return res
      const client = clients.get(clientId)
      // Gone while a middleware decided: takeOver destroys its socket.
      return client === undefined ? undefined : restoreRemote(client, request, resume.sid, resume.lastSeq)
    })
  }
  const decideUpgradeHere = (clientId: number, request: HttpRequest): Response | undefined | Promise<Response | undefined> => {
    if (draining) return errorResponse(503, 'server shutting down')
    const checked = validateUpgrade(request, upgradeOptions)
    if (E.isLeft(checked)) {
      logDebug('websocket handshake refused', { clientId, status: checked.left.status, reason: checked.left.reason })
      return checked.left.headers.reduce((res, [name, value]) => withHeader(res, name, value), errorResponse(checked.left.status, checked.left.reason))
    }
    if (compression !== undefined) {
      const negotiated = compression.negotiate(request, clientId)
      if (E.isLeft(negotiated)) return negotiated.left
      if (negotiated.right !== undefined) agreements.set(request, negotiated.right)
    }
    validated.set(request, checked.right)
    if (httpMiddleware.length === 0) return undefined
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

  // ---- resuming a session this node does not hold, from the store -------------------------

  // Upgrades whose resume the store could not serve, and why (takeOver reads it).
  const remote = new WeakMap<HttpRequest, ResyncReason>()
  const refuse = (request: HttpRequest, reason: ResyncReason, error?: unknown): undefined => {
    remote.set(request, reason)
    if (reason === 'unavailable') {
      logger.warning('recovery: the session store did not serve a resume ({error}); the client gets a fresh session', { error: error instanceof Error ? error.message : String(error) })
    } else logDebug('recovery: a resume from the store needs a resync: {reason}', { reason })
    return undefined
  }
  // The client went away while its session was restored: undone here (it will come back).
  const abandon = (book: ClientSession): void => {
    parked.delete(book.clientId)
    if (books.get(book.sid) === book) books.delete(book.sid)
    registry.leaveNamespace(book.clientId)
  }

  /**
   * Restores session `sid` from the store for this client: its record and recorded messages;
   * then, as a parked session of this node (in its namespace and rooms, holding what reaches
   * it), the broadcasts it missed while no node held it, from the target logs after its
   * cursors; what was held joins them once. takeOver then resumes it like a local one.
   * Every failure, or the store's silence past `loadTimeoutMs`, is a fresh session with a resync.
   */
  const restoreRemote = async (client: ClientContext<S>, request: HttpRequest, sid: string, lastSeq: number): Promise<undefined> => {
    const settings = recovery as NonNullable<typeof recovery>
    const st = store as NonNullable<typeof store>
    const loaded = await loadSession(st, timers, sid, lastSeq, settings.loadTimeoutMs)
    const gone = (): boolean => clients.get(client.id) !== client || io.isClosed(client.socket) || draining
    if (loaded._tag === 'Resync') return refuse(request, loaded.reason, loaded.error)
    // Restored here meanwhile by another attempt of the same client: resumed as a local one.
    if (gone() || books.has(sid)) return undefined
    const { record } = loaded
    const book = new ClientSession(sid, client.id, settings)
    book.restore(loaded.kept, record.lastSeq)
    book.recorder = journal
    book.cursors = new Map(Object.entries(record.cursors ?? {}))
    book.held = []
    book.data = new Map(Object.entries(record.data))
    books.set(sid, book)
    parked.set(client.id, book)
    registry.joinNamespace(client.id, record.namespace)
    for (const room of record.rooms) registry.joinRoom(client.id, room, record.namespace)
    for (const r of record.otherRooms ?? []) registry.joinRoom(client.id, r.room, r.namespace)
    const undo = (reason: ResyncReason, error?: unknown): undefined => {
      if (parked.get(client.id) === book) abandon(book)
      return gone() ? undefined : refuse(request, reason, error)
    }
    try {
      // From now on the store refuses the old node's writes of it (if that node still runs).
      await within(timers, settings.loadTimeoutMs, (journal as NonNullable<typeof journal>).claim(book), () => true)
      const tails = await within(timers, settings.loadTimeoutMs, readTails(book), (): TailRead[] | 'gap' | 'late' => 'late')
      if (parked.get(client.id) !== book || gone()) return undo('unavailable')
      if (tails === 'late') return undo('unavailable', new Error(`no answer within ${settings.loadTimeoutMs} ms`))
      if (tails === 'gap') return undo('gap')
      const held = book.held ?? []
      book.held = undefined
      for (const item of mergeTail(tails, held, { formerNode: record.node, thisNode: cluster.nodeId })) {
        source = item.source
        book.number(item.text)
      }
      source = undefined
      // Past every entry read, also those not numbered for it (its former node's, raw ones):
      // a later resume elsewhere must not hand them out again, nor look for them after a trim.
      for (const { key, frames: read } of tails) {
        const end = read[read.length - 1]?.seq
        const now = book.cursors.get(key)
        if (end !== undefined && (now === undefined || before(now, end))) book.cursors.set(key, end)
      }
      logDebug('recovery: session {sid} restored from the store', { sid, node: record.node ?? '' })
      return undefined
    } catch (error) {
      source = undefined
      return undo('unavailable', error)
    }
  }

  // The target logs after the session's cursors, or 'gap' when one cannot be read from its place.
  const readTails = async (book: ClientSession): Promise<TailRead[] | 'gap'> => {
    if (store?.readTargetSince === undefined) return []
    const read = store.readTargetSince.bind(store)
    const keys = [cursorKey({}), ...registry.roomsOfClient(book.clientId).map((r) => cursorKey(r))]
    const namespace = registry.namespaceOf(book.clientId)
    if (namespace !== undefined) keys.splice(1, 0, cursorKey({ namespace }))
    const cursors = book.cursors ?? new Map<string, Sequence>()
    if (keys.some((key) => !cursors.has(key))) return 'gap'
    const answers: ReadRoomSince[] = await Promise.all(keys.map((key) => read(cursorTarget(key), cursors.get(key) as Sequence)))
    if (answers.some((a) => a._tag === 'Resync')) return 'gap'
    return answers.map((a, i) => ({ key: keys[i] as string, frames: a._tag === 'Frames' ? a.frames : [] }))
  }

  const wsShared: WsShared<S> = {
    io,
    timers,
    frames,
    limits,
    frameLimits,
    smallFrames: internals.smallFrames ?? true,
    messageLimits: { maxMessage: limits.maxMessage },
    compiled,
    wsMiddleware: options.wsMiddleware ?? [],
    onError: onWsError,
    write: delivery.write,
    sendRaw: (clientId, message) => void ops.sendRaw(clientId, message),
    sendToSession: (clientId, text) => void delivery.sendToSession(clientId, text),
    flushOut: delivery.flushOut,
    admit: delivery.admit,
    allocate: platform.allocate,
    decodeAscii: platform.decodeAscii ?? decodeAsciiPortably,
    hold: (socket) => batcher.hold(socket),
    debug: logDebug,
    exception: (error, context) => logger.exception(error, context),
  }
  // Connect handlers still running, so that disconnect handlers wait for them.
  const connecting = new Map<number, Promise<unknown>>()

  const takeOver = (client: ClientContext<S>, request: HttpRequest, rest: Uint8Array): void => {
    const upgrade = validated.get(request)
    const extra = extraHeaders.get(request)
    const agreement = agreements.get(request)
    // The request lives on as ctx.request: drop what only the handshake needed.
    validated.delete(request)
    extraHeaders.delete(request)
    agreements.delete(request)
    if (upgrade === undefined || io.isClosed(client.socket)) return io.destroy(client.socket)
    httpSessions.delete(client.id)
    // From here on the client is a WebSocket client, and its handlers' context.
    client.request = compactRequest(request)
    const answer: Header[] | undefined = agreement === undefined ? undefined : [['Sec-WebSocket-Extensions', agreement.header]]
    io.write(client.socket, handshakeResponse(upgrade, answer === undefined ? extra : [...(extra ?? []), ...answer]))
    // Sessions number envelopes: a table with a raw-message route has none, so it has no sessions.
    const asked = recovery === undefined || compiled.raw !== undefined ? undefined : readSessionQuery(request.rawQuery)
    const fromStore = remote.get(request)
    remote.delete(request)
    const resumed = asked?.resume === undefined ? undefined : resume(client, asked.resume.sid, asked.resume.lastSeq)
    // Why a resume failed: the store's answer, or this node's (unknown here, or too far behind).
    const resync: ResyncReason | undefined =
      asked?.resume === undefined || resumed !== undefined ? undefined : (fromStore ?? (books.has(asked.resume.sid) ? 'gap' : 'unknown_session'))
    const session = new WsSession(client, wsShared)
    if (agreement !== undefined) session.deflate = (compression as WsCompression).attach(session, agreement.params)
    client.receiver = session
    if (resumed === undefined) registry.joinNamespace(client.id)
    if (asked !== undefined && recovery !== undefined) {
      const book = resumed?.book ?? new ClientSession(newSessionId(), client.id, recovery)
      books.set(book.sid, book)
      session.book = book
      // A client that reads batches (tp_b) gets its envelopes of a turn in one message, and may send batches.
      if (asked.batch !== undefined) session.batch = asked.batch
      if (journal !== undefined && resumed === undefined) {
        book.recorder = journal
        placeCursor(book, cursorKey({}))
        placeCursor(book, cursorKey({ namespace: registry.namespaceOf(client.id) ?? '/' }))
        journal.changed(book)
      }
      // The session message first, unnumbered; then what the client missed, in order.
      io.write(client.socket, frames.text(sessionMessage(book.sid, resumed !== undefined, limits.heartbeatIntervalMs, resync, asked.batch === undefined ? undefined : limits.maxMessage)))
      for (const text of resumed?.missed ?? []) io.write(client.socket, frames.text(text))
    }
    // A recovered client is the same client: its connect handlers ran when it first came.
    if (resumed === undefined) {
      const connected = dispatchConnect(compiled, session.ctx, onWsError)
      connecting.set(client.id, connected)
      void connected.then(() => connecting.delete(client.id))
    }
    if (rest.length > 0) session.receive(rest)
  }

  // The serialiser's pool, caches and last-answer memo: this server's alone.
  const answers = createSerializeCache()
  const httpShared: HttpShared<S> = {
    io,
    timers,
    allocate: platform.allocate,
    limits,
    httpLimits: { maxRequestLine: limits.maxRequestLine, maxHeaderBytes: limits.maxHeaderBytes, maxHeaders: limits.maxHeaders, maxBody: limits.maxBody },
    heads: createHeadScratch(),
    answers,
    respond,
    // A session's id is its client's: `accept` registers both before the first byte is read.
    decideUpgrade: (session, request) => decideUpgrade(session.clientId, request),
    takeOver: (session, request, rest) => {
      const client = clients.get(session.clientId)
      // Gone while a middleware decided (its socket closed): there is nothing to take over.
      if (client === undefined) return io.destroy(session.socket)
      takeOver(client, request, rest)
    },
    hold: (socket) => batcher.hold(socket),
    // Logged like a handler error, with the route: the client only saw a 500.
    onUnserializable: (request, error) =>
      logger.error('the answer to {method} {path} is not JSON: {reason}', { method: request.method, path: request.path, reason: error instanceof Error ? error.message : String(error) }),
    draining: () => draining,
    debug: logDebug,
  }

  let drained: (() => void) | undefined

  const accept = (socket: S): ClientContext<S> | undefined => {
    if (draining || clients.size >= limits.maxConnections) {
      logger.warning('connection refused: {reason}', { reason: draining ? 'shutting down' : 'too many connections' })
      timers.setTimeout(() => io.destroy(socket), limits.closeTimeoutMs)
      io.end(socket, serializeResponse(errorResponse(503, 'Service Unavailable'), { keepAlive: false, date: httpDate(timers.now()) }, answers))
      return undefined
    }
    const id = nextId++
    const http = new HttpSession(socket, httpShared, id)
    const client = new Clients(id, socket, http)
    clients.set(id, client)
    httpSessions.set(id, http)
    return client
  }

  // The disconnect handlers run once a client is gone for good (after its connect handlers).
  const runDisconnect = (clientId: number, ctx: WsSession<S>['ctx']): void => {
    const connected = connecting.get(clientId)
    if (connected === undefined) void dispatchDisconnect(compiled, ctx, onWsError)
    else void connected.then(() => dispatchDisconnect(compiled, ctx, onWsError))
  }

  // A parked session ends for good: its rooms, its data, its number; then onDisconnect. The
  // store forgets it too, unless it lives on there (this server shuts down, or it moved).
  function expire(book: ClientSession, forget = true): void {
    if (forget) journal?.forget(book)
    if (book.expiry !== undefined) timers.clearTimeout(book.expiry)
    parked.delete(book.clientId)
    books.delete(book.sid)
    registry.leaveNamespace(book.clientId)
    const ctx = awayCtx.get(book)
    awayCtx.delete(book)
    if (ctx !== undefined) runDisconnect(book.clientId, ctx)
  }
  // The context of a parked session's last connection, for its disconnect handlers.
  const awayCtx = new Map<ClientSession, WsSession<S>['ctx']>()

  const disconnected = (client: ClientContext<S>, session: WsSession<S>): void => {
    const clientId = client.id
    session.closed()
    // No longer a WebSocket client (its disconnect handlers may still read its data).
    client.receiver = GONE
    const book = session.book
    // A link that broke (or a client saying it comes back) keeps its session for the window;
    // a deliberate close, or the server's own, ends it.
    const code = session.peerCloseCode
    const keep = book !== undefined && recovery !== undefined && !draining && !session.serverClosed && (code === undefined || code === CLOSE_RECONNECTING || code === CLOSE_CODE.ABNORMAL)
    if (keep) {
      // Away, not gone: no disconnect handlers unless the window ends first.
      book.data = client.data
      parked.set(clientId, book)
      awayCtx.set(book, session.ctx)
      book.expiry = timers.setTimeout(() => expire(book), recovery.windowMs)
      journal?.away(book)
      return
    }
    if (book !== undefined && books.get(book.sid) === book) {
      // A server shutting down leaves its sessions in the store: their clients resume elsewhere.
      if (draining && session.peerCloseCode !== CLOSE_CODE.NORMAL) {
        book.data = client.data
        journal?.away(book)
      } else journal?.forget(book)
      books.delete(book.sid)
    }
    registry.leaveNamespace(clientId)
    runDisconnect(clientId, session.ctx)
  }

  /**
   * A client asks to resume session `sid` having seen up to `lastSeq`: when the session is
   * known and everything after `lastSeq` is still kept, the new connection takes the old
   * client id (rooms and namespace are kept under it), its data, and what it missed.
   */
  const resume = (client: ClientContext<S>, sid: string, lastSeq: number): { readonly book: ClientSession; readonly missed: readonly string[] } | undefined => {
    const book = books.get(sid)
    const missed = book?.since(lastSeq)
    if (book === undefined || missed === undefined) return undefined
    const live = wsClients.get(book.clientId)
    if (live !== undefined) {
      // The old link is dead but not yet noticed: this connection replaces it (rooms stay;
      // the old socket's close finds its id taken and changes nothing).
      const old = clients.get(book.clientId)
      clients.delete(book.clientId)
      live.closed()
      if (old !== undefined) {
        book.data = old.data
        io.destroy(old.socket)
      }
    }
    if (book.expiry !== undefined) timers.clearTimeout(book.expiry)
    book.expiry = undefined
    parked.delete(book.clientId)
    awayCtx.delete(book)
    journal?.back(book)
    clients.delete(client.id)
    client.id = book.clientId
    client.data = book.data
    book.data = undefined
    clients.set(client.id, client)
    return { book, missed }
  }

  const closed = (gone: Client<S>): void => {
    const client = clients.get(gone.id)
    if (client !== gone || client === undefined) return
    // A client gone while its session was restored from the store: it comes back later.
    const restoring = client.type === 'http' ? parked.get(client.id) : undefined
    if (restoring !== undefined) abandon(restoring)
    httpSessions.delete(client.id)
    const session = wsOf(client)
    if (session !== undefined) disconnected(client, session)
    clients.delete(client.id)
    if (draining && clients.size === 0) drained?.()
  }

  const sweepEvery = Math.max(10, Math.min(1000, limits.headerTimeoutMs / 4, limits.keepAliveTimeoutMs / 4, limits.requestTimeoutMs / 4))
  const sweeper = timers.setInterval(() => {
    const now = timers.now()
    for (const session of httpSessions.values()) session.sweep(now)
  }, sweepEvery)
  const heartbeat = timers.setInterval(() => {
    for (const client of clients.values()) wsOf(client)?.heartbeat()
  }, limits.heartbeatIntervalMs)

  let closing: Promise<void> | undefined
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      draining = true
      // Clients away within their window are not coming back to this process (the store
      // keeps their sessions for another node, when there is one).
      for (const book of [...parked.values()]) expire(book, false)
      timers.clearInterval(sweeper)
      timers.clearInterval(heartbeat)
      // Sockets that outlive the grace period are cut.
      const force = timers.setTimeout(() => {
        for (const client of clients.values()) io.destroy(client.socket)
      }, limits.closeTimeoutMs)
      drained = () => {
        timers.clearTimeout(force)
        compression?.close()
        // The cluster last: the rooms closed as their clients left; now leave the cluster.
        void (journal?.close() ?? Promise.resolve()).then(() => cluster.close()).then(resolve, (error: unknown) => {
          logger.exception(error, { phase: 'cluster close' })
          resolve()
        })
      }
      if (clients.size === 0) return drained()
      for (const client of clients.values()) wsOf(client)?.close(CLOSE_CODE.GOING_AWAY, 'server shutting down')
      for (const session of httpSessions.values()) session.finish()
    })
    return closing
  }

  return {
    options: resolved.right,
    logger,
    accept,
    closed,
    handle: {
      logger,
      namespaces: registry,
      cluster: clusterSide.handle,
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
    },
  }
}

// The receiver of a WebSocket client that is gone: its socket is closed, nothing reaches it.
const GONE: Receiver = { receive: () => undefined, peerEnded: () => undefined }

const before = (a: Sequence, b: Sequence): boolean => a.epoch < b.epoch || (a.epoch === b.epoch && a.n < b.n)

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
