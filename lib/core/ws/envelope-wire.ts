/**
 * The event protocol's wire format, written once for the server and the client
 * (docs/protocol.md): the envelope's shape and its text, acknowledgements, batches (RS),
 * message numbers, and the opt-in session layer's names, upgrade query and session message.
 * The server's `envelope.ts` (its io-ts codec and error events) and `session-wire.ts`, and
 * the client's `read-server-message.ts` and `connect`, all build on it.
 *
 * Dependency-free: it imports nothing at run time (no io-ts, no fp-ts, no other module),
 * because the client bundles it into browsers (bench/client-bundle.ts counts its bytes).
 * Pure and portable.
 */
import type { EventId } from './event.js'

/**
 * What separates the envelopes of a batch (docs/protocol.md, "Batches"): U+001E, RS, the
 * record separator of JSON text sequences (RFC 7464). JSON text never holds it unescaped
 * (RFC 8259 §7: control characters in strings are escaped; it is not whitespace), so a
 * message splits at every RS into whole envelopes, whatever their formatting.
 */
export const BATCH_SEPARATOR = '\x1e'

/** The server's first message to a session client: its id, whether it recovered, the heartbeat in ms. */
export const SESSION_EVENT = 'tp:session'
/** Sent to session clients at every heartbeat: browsers cannot see pings, so liveness needs an event. */
export const HEARTBEAT_EVENT = 'tp:heartbeat'
/** The heartbeat message, unnumbered: `{"event":"tp:heartbeat"}` (a plain literal, so a bundle that does not use it drops it). */
export const HEARTBEAT_MESSAGE = '{"event":"tp:heartbeat"}'
/** The close code a client sends when it drops a link it believes dead and will come back. */
export const CLOSE_RECONNECTING = 4000

/**
 * An envelope as it travels: `{"event", "data", "id"?, "seq"?}`. `data` is always present
 * (`null` for none); `id` and `seq` only when set.
 */
export interface WireEnvelope {
  readonly event: string
  readonly data: unknown
  readonly id?: EventId
  /** The message's number within a session (server messages to a session client only). */
  readonly seq?: number
}

/** Why a parsed JSON value is not an envelope: the field at fault, as the client reports it. */
export type EnvelopeFault = 'not an object' | 'bad "event"' | 'bad "id"' | 'bad "seq"'

/**
 * Checks a parsed JSON value against the envelope's shape: an object whose `event` is a
 * non-empty string, `id` (when present) a string or a number and, when `numbered` (a server
 * message as the client reads it), `seq` (when present) a positive integer; other keys are
 * ignored, and a missing `data` reads as `null`. Answers `''` for an envelope, else the first
 * field at fault. The server checks client messages with `numbered` false: a `seq` there is
 * just another key. Each side builds its own value from a valid one (`WireEnvelope`'s fields).
 *
 * @example
 * envelopeFault({ event: 'join', id: 1 }, false) // ''
 * envelopeFault({ event: 'chat', data: 'hi', seq: 7 }, true) // ''
 * envelopeFault({ event: '' }, false) // 'bad "event"'
 * envelopeFault([1], false) // 'not an object'
 */
export const envelopeFault = (value: unknown, numbered: boolean): EnvelopeFault | '' => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object'
  const { event, id, seq } = value as Record<string, unknown>
  return typeof event !== 'string' || !event
    ? 'bad "event"'
    : id !== undefined && typeof id !== 'string' && typeof id !== 'number'
      ? 'bad "id"'
      : numbered && seq !== undefined && !(Number.isSafeInteger(seq) && (seq as number) > 0)
        ? 'bad "seq"'
        : ''
}

/**
 * The text of an envelope: `undefined` data is sent as `null`, and `id` only when set. The
 * data must be something JSON can hold (`JSON.stringify` throws on a cycle or a BigInt).
 *
 * @example
 * encodeEnvelope('chat', { text: 'hi' }) // '{"event":"chat","data":{"text":"hi"}}'
 * encodeEnvelope('join', undefined, 3) // '{"event":"join","data":null,"id":3}'
 */
// JSON leaves out a key whose value is `undefined`: an envelope without `id` has none.
export const encodeEnvelope = (event: string, data: unknown, id?: EventId): string => JSON.stringify({ event, data: data ?? null, id })

/**
 * The text of an acknowledgement: `{"event":"ack","id":...,"data":...}`, `undefined` data as `null`.
 *
 * @example
 * encodeAck(7, { ok: true }) // '{"event":"ack","id":7,"data":{"ok":true}}'
 */
export const encodeAck = (id: EventId, data: unknown): string => {
  // Built by hand (no object per answer); a value JSON leaves out (a function) leaves out `data`.
  const json = JSON.stringify(data ?? null) as string | undefined
  return json === undefined ? `{"event":"ack","id":${JSON.stringify(id)}}` : `{"event":"ack","id":${JSON.stringify(id)},"data":${json}}`
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
 * The upgrade query a client adds to ask for a session (`tp_v=1`), announcing that it reads
 * batches of at most `batch` bytes (`tp_b`) and, with `sid`, resuming that session having
 * seen every numbered message up to `lastSeq` (`tp_sid`, `tp_last`). The server reads it
 * with `readSessionQuery`.
 *
 * @example
 * sessionQuery(16777216) // 'tp_v=1&tp_b=16777216'
 * sessionQuery(16777216, 'abc', 7) // 'tp_v=1&tp_b=16777216&tp_sid=abc&tp_last=7'
 */
export const sessionQuery = (batch: number, sid?: string, lastSeq?: number): string =>
  `tp_v=1&tp_b=${batch}${sid ? `&tp_sid=${encodeURIComponent(sid)}&tp_last=${lastSeq}` : ''}`

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
