/**
 * The session cursor of an event stream (docs/protocol.md, "Server-Sent Events"): every event
 * of a session client carries `id: <sid>:<seq>` (the session's id, and the number of the last
 * numbered envelope sent), which the browser sends back as `Last-Event-ID` when it
 * reconnects. Pure and portable: no node:* imports.
 */

/** A session id as the server makes them, and a message number. */
export interface SessionCursor {
  readonly sid: string
  readonly lastSeq: number
}

// The session ids the server makes (base64url), and nothing longer: a map key.
const CURSOR = /^([A-Za-z0-9_-]{1,64}):(\d{1,15})$/

/**
 * The event id of `sid` having sent up to `seq`.
 *
 * @example
 * sessionCursorId('abc', 7) // 'abc:7'
 */
export const sessionCursorId = (sid: string, seq: number): string => `${sid}:${seq}`

/**
 * The cursor in a `Last-Event-ID` value; `undefined` for anything else (no resume: a fresh
 * session, never an error).
 *
 * @example
 * readSessionCursor('abc:7')  // { sid: 'abc', lastSeq: 7 }
 * readSessionCursor('7')      // undefined
 * readSessionCursor(undefined) // undefined
 */
export const readSessionCursor = (value: string | undefined): SessionCursor | undefined => {
  const match = value === undefined ? null : CURSOR.exec(value.trim())
  return match === null ? undefined : { sid: match[1] as string, lastSeq: Number(match[2]) }
}
