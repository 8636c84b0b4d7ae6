/**
 * `restoreSession`: resuming a session this node does not hold, from the shared recovery
 * store (issue 11, docs/decisions.md "Session recovery across nodes"). Its record and
 * recorded messages are loaded and checked (load-session.ts); the session is parked here,
 * in its namespace and rooms, holding what reaches it; the store is told this node holds it
 * now (`claim`); the broadcasts it missed while no node held it are read from the target
 * logs after its cursors and merged with what was held (merge-tail.ts): the old node's own
 * broadcasts there are left out up to the last one its record names (`lastOwn`), so those it
 * numbered after that record (between the load and the claim, or in a journal write the claim
 * refused) reach the client from here (issue 29). The upgrade's
 * hand-over then resumes it like a local session. Every failure, or the store's silence past
 * `loadTimeoutMs`, is a fresh session with a resync reason: the answer here.
 * Must not import `node:*`, Buffer or process.
 */
import type { Sequence } from '../../core/cluster/cluster-message.js'
import type { ResyncReason } from '../../core/ws/session-wire.js'
import type { ClientContext } from '../connection/client-context.js'
import { ClientSession } from './client-session.js'
import { cursorKey, cursorTarget } from './cursor-key.js'
import { type LoadCause, loadSession } from './load-session.js'
import { mergeTail, type TailRead } from './merge-tail.js'
import type { RecoveryJournal } from './recovery-journal.js'
import type { ReadRoomSince, RecoveryStore } from './recovery-store.js'
import type { ResolvedRecovery } from '../options/server-options.js'
import type { SessionRecovery } from './session-recovery.js'
import { sequenceBefore } from '../../core/cluster/sequence-before.js'
import { within } from './within.js'

/**
 * Restores session `sid` from the store for `client`, which saw every message up to
 * `lastSeq`. Resolves with `undefined` when it is restored (or needs nothing: restored here
 * meanwhile, or the client is gone), else with the resync reason its session message gives.
 * Only called with a store (`recovery.journal` set).
 */
export const restoreSession = async <S>(recovery: SessionRecovery<S>, client: ClientContext<S>, sid: string, lastSeq: number): Promise<ResyncReason | undefined> => {
  const { table, io, timers, registry, nodeId, debug } = recovery.deps
  const settings = recovery.settings as ResolvedRecovery
  const store = recovery.store as RecoveryStore
  const journal = recovery.journal as RecoveryJournal
  const startedAt = timers.now()
  const loaded = await loadSession(store, timers, sid, lastSeq, settings.loadTimeoutMs)
  const gone = (): boolean => table.all.get(client.id) !== client || io.isClosed(client.socket) || table.draining
  if (loaded._tag === 'Resync') return refuse(recovery, { sid, reason: loaded.reason, cause: loaded.cause, startedAt }, loaded.error)
  // Restored here meanwhile by another attempt of the same client: resumed as a local one.
  if (gone() || recovery.sessions.has(sid)) return undefined
  const { record } = loaded
  const session = new ClientSession(sid, client.id, settings)
  session.restore(loaded.kept, record.lastSeq)
  session.recorder = journal
  session.cursors = new Map(Object.entries(record.cursors ?? {}))
  // This node holds it now: its own broadcasts from here on.
  session.lastOwn = new Map()
  session.held = []
  session.data = new Map(Object.entries(record.data))
  recovery.sessions.set(sid, session)
  recovery.parked.set(client.id, session)
  registry.joinNamespace(client.id, record.namespace)
  for (const room of record.rooms) registry.joinRoom(client.id, room, record.namespace)
  for (const r of record.otherRooms ?? []) registry.joinRoom(client.id, r.room, r.namespace)
  const undo = (reason: ResyncReason, cause: RestoreCause, error?: unknown, target?: string): ResyncReason | undefined => {
    if (recovery.parked.get(client.id) === session) recovery.abandon(session)
    return gone() ? undefined : refuse(recovery, { sid, reason, cause, startedAt, target }, error)
  }
  try {
    // From now on the store refuses the old node's writes of it (if that node still runs).
    // False only when the journal no longer knows the session (it left the engine meanwhile).
    const claimed = await within(timers, settings.loadTimeoutMs, journal.claim(session), () => true)
    if (!claimed) return undo('unavailable', 'claim_lost', new Error('the session left before its claim was written'))
    const tails = await within(timers, settings.loadTimeoutMs, readTails(recovery, store, session), (): TailRead[] | TailGap | 'late' => 'late')
    if (recovery.parked.get(client.id) !== session || gone()) return undo('unavailable', 'taken_meanwhile')
    if (tails === 'late') return undo('unavailable', 'tails_timeout', new Error(`no answer within ${settings.loadTimeoutMs} ms`))
    if (!Array.isArray(tails)) return undo('gap', tails.cause, undefined, tails.target)
    const held = session.held ?? []
    session.held = undefined
    for (const item of mergeTail(tails, held, { formerNode: record.node, thisNode: nodeId, formerLast: record.lastOwn })) session.number(item.text, item.source)
    // Past every entry read, also those not numbered for it (its former node's, raw ones):
    // a later resume elsewhere must not hand them out again, nor look for them after a trim.
    for (const { key, frames: read } of tails) {
      const end = read[read.length - 1]?.seq
      const now = session.cursors.get(key)
      if (end !== undefined && (now === undefined || sequenceBefore(now, end))) session.cursors.set(key, end)
    }
    debug('recovery: session {sid} restored from the store', { sid, node: record.node ?? '' })
    return undefined
  } catch (error) {
    return undo('unavailable', 'restore_error', error)
  }
}

