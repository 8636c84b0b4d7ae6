/**
 * `loadSession`: what a node needs from the recovery store to resume a session it does not
 * hold (its client was on another node, or on this one before a restart): the record and
 * the numbered messages after the client's last, checked to fit together, within a time
 * bound. Anything else is a resync with its reason, never a hang and never a throw.
 * Must not import `node:*`, Buffer or process.
 */
import type { ResyncReason } from '../../core/ws/session-wire.js'
import type { Timers } from '../platform.js'
import type { ReadSince, RecoveryStore, SessionRecord } from './recovery-store.js'
import { within } from './within.js'

/** A session found and fit to resume, or why not. */
export type LoadedSession =
  | {
      readonly _tag: 'Found'
      readonly record: SessionRecord
      /** The numbered texts after the client's last, in order. */
      readonly kept: readonly string[]
    }
  | { readonly _tag: 'Resync'; readonly reason: ResyncReason; readonly cause: LoadCause; readonly error?: unknown }

/**
 * Why a load ended in a resync, finer than the reason the client is told (for the log and the
 * soak): no record; the session's messages trimmed from its log; the client saw more than the
 * record says was sent (`ahead`); the record and its messages do not fit; no answer in time;
 * the store failed.
 */
export type LoadCause = 'unknown_session' | 'log_trimmed' | 'ahead_of_record' | 'record_mismatch' | 'load_timeout' | 'load_error'

const utf8 = new TextDecoder()

// The record and the messages after `lastSeq`, at one instant when the store can say so
// (two reads apart could straddle the old node's last journal write: an old record with the
// messages after it, which do not fit). A store without it is read twice (the in-memory
// store answers both in the same turn, so nothing lands between them).
const readBoth = async (store: RecoveryStore, sid: string, lastSeq: number): Promise<readonly [SessionRecord | undefined, ReadSince]> => {
  if (store.loadSessionSince !== undefined) {
    const both = await store.loadSessionSince(sid, lastSeq)
    return [both.record, both.read]
  }
  return Promise.all([store.loadSession(sid), store.readSince(sid, lastSeq)])
}

// The store's answers, checked: the messages after `lastSeq` must run up to the record's
// last number, and the client cannot have seen more than the record says was sent.
const check = async (store: RecoveryStore, sid: string, lastSeq: number): Promise<LoadedSession> => {
  const [record, read] = await readBoth(store, sid, lastSeq)
  if (record === undefined) return { _tag: 'Resync', reason: 'unknown_session', cause: 'unknown_session' }
  if (read._tag === 'Resync') return { _tag: 'Resync', reason: read.reason, cause: read.reason === 'gap' ? 'log_trimmed' : 'unknown_session' }
  const last = read.frames[read.frames.length - 1]?.seq ?? lastSeq
  // Seen more than was recorded (its node died before writing it), or the record is older
  // than its messages: what the client has cannot be placed.
  if (lastSeq > record.lastSeq) return { _tag: 'Resync', reason: 'gap', cause: 'ahead_of_record' }
  if (last !== record.lastSeq) return { _tag: 'Resync', reason: 'gap', cause: 'record_mismatch' }
  return { _tag: 'Found', record, kept: read.frames.map((f) => utf8.decode(f.frame)) }
}

/**
 * The session `sid` from the store, for a client that saw every message up to `lastSeq`;
 * `unavailable` when the store fails or has not answered within `timeoutMs`. A record behind
 * what the client saw (`ahead_of_record`) is read again, 20 ms then twice as long each time,
 * until it catches up or `timeoutMs` is spent: its node may be alive and just not have
 * written its last messages yet (a client that moves within a flush, a node whose event loop
 * is late); only one that never catches up, because its node died before writing them, is
 * the `gap` it looks like.
 *
 * @example
 * await loadSession(store, timers, 'k3x…', 7, 2000) // { _tag: 'Found', record, kept: ['{"event":"chat","data":1,"seq":8}'] }
 */
export const loadSession = async (store: RecoveryStore, timers: Timers, sid: string, lastSeq: number, timeoutMs: number): Promise<LoadedSession> => {
  const deadline = timers.now() + timeoutMs
  for (let wait = 20; ; wait *= 2) {
    const left = Math.max(1, deadline - timers.now())
    const loaded = await within<LoadedSession>(timers, left, check(store, sid, lastSeq), () => ({
      _tag: 'Resync',
      reason: 'unavailable',
      cause: 'load_timeout',
      error: new Error(`no answer within ${timeoutMs} ms`),
    })).catch((error: unknown): LoadedSession => ({ _tag: 'Resync', reason: 'unavailable', cause: 'load_error', error }))
    if (loaded._tag === 'Found' || loaded.cause !== 'ahead_of_record' || deadline - timers.now() <= wait) return loaded
    await new Promise<void>((resolve) => timers.setTimeout(resolve, wait))
  }
}
