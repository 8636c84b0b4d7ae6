/**
 * `SessionRecovery`: the client sessions of one server (docs/protocol.md, "Sessions,
 * numbering and recovery"; opt-in with the `recovery` option): every session by id, the
 * sessions whose client is away (parked, by client id, until their window ends), a session
 * opened or resumed at an upgrade, parked or ended when its connection goes, and, with a
 * shared store (`recovery.store`), the journal that writes them there, their cursors (the
 * place of each target's last broadcast they were sent) and the origin of a broadcast
 * (`FrameSource`) that delivery passes on to `ClientSession.number`. Restoring a session
 * another node held is restore-session.ts. Without the option the maps stay empty and
 * nothing here runs on a message's way. Must not import `node:*`, Buffer or process.
 * Over 300 lines on purpose: one lifecycle (open, resume, park, expire) over the same maps;
 * what stands alone has left (restore-session.ts, recovery-journal.ts, merge-tail.ts).
 */
import type { Sequence } from '../../core/cluster/cluster-message.js'
import { sequenceBefore } from '../../core/cluster/sequence-before.js'
import type { Logger } from '../../core/log/logger.js'
import type { HttpRequest } from '../../core/http/types.js'
import { CLOSE_CODE } from '../../core/ws/close-code.js'
import { CLOSE_RECONNECTING, readSessionQuery, type ResyncReason, type SessionRequest, sessionMessage } from '../../core/ws/session-wire.js'
import type { ClusterTarget } from '../cluster/cluster-adapter.js'
import type { ClientContext } from '../connection/client-context.js'
import { ClientSession, type FrameSource, newSessionId } from './client-session.js'
import type { ClientTable } from '../registry/client-table.js'
import type { ConnectHandlers } from '../connection/connect-handlers.js'
import { cursorKey, cursorTarget } from './cursor-key.js'
import { frameHash } from './frame-hash.js'
import type { Limits } from '../options/limits.js'
import type { NamespaceRegistry } from '../registry/namespace-registry.js'
import type { FrameWriter, SocketIo, Timers } from '../platform.js'
import { createRecoveryJournal, type RecoveryJournal, type SessionState } from './recovery-journal.js'
import type { RecoveryStore } from './recovery-store.js'
import type { ResolvedRecovery } from '../options/server-options.js'
import type { UpgradeAccepted } from '../connection/upgrade-decision.js'
import type { WsConnection } from '../connection/ws-connection.js'
import type { SseConnection } from '../connection/sse-connection.js'
import type { Member } from '../registry/client-table.js'
import { headerValue } from '../../core/http/header-value.js'
import { encodeSseEvent } from '../../core/sse/encode-sse-event.js'
import { readSessionCursor, sessionCursorId } from '../../core/sse/session-cursor.js'
import type { Instrumentation } from '../instrumentation/instrumentation.js'
import { within } from './within.js'

// How long after a failed ask a session's cursor is asked for again (ms): the journal's
// longest back-off, so a store that is down is not asked more often for cursors than for writes.
const CURSOR_RETRY_MS = 1000

// How long a resume of a session parked here waits for the store to say who holds it (ms, at
// most `loadTimeoutMs`): past it the copy here is resumed.
const HOLDER_CHECK_MS = 500

export interface SessionRecoveryDeps<S> {
  /** The `recovery` option resolved; `undefined`: sessions are off. */
  readonly settings: ResolvedRecovery | undefined
  /** The route table has a raw-message route: no envelopes, so no sessions. */
  readonly raw: boolean
  readonly table: ClientTable<S>
  readonly registry: NamespaceRegistry
  readonly handlers: ConnectHandlers
  readonly io: SocketIo<S>
  readonly timers: Timers
  readonly frames: FrameWriter
  readonly limits: Limits
  readonly logger: Logger
  readonly debug: (message: string, context: Readonly<Record<string, unknown>>) => void
  /** This node's id (the cluster adapter's). */
  readonly nodeId: string
  /** Told how each resume asked for ended (`Instrumentation`); the no-op when absent. */
  readonly instrumentation?: Instrumentation
}

/** A session taken back by a new connection, and what its client missed. */
export interface Resumed {
  readonly session: ClientSession
  readonly missed: readonly string[]
}

