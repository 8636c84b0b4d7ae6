/**
 * The opt-in session layer of the event protocol (docs/protocol.md, "Sessions, numbering
 * and recovery"), as the server reads it: what the upgrade query asks for. A client that does
 * not ask (no `tp_v=1`) sees none of it. The texts of the layer (the query a client writes,
 * the session message, numbers, the heartbeat) are `envelope-wire.ts`'s, shared with the
 * client; they are re-exported here for the server's code.
 *
 * Pure and portable: no node:* imports.
 */
import { parseQuery } from '../http/parse-query.js'

export {
  CLOSE_RECONNECTING,
  HEARTBEAT_EVENT,
  HEARTBEAT_MESSAGE,
  numberEnvelope,
  type ResyncReason,
  SESSION_EVENT,
  sessionMessage,
} from './envelope-wire.js'

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
