/**
 * `createRecoveryJournal`: writes client sessions to a shared recovery store (issue 11,
 * docs/decisions.md "Session recovery across nodes"), so a client whose node died can
 * resume on any node. The engine tells it when a session's state changes (connect, join,
 * leave, namespace, client data, away, back) and of every message numbered for a session;
 * it keeps them in memory and writes them in batches: at most one write per session per
 * flush (its new messages and its state after them, in one `saveProgress` when the store
 * has it), one flush in flight at a time, never on the path of a socket write. A broadcast
 * to 10,000 session clients is one numbered copy per client in memory, as without a store,
 * and one pipelined write per client at the next flush, not a round trip each before the
 * write. Redis away or slow: what waits is bounded in bytes; past it messages are not
 * recorded (a resume across them then gets `gap`), and flushes back off up to a second.
 * Longer than most files on purpose: one state machine (waiting, flushing, failing, backing
 * off, overflowing, closed) over one set of maps, which reads best whole.
 * Must not import `node:*`, Buffer or process.
 */
import type { Logger } from '../../core/log/logger.js'
import type { ClientSession, SessionRecorder } from './client-session.js'
import type { TimerId, Timers } from '../platform.js'
import type { MissedFrame, RecoveryStore, SessionRecord } from './recovery-store.js'
import { within } from './within.js'

/** The part of a record the engine knows: where the client is, and its data. */
export type SessionState = Pick<SessionRecord, 'namespace' | 'rooms' | 'otherRooms' | 'data'>

export interface RecoveryJournalDeps {
  readonly store: RecoveryStore
  readonly timers: Timers
  readonly logger: Logger
  /** This node's id (the cluster adapter's): written as the session's holder. */
  readonly nodeId: string
  readonly windowMs: number
  /** How long changes gather before a flush (ms). */
  readonly flushMs: number
  /** Bytes of messages waiting for the store before new ones are not recorded. */
  readonly maxPendingBytes: number
  /** How long one write may take before it counts as failed (written again later). */
  readonly timeoutMs: number
  /** Sessions written per slice of a flush, a macrotask apart (default `FLUSH_SLICE`). */
  readonly sliceSize?: number
  /** The session's state now; undefined when it is gone. */
  readonly state: (session: ClientSession) => SessionState | undefined
  /** The store says another node holds this session now: this node lets it go. */
  readonly moved: (session: ClientSession) => void
}

export interface RecoveryJournal extends SessionRecorder {
  /** The session's state changed (or it is new): written at the next flush. */
  changed(session: ClientSession): void
  /** The client is away: its window starts now. */
  away(session: ClientSession): void
  /** The client is back (or the session was taken over here). */
  back(session: ClientSession): void
  /** The session ends for good: forgotten by the store (while this node holds it). */
  forget(session: ClientSession): void
  /** Another node holds the session: this node stops writing it, and leaves the store's record alone. */
  release(session: ClientSession): void
  /** Takes a session over from another node now: written with `claim`; false when the store refused. */
  claim(session: ClientSession): Promise<boolean>
  /** Writes what waits; resolves when the store has answered. */
  flush(): Promise<void>
  /** Stops the timers after a last flush. */
  close(): Promise<void>
  /** How many sessions it holds (connected or away): bounded by the engine's sessions. */
  readonly holding: number
}

interface Waiting {
  readonly seq: number
  readonly text: string
}

/**
 * Sessions a flush writes per macrotask. Building one write costs the node ~40–50 µs (bench/RESULTS.md,
 * "Recovery store cost"), so a slice holds the event loop ~10–15 ms and a flush of 10,000
 * sessions lets sockets, timers and replies in 40 times instead of blocking for half a second.
 */
export const FLUSH_SLICE = 256

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))
const utf8 = new TextEncoder()