export class SessionRecovery<S> {
  /** Every session this node holds, by session id. */
  readonly sessions = new Map<string, ClientSession>()
  /** Sessions whose client is away (within the window), by client id: what they miss is kept. */
  readonly parked = new Map<number, ClientSession>()
  /** With a shared store: the journal that writes sessions there. */
  readonly journal: RecoveryJournal | undefined
  readonly store: RecoveryStore | undefined
  readonly settings: ResolvedRecovery | undefined
  // The context of a parked session's last connection, for its disconnect handlers.
  private readonly awayCtx = new Map<ClientSession, Member<S>['ctx']>()

  // How a resume ended, for the metrics (and a tracer).
  private reportResume(resumed: boolean, resync: string | undefined): void {
    const instrumentation = this.deps.instrumentation
    if (instrumentation === undefined) return
    instrumentation.sessionResume(resumed ? 'resumed' : resync === 'gap' ? 'gap' : resync === 'unknown_session' ? 'unknown_session' : 'other')
  }

  constructor(readonly deps: SessionRecoveryDeps<S>) {
    const { settings, timers, logger, nodeId } = deps
    this.settings = settings
    this.store = settings?.store
    this.journal =
      settings === undefined || this.store === undefined
        ? undefined
        : createRecoveryJournal({
            store: this.store,
            timers,
            logger,
            nodeId,
            windowMs: settings.windowMs,
            flushMs: settings.flushMs,
            maxPendingBytes: settings.maxPendingBytes,
            timeoutMs: settings.loadTimeoutMs,
            state: (session) => this.stateOf(session),
            moved: (session) => this.moved(session),
          })
  }

  /** Whether any session is held here: only then is another node's envelope read as text. */
  get numbering(): boolean {
    return this.sessions.size > 0 || this.parked.size > 0
  }

  /** The session of client `clientId`, connected or away. */
  sessionOf(clientId: number): ClientSession | undefined {
    return this.deps.table.ws.get(clientId)?.session ?? this.parked.get(clientId)
  }

  /** What an upgrade asks for (`tp_v=1`…), when sessions are on and the table numbers envelopes. */
  asked(request: HttpRequest): SessionRequest | undefined {
    return this.settings === undefined || this.deps.raw ? undefined : readSessionQuery(request.rawQuery)
  }

  // ---- a broadcast's origin, for the cursors (with a store only) --------------------------

  /** A broadcast this node starts: its place in the target's log is not known yet, so recovery knows it by its bytes. */
  localSource(to: ClusterTarget, frame: Uint8Array): FrameSource | undefined {
    return this.journal === undefined ? undefined : { key: cursorKey(to), origin: this.deps.nodeId, frame, hash: frameHash(frame) }
  }

  /** Another node's broadcast, with its place in the target's log when the adapter knows it. */
  remoteSource(target: ClusterTarget, seq: Sequence | undefined): FrameSource | undefined {
    if (this.journal === undefined) return undefined
    return { key: cursorKey(target), origin: '', ...(seq === undefined || seq.n === 0 ? {} : { position: seq }) }
  }

  // ---- state changes, written at the next flush (with a store only) -----------------------

  /**
   * Client `clientId`'s state changed: written at the next flush; a target it now receives
   * gets a cursor (the place of the target's last broadcast), one it left loses it.
   */
  changed(clientId: number, joined?: { namespace: string; room?: string }, left?: { namespace: string; room: string }): void {
    const journal = this.journal
    if (journal === undefined) return
    const session = this.sessionOf(clientId)
    if (session === undefined) return
    if (left !== undefined) session.cursors?.delete(cursorKey(left))
    if (joined !== undefined) this.placeCursor(session, cursorKey(joined))
    journal.changed(session)
  }

