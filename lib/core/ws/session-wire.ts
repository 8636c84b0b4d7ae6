/**
 * The opt-in session layer of the event protocol (docs/protocol.md, "Sessions, numbering
 * and recovery"), as pure functions: what the upgrade query asks for, and the texts the
 * server sends. A client that does not ask (no `tp_v=1`) sees none of it.
 *
 * Pure and portable: no node:* imports.
 */
import { parseQuery } from '../http/parse-query.js'

/** The server's first message to a session client: its id, whether it recovered, the heartbeat in ms. */
export const SESSION_EVENT = 'tp:session'
/** Sent to session clients at every heartbeat: browsers cannot see pings, so liveness needs an event. */
export const HEARTBEAT_EVENT = 'tp:heartbeat'
/** The close code a client sends when it drops a link it believes dead and will come back. */
export const CLOSE_RECONNECTING = 4000

/** What a client asked for in its upgrade query. */
export interface SessionRequest {
  /** Resume this session, having seen every numbered message up to `lastSeq`. */
  readonly resume: { readonly sid: string; readonly lastSeq: number } | undefined
  /**
   * The client reads batches (`tp_b=<bytes>`: several envelopes in one message, separated by
   * RS, at most this many bytes) and would send them; absent for a client that did not say so.
   */
  readonly batch?: number
}

// A session id as the server makes them (a UUID), and nothing longer: it is a map key.
const SID = /^[A-Za-z0-9_-]{1,64}$/

// The smallest batch limit a client may announce: below it, no batching at all.
const MIN_BATCH = 64

/**
 * The session request in an upgrade's query, or `undefined` when the client did not opt in
 * (`tp_v=1` absent). A resume with a malformed id or number is treated as no resume: the
 * client gets a fresh session and `recovered: false`, never an error. `tp_b` (batches, a
 * decimal byte limit of at least 64) is read likewise: malformed or too small, it is absent.
 *
 * @example
 * readSessionQuery('tp_v=1') // { resume: undefined }
 * readSessionQuery('tp_v=1&tp_sid=abc&tp_last=7') // { resume: { sid: 'abc', lastSeq: 7 } }
 * readSessionQuery('tp_v=1&tp_b=16777216') // { resume: undefined, batch: 16777216 }
 * readSessionQuery('room=1') // undefined
 */
export const readSessionQuery = (rawQuery: string): SessionRequest | undefined => {
  if (!rawQuery.includes('tp_v=')) return undefined
  const query = parseQuery(rawQuery)
  if (query['tp_v'] !== '1') return undefined
  const sid = query['tp_sid']
  const last = query['tp_last']
  const b = query['tp_b']
  const batch = typeof b === 'string' && /^\d{1,15}$/.test(b) && Number(b) >= MIN_BATCH ? Number(b) : undefined
  const resume = typeof sid !== 'string' || !SID.test(sid) || typeof last !== 'string' || !/^\d{1,15}$/.test(last) ? undefined : { sid, lastSeq: Number(last) }
  return batch === undefined ? { resume } : { resume, batch }
}

/**
 * An envelope text with its sequence number: `{"event":…,"data":…}` becomes
 * `{"event":…,"data":…,"seq":N}`. The text is an object (every envelope is), so the number
 * goes before its closing brace without parsing it again.
 *
 * @example
 * numberEnvelope('{"event":"chat","data":1}', 3) // '{"event":"chat","data":1,"seq":3}'
 */
export const numberEnvelope = (text: string, seq: number): string => `${text.slice(0, -1)},"seq":${seq}}`

/**
 * Why a client that asked to resume a session got a fresh one instead (the "resync"
 * signal: what it kept of the old session is stale, its app should fetch the state again):
 * - `unknown_session`: no such session (never, or forgotten: past the window, or closed);
 * - `gap`: the session is known but some messages after the client's last are no longer
 *   kept (or were never recorded: its node died just after sending them);
 * - `unavailable`: the shared recovery store did not answer (down, or too slow).
 */
export type ResyncReason = 'unknown_session' | 'gap' | 'unavailable'

/**
 * The session message: `{"event":"tp:session","data":{"sid":…,"recovered":…,"heartbeat":…}}`,
 * with `"resync":<reason>` when the client asked to resume and could not, and
 * `"batch":<bytes>` last when the client announced batches (`tp_b`): the server reads a
 * batch of at most that many bytes.
 *
 * @example
 * sessionMessage('abc', false, 30000) // '{"event":"tp:session","data":{"sid":"abc","recovered":false,"heartbeat":30000}}'
 * sessionMessage('abd', false, 30000, 'gap') // '{"event":"tp:session","data":{"sid":"abd","recovered":false,"heartbeat":30000,"resync":"gap"}}'
 * sessionMessage('abe', false, 30000, undefined, 1048576) // '{"event":"tp:session","data":{"sid":"abe","recovered":false,"heartbeat":30000,"batch":1048576}}'
 */
export const sessionMessage = (sid: string, recovered: boolean, heartbeatMs: number, resync?: ResyncReason, batch?: number): string =>
  JSON.stringify({ event: SESSION_EVENT, data: { sid, recovered, heartbeat: heartbeatMs, resync, batch } })

/** The heartbeat message, unnumbered. */
export const HEARTBEAT_MESSAGE = `{"event":"${HEARTBEAT_EVENT}"}`