/**
 * The journal of one engine's sessions in a recovery store.
 *
 * @example
 * const journal = createRecoveryJournal({ store, timers, logger, nodeId: 'a', windowMs: 120_000, flushMs: 10, maxPendingBytes: 8 << 20, state, moved })
 * session.recorder = journal
 * journal.changed(session) // written within flushMs
 */
export const createRecoveryJournal = (deps: RecoveryJournalDeps): RecoveryJournal => {
  const { store, timers, logger, nodeId, windowMs, flushMs, maxPendingBytes, timeoutMs } = deps
  const sliceSize = deps.sliceSize ?? FLUSH_SLICE
  const pending = new Map<ClientSession, Waiting[]>()
  const dirty = new Set<ClientSession>()
  // Sessions this node holds, and since when the away ones are away.
  const held = new Set<ClientSession>()
  const awaySince = new Map<ClientSession, number>()
  // The state of sessions that left the engine but not the store (a server shutting down).
  const frozen = new Map<ClientSession, SessionState>()
  let pendingBytes = 0
  let timer: TimerId | undefined
  let inFlight: Promise<void> | undefined
  let delay = flushMs
  let failing = false
  // Past maxPendingBytes with the store answering (it is slower than the messages come):
  // said once, and how many were not recorded said when a flush saw none dropped.
  let overflowing = false
  let unrecorded = 0
  let closed = false

  const schedule = (): void => {
    if (timer !== undefined || inFlight !== undefined || closed) return
    timer = timers.setTimeout(run, delay)
  }
  const run = (): void => {
    timer = undefined
    inFlight = flushOnce().finally(() => {
      inFlight = undefined
      if (dirty.size > 0 || pending.size > 0) schedule()
    })
  }

  // A connected client's record outlives the window (refreshed every half window); an away
  // client's ends with its window.
  const expiresAt = (session: ClientSession): number => {
    const since = awaySince.get(session)
    return since === undefined ? timers.now() + 2 * windowMs : since + windowMs
  }
  const refresh = timers.setInterval(() => {
    for (const session of held) if (!awaySince.has(session)) dirty.add(session)
    schedule()
  }, Math.max(1, Math.floor(windowMs / 2)))

  // Client data is whatever the app stored: what is not JSON is left out (and said once).
  let warnedData = false
  const jsonData = (data: SessionRecord['data']): SessionRecord['data'] => {
    // Most clients keep nothing: no copy to make.
    if (Object.keys(data).length === 0) return data
    try {
      return JSON.parse(JSON.stringify(data)) as SessionRecord['data']
    } catch (error) {
      if (!warnedData) {
        warnedData = true
        logger.warning('recovery: client data that is not JSON is not kept for recovery on another node: {error}', { error: message(error) })
      }
      return {}
    }
  }

  const recordOf = (session: ClientSession): SessionRecord | undefined => {
    const state = deps.state(session) ?? frozen.get(session)
    if (state === undefined) return undefined
    const cursors = session.cursors === undefined || session.cursors.size === 0 ? undefined : Object.fromEntries(session.cursors)
    return {
      sid: session.sid,
      ...state,
      data: jsonData(state.data),
      lastSeq: session.lastSeq,
      expiresAt: expiresAt(session),
      ...(cursors === undefined ? {} : { cursors }),
      node: nodeId,
      // Always written (empty too): a record without it is read as one from before it existed.
      lastOwn: session.lastOwn === undefined ? {} : Object.fromEntries(session.lastOwn),
    }
  }

  const writeNow = async (record: SessionRecord, frames: readonly MissedFrame[], claim: boolean): Promise<boolean> => {
    if (store.saveProgress !== undefined) return store.saveProgress(record, frames, claim)
    for (const f of frames) await store.append(record.sid, f.seq, f.frame, record.expiresAt)
    await store.saveSession(record)
    return true
  }
  const noAnswer = (): Error => new Error(`no answer within ${timeoutMs} ms`)

  const failed = (error: unknown): void => {
    delay = Math.min(1000, delay * 2)
    if (failing) return
    failing = true
    logger.warning('recovery: the session store failed ({error}); sessions are kept in memory (up to {bytes} bytes) and written when it answers', {
      error: message(error),
      bytes: maxPendingBytes,
    })
  }

  // A session's waiting messages, taken out for a write (with its dirty mark).
  const take = (session: ClientSession): readonly Waiting[] => {
    dirty.delete(session)
    const waiting = pending.get(session)
    if (waiting === undefined) return []
    pending.delete(session)
    for (const w of waiting) pendingBytes -= w.text.length
    return waiting
  }

  // What a write's answer means for its session.
  const settled = (session: ClientSession, waiting: readonly Waiting[], outcome: { readonly ok: boolean } | { readonly error: unknown }): void => {
    if ('error' in outcome) {
      failed(outcome.error)
      // Written again at the next flush, before what came since.
      if (!held.has(session)) return
      const later = pending.get(session) ?? []
      pending.set(session, [...waiting, ...later])
      for (const w of waiting) pendingBytes += w.text.length
      dirty.add(session)
      return
    }
    if (!outcome.ok && held.has(session)) {
      held.delete(session)
      awaySince.delete(session)
      frozen.delete(session)
      deps.moved(session)
    } else if (frozen.has(session) && deps.state(session) === undefined && !pending.has(session)) {
      // Written for the last time by this node.
      held.delete(session)
      awaySince.delete(session)
      frozen.delete(session)
    }
  }

  // A flush's bound: its writes queue behind one another (a flush after a burst pipelines
  // thousands of large scripts, which Redis runs one by one for seconds), so what fails is a
  // store that answers none of them for timeoutMs, not a write answered later than that. A
  // timer checks every timeoutMs that some write was answered since; when none was, every
  // write still waiting failed (written again at the next flush; its late answer changes nothing).
  const progressBound = () => {
    let answers = 0
    let late: (() => void) | undefined
    const tooLate = new Promise<'late'>((resolve) => {
      late = () => resolve('late')
    })
    const check = (): void => {
      if (answers === 0) return late?.()
      answers = 0
      timer = timers.setTimeout(check, timeoutMs)
    }
    let timer = timers.setTimeout(check, timeoutMs)
    return {
      tooLate,
      answered: (): void => void (answers += 1),
      stop: (): void => timers.clearTimeout(timer),
    }
  }

  // One slice of a flush: each session's messages taken and its record made at the same
  // instant (so the record never names a number its frames do not hold), and the writes
  // issued together (the client pipelines them).
  const writeSlice = (sessions: readonly ClientSession[], bound: ReturnType<typeof progressBound>): Promise<void> => {
    const writes: Promise<void>[] = []
    for (const session of sessions) {
      const waiting = take(session)
      const record = recordOf(session)
      if (record === undefined) {
        // Gone from the engine without a word here (a restore undone after its claim, its
        // client gone): nothing left to write, and not held any more (it would be forever).
        held.delete(session)
        awaySince.delete(session)
        continue
      }
      const frames = waiting.map((w) => ({ seq: w.seq, frame: utf8.encode(w.text) }))
      let work: Promise<boolean>
      try {
        work = writeNow(record, frames, false)
      } catch (error) {
        work = Promise.reject(error)
      }
      const answered = work.finally(bound.answered)
      writes.push(
        Promise.race([answered, bound.tooLate]).then(
          (ok) => settled(session, waiting, ok === 'late' ? { error: noAnswer() } : { ok }),
          (error: unknown) => settled(session, waiting, { error }),
        ),
      )
    }
    return Promise.all(writes).then(() => undefined)
  }

  // A macrotask's pause between slices: sockets, timers and the store's replies get their turn.
  const pause = (): Promise<void> => new Promise((resolve) => void timers.setTimeout(resolve, 0))

  const flushOnce = async (): Promise<void> => {
    const droppedBefore = unrecorded
    // The sessions to write: those changed by now (one changed later waits for the next flush).
    const sessions = [...new Set([...dirty, ...pending.keys()])]
    const bound = progressBound()
    const slices: Promise<void>[] = []
    for (let at = 0; at < sessions.length; at += sliceSize) {
      if (at > 0) await pause()
      slices.push(writeSlice(sessions.slice(at, at + sliceSize), bound))
    }
    await Promise.all(slices)
    bound.stop()
    if (dirty.size === 0 && failing) {
      failing = false
      logger.info('recovery: the session store answers again; {lost} messages could not be recorded meanwhile', { lost: unrecorded })
      unrecorded = 0
      overflowing = false
    } else if (overflowing && !failing && unrecorded === droppedBefore) {
      overflowing = false
      logger.info('recovery: the session store caught up; {lost} messages could not be recorded meanwhile', { lost: unrecorded })
      unrecorded = 0
    }
    if (dirty.size === 0) delay = flushMs
  }

  return {
    numbered(session, seq, text, source) {
      if (source?.position !== undefined) session.cursors?.set(source.key, source.position)
      else if (source?.hash !== undefined) (session.lastOwn ??= new Map()).set(source.key, source.hash)
      if (!held.has(session)) return
      if (pendingBytes + text.length > maxPendingBytes) {
        // Not recorded: a resume from before it gets `gap`, never a hole nobody sees.
        unrecorded += 1
        if (!overflowing && !failing) {
          overflowing = true
          logger.warning('recovery: more than {bytes} bytes of messages wait for the session store; new messages are not recorded until it catches up (a resume across them gets resync "gap")', {
            bytes: maxPendingBytes,
          })
        }
        return
      }
      pendingBytes += text.length
      const list = pending.get(session)
      if (list === undefined) pending.set(session, [{ seq, text }])
      else list.push({ seq, text })
      schedule()
    },
    changed(session) {
      held.add(session)
      dirty.add(session)
      schedule()
    },
    away(session) {
      const state = deps.state(session)
      if (state !== undefined) frozen.set(session, state)
      awaySince.set(session, timers.now())
      dirty.add(session)
      schedule()
    },
    back(session) {
      held.add(session)
      awaySince.delete(session)
      frozen.delete(session)
      dirty.add(session)
      schedule()
    },
    forget(session) {
      if (!held.delete(session)) return
      awaySince.delete(session)
      frozen.delete(session)
      dirty.delete(session)
      const list = pending.get(session)
      if (list !== undefined) {
        pending.delete(session)
        pendingBytes -= list.reduce((sum, w) => sum + w.text.length, 0)
      }
      // After the flush in flight, which may still write it.
      void (inFlight ?? Promise.resolve())
        .then(() => store.deleteSession(session.sid, nodeId))
        .catch((error: unknown) => logger.debug('recovery: could not forget session {sid}: {error}', { sid: session.sid, error: message(error) }))
    },
    release(session) {
      held.delete(session)
      awaySince.delete(session)
      frozen.delete(session)
      dirty.delete(session)
      const list = pending.get(session)
      if (list === undefined) return
      pending.delete(session)
      pendingBytes -= list.reduce((sum, w) => sum + w.text.length, 0)
    },
    async claim(session) {
      held.add(session)
      const record = recordOf(session)
      if (record === undefined) return false
      // A store that does not answer in time failed.
      return within(timers, timeoutMs, writeNow(record, [], true), (): boolean => {
        throw noAnswer()
      })
    },
    flush: async () => {
      if (timer !== undefined) {
        timers.clearTimeout(timer)
        timer = undefined
      }
      await inFlight
      if (dirty.size > 0 || pending.size > 0) await flushOnce()
    },
    get holding() {
      return held.size
    },
    close: async () => {
      timers.clearInterval(refresh)
      if (timer !== undefined) timers.clearTimeout(timer)
      timer = undefined
      await inFlight
      if (dirty.size > 0 || pending.size > 0) await flushOnce().catch(() => undefined)
      closed = true
    },
  }
}