  /**
   * Asks the store where target `key`'s log is now, for a session that starts receiving it.
   * A store that fails is asked again every `CURSOR_RETRY_MS` while the session is held here
   * and has no cursor there: without one, a resume on another node cannot read what the
   * session missed from that log and is refused (`gap`, cause `no_cursor`; the soak saw it
   * for sessions opened on a node cut off from Redis, bench/RESULTS.md "Session 12: soak").
   */
  placeCursor(session: ClientSession, key: string): void {
    const cursors = (session.cursors ??= new Map())
    const store = this.store
    if (cursors.has(key) || store?.targetPosition === undefined) return
    store.targetPosition(cursorTarget(key)).then(
      (position) => {
        const now = cursors.get(key)
        if (now !== undefined && !sequenceBefore(now, position)) return
        if (this.sessions.get(session.sid) !== session) return
        cursors.set(key, position)
        this.journal?.changed(session)
      },
      (error: unknown) => {
        this.deps.debug('recovery: no place for {target} yet: {error}', { target: key, error: String(error) })
        this.deps.timers.setTimeout(() => {
          if (this.sessions.get(session.sid) === session && !this.deps.table.draining) this.placeCursor(session, key)
        }, CURSOR_RETRY_MS)
      },
    )
  }

  // What the journal writes of a session: its namespace, rooms and data now.
  private stateOf(session: ClientSession): SessionState | undefined {
    const { registry, table } = this.deps
    const namespace = registry.namespaceOf(session.clientId)
    if (namespace === undefined || this.sessions.get(session.sid) !== session) return undefined
    const all = registry.roomsOfClient(session.clientId)
    const other = all.filter((r) => r.namespace !== namespace)
    const data = this.parked.get(session.clientId) === session ? session.data : table.all.get(session.clientId)?.data
    return {
      namespace,
      rooms: all.filter((r) => r.namespace === namespace).map((r) => r.room),
      ...(other.length === 0 ? {} : { otherRooms: other }),
      data: Object.fromEntries(data ?? []),
    }
  }

  // Another node holds the session now (its client came back there): this one lets it go.
  private moved(session: ClientSession): void {
    if (this.sessions.get(session.sid) !== session) return
    const parked = this.parked.get(session.clientId) === session
    this.deps.debug('recovery: session {sid} moved to another node', { sid: session.sid, parked })
    if (parked) return this.expire(session, false)
    this.sessions.delete(session.sid)
    this.deps.table.ws.get(session.clientId)?.close(CLOSE_CODE.NORMAL, 'session moved')
  }

  /**
   * Whether session `sid`, parked here, is held by another node now by the store's record: its
   * client resumed there and this node was not told, since it learns of a move only when a
   * write of the session is refused, and writes nothing for a parked session that nothing is
   * numbered for (bench/RESULTS.md "Session 13: soak"). Then this copy is stale: it is let go
   * (as when a write is refused) and true is the answer, for the resume to come from the store.
   * False when the record names this node or none, the session is connected here, or the store
   * fails or is silent past `HOLDER_CHECK_MS` (the copy here is the best there is, and a client
   * coming back to its own node is not kept waiting by a store that is away).
   */
  async staleHere(sid: string): Promise<boolean> {
    const session = this.sessions.get(sid)
    const store = this.store
    const journal = this.journal
    if (session === undefined || store === undefined || journal === undefined || this.parked.get(session.clientId) !== session) return false
    const settings = this.settings as ResolvedRecovery
    const record = await within(this.deps.timers, Math.min(settings.loadTimeoutMs, HOLDER_CHECK_MS), store.loadSession(sid), () => undefined).catch(() => undefined)
    const holder = record?.node
    // Resumed or let go meanwhile: nothing to undo here.
    if (holder === undefined || holder === this.deps.nodeId || this.sessions.get(sid) !== session || this.parked.get(session.clientId) !== session) return false
    journal.release(session)
    this.moved(session)
    return true
  }

  // ---- a connection arrives ---------------------------------------------------------------

  /**
   * A client asks to resume session `sid` having seen up to `lastSeq`: when the session is
   * known and everything after `lastSeq` is still kept, the new connection takes the old
   * client id (rooms and namespace are kept under it), its data, and what it missed.
   */
  resume(client: ClientContext<S>, sid: string, lastSeq: number): Resumed | undefined {
    const { table, io, timers } = this.deps
    const session = this.sessions.get(sid)
    const missed = session?.since(lastSeq)
    if (session === undefined || missed === undefined) return undefined
    const live = table.ws.get(session.clientId)
    if (live !== undefined) {
      // The old link is dead but not yet noticed: this connection replaces it (rooms stay;
      // the old socket's close finds its id taken and changes nothing).
      const old = table.all.get(session.clientId)
      table.all.delete(session.clientId)
      live.closed()
      if (old !== undefined) {
        session.data = old.data
        io.destroy(old.socket)
      }
    }
    if (session.expiry !== undefined) timers.clearTimeout(session.expiry)
    session.expiry = undefined
    this.parked.delete(session.clientId)
    this.awayCtx.delete(session)
    this.journal?.back(session)
    table.all.delete(client.id)
    client.id = session.clientId
    // The session's data, and over it what this upgrade's middleware gave (a renewed token's identity).
    client.data = client.data === undefined ? session.data : new Map([...(session.data ?? []), ...client.data])
    session.data = undefined
    table.all.set(client.id, client)
    return { session, missed }
  }