/**
 * Why a restore ended in a resync, finer than the reason the client is told (the debug log's
 * `cause`): the load's (load-session.ts), or the claim was refused (`claim_lost`), the session
 * was taken or its client left while the target logs were read (`taken_meanwhile`), they were
 * not read in time (`tails_timeout`), a target the session receives had no cursor
 * (`no_cursor`), a target's log no longer holds what the session missed (`target_gap`), or
 * something threw (`restore_error`).
 */
export type RestoreCause = LoadCause | 'claim_lost' | 'taken_meanwhile' | 'tails_timeout' | 'no_cursor' | 'target_gap' | 'restore_error'

// A target log that cannot serve the session: why, and which.
interface TailGap {
  readonly cause: 'no_cursor' | 'target_gap'
  readonly target: string
}

// The resume is refused with `reason`; a store that failed is worth a warning. The debug log
// says why, and how long after the upgrade asked (`ms`), with `cause` (`RestoreCause`).
const refuse = <S>(recovery: SessionRecovery<S>, why: { sid: string; reason: ResyncReason; cause: RestoreCause; startedAt: number; target?: string | undefined }, error?: unknown): ResyncReason => {
  const { deps } = recovery
  const { sid, reason, cause, startedAt, target } = why
  if (reason === 'unavailable') {
    deps.logger.warning('recovery: the session store did not serve a resume ({error}); the client gets a fresh session', {
      error: error instanceof Error ? error.message : String(error),
    })
  }
  deps.debug('recovery: resume of {sid} refused: {reason} ({cause})', { sid, reason, cause, ms: deps.timers.now() - startedAt, ...(target === undefined ? {} : { target }) })
  return reason
}

// The target logs after the session's cursors, or why one cannot be read from its place.
const readTails = async <S>(recovery: SessionRecovery<S>, store: RecoveryStore, session: ClientSession): Promise<TailRead[] | TailGap> => {
  if (store.readTargetSince === undefined) return []
  const { registry } = recovery.deps
  const read = store.readTargetSince.bind(store)
  const keys = [cursorKey({}), ...registry.roomsOfClient(session.clientId).map((r) => cursorKey(r))]
  const namespace = registry.namespaceOf(session.clientId)
  if (namespace !== undefined) keys.splice(1, 0, cursorKey({ namespace }))
  const cursors = session.cursors ?? new Map<string, Sequence>()
  const uncursored = keys.find((key) => !cursors.has(key))
  if (uncursored !== undefined) return { cause: 'no_cursor', target: uncursored }
  const answers: ReadRoomSince[] = await Promise.all(keys.map((key) => read(cursorTarget(key), cursors.get(key) as Sequence)))
  const refused = answers.findIndex((a) => a._tag === 'Resync')
  if (refused >= 0) return { cause: 'target_gap', target: keys[refused] as string }
  return answers.map((a, i) => ({ key: keys[i] as string, frames: a._tag === 'Frames' ? a.frames : [] }))
}