  // Why this node could not resume session `sid` for a client that saw up to `lastSeq`: not
  // held here, or held and unable to bring it up to date; the debug log says which (`cause`:
  // `unknown_session`, `trimmed` when what it missed is no longer kept, `ahead` when it saw
  // numbers this node's copy never gave, a copy that another node took over).
  private refusedHere(sid: string, lastSeq: number): ResyncReason {
    const session = this.sessions.get(sid)
    const cause = session === undefined ? 'unknown_session' : lastSeq > session.lastSeq ? 'ahead' : 'trimmed'
    this.deps.debug('recovery: resume of {sid} refused: {reason} ({cause})', { sid, reason: session === undefined ? 'unknown_session' : 'gap', cause, ms: 0, local: true })
    return session === undefined ? 'unknown_session' : 'gap'
  }

  /**
   * Gives a new WebSocket connection the session it asked for (`asked`): the one it resumed,
   * or a fresh one; then the session message (unnumbered) and what the client missed.
   */
  open(connection: WsConnection<S>, asked: SessionRequest, resumed: Resumed | undefined, decision: UpgradeAccepted): void {
    const settings = this.settings
    if (settings === undefined) return
    const { io, frames, limits, registry } = this.deps
    const client = connection.ctx
    // Why a resume failed: the store's answer, or this node's (unknown here, or too far behind).
    const resync =
      asked.resume === undefined || resumed !== undefined ? undefined : (decision.resync ?? this.refusedHere(asked.resume.sid, asked.resume.lastSeq))
    if (asked.resume !== undefined) this.reportResume(resumed !== undefined, resync)
    const session = resumed?.session ?? new ClientSession(newSessionId(), client.clientId, settings)
    this.sessions.set(session.sid, session)
    connection.session = session
    // A client that reads batches (tp_b) gets its envelopes of a turn in one message, and may send batches.
    if (asked.batch !== undefined) connection.batch = asked.batch
    const journal = this.journal
    if (journal !== undefined && resumed === undefined) {
      session.recorder = journal
      this.placeCursor(session, cursorKey({}))
      this.placeCursor(session, cursorKey({ namespace: registry.namespaceOf(client.clientId) ?? '/' }))
      journal.changed(session)
    }
    const message = sessionMessage(session.sid, resumed !== undefined, limits.heartbeatIntervalMs, resync, asked.batch === undefined ? undefined : limits.maxMessage)
    io.write(client.socket, frames.text(message))
    for (const text of resumed?.missed ?? []) io.write(client.socket, frames.text(text))
  }

  /**
   * A new event-stream client (docs/protocol.md, "Server-Sent Events"): with sessions on and
   * a table that numbers envelopes, it gets a session, resumed when its `Last-Event-ID` is a
   * cursor this node can bring up to date (the old client id, rooms and data, and what it
   * missed, in order), or a fresh one with the resync reason. Every event it is sent carries
   * `id: <sid>:<seq>`. `attach` makes `connection` the client's receiver (after the resume:
   * until then the client is no member, so the resume does not take it for the session's old
   * link); `join` puts a client that did not resume in its namespace and rooms; `stored` is why
   * a resume from the shared store failed (restore-session.ts), when it did. Answers whether it
   * resumed (its connect handlers ran when it first came).
   */
  openEventStream(client: ClientContext<S>, connection: SseConnection<S>, request: HttpRequest, hooks: { attach(): void; join(): void }, stored?: ResyncReason): boolean {
    const settings = this.settings
    if (settings === undefined || this.deps.raw) {
      hooks.attach()
      hooks.join()
      return false
    }
    const { limits, registry } = this.deps
    const cursor = readSessionCursor(headerValue(request.headers, 'last-event-id'))
    const resumed = cursor === undefined ? undefined : this.resume(client, cursor.sid, cursor.lastSeq)
    hooks.attach()
    if (resumed === undefined) hooks.join()
    const resync = cursor === undefined || resumed !== undefined ? undefined : (stored ?? this.refusedHere(cursor.sid, cursor.lastSeq))
    if (cursor !== undefined) this.reportResume(resumed !== undefined, resync)
    const session = resumed?.session ?? new ClientSession(newSessionId(), client.id, settings)
    this.sessions.set(session.sid, session)
    connection.session = session
    const journal = this.journal
    if (journal !== undefined && resumed === undefined) {
      session.recorder = journal
      this.placeCursor(session, cursorKey({}))
      this.placeCursor(session, cursorKey({ namespace: registry.namespaceOf(client.id) ?? '/' }))
      for (const { namespace, room } of registry.roomsOfClient(client.id)) this.placeCursor(session, cursorKey({ namespace, room }))
      journal.changed(session)
    }
    const message = sessionMessage(session.sid, resumed !== undefined, limits.heartbeatIntervalMs, resync)
    const from = session.lastSeq - (resumed?.missed.length ?? 0)
    connection.sendText(encodeSseEvent({ id: sessionCursorId(session.sid, from), data: message }))
    resumed?.missed.forEach((text, i) => connection.sendText(encodeSseEvent({ id: sessionCursorId(session.sid, from + i + 1), data: text })))
    return resumed !== undefined
  }

  // ---- a connection goes --------------------------------------------------------------------

  /**
   * `connection` is gone: a link that broke (or a client saying it comes back) keeps its
   * session for the window, parked (true: no disconnect handlers yet); a deliberate close,
   * or the server's own, ends it (false).
   */
  park(client: ClientContext<S>, connection: Member<S>): boolean {
    const session = connection.session
    const settings = this.settings
    const draining = this.deps.table.draining
    const code = connection.peerCloseCode
    if (session !== undefined && settings !== undefined && !draining && !connection.serverClosed && (code === undefined || code === CLOSE_RECONNECTING || code === CLOSE_CODE.ABNORMAL)) {
      // Away, not gone: no disconnect handlers unless the window ends first.
      session.data = client.data
      this.parked.set(client.id, session)
      this.awayCtx.set(session, connection.ctx)
      session.expiry = this.deps.timers.setTimeout(() => this.expire(session), settings.windowMs)
      this.journal?.away(session)
      return true
    }
    if (session !== undefined && this.sessions.get(session.sid) === session) {
      // A server shutting down leaves its sessions in the store: their clients resume elsewhere.
      if (draining && connection.peerCloseCode !== CLOSE_CODE.NORMAL) {
        session.data = client.data
        this.journal?.away(session)
      } else this.journal?.forget(session)
      this.sessions.delete(session.sid)
    }
    return false
  }

  /**
   * A parked session ends for good: its rooms, its data, its number; then onDisconnect. The
   * store forgets it too, unless it lives on there (this server shuts down, or it moved).
   */
  expire(session: ClientSession, forget = true): void {
    if (forget) this.journal?.forget(session)
    if (session.expiry !== undefined) this.deps.timers.clearTimeout(session.expiry)
    this.parked.delete(session.clientId)
    this.sessions.delete(session.sid)
    this.deps.registry.leaveNamespace(session.clientId)
    const ctx = this.awayCtx.get(session)
    this.awayCtx.delete(session)
    if (ctx !== undefined) this.deps.handlers.disconnected(session.clientId, ctx)
  }

  /** The client went away while its session was restored from the store: undone here (it will come back). */
  abandon(session: ClientSession): void {
    this.parked.delete(session.clientId)
    if (this.sessions.get(session.sid) === session) this.sessions.delete(session.sid)
    this.deps.registry.leaveNamespace(session.clientId)
  }

  /**
   * The server shuts down: clients away within their window are not coming back to this
   * process (the store keeps their sessions for another node, when there is one).
   */
  leaveAll(): void {
    for (const session of [...this.parked.values()]) this.expire(session, false)
  }

  /** Writes what the journal holds, then stops it (the last step of a close). */
  close(): Promise<void> {
    return this.journal?.close() ?? Promise.resolve()
  }
}
