/**
 * `readServerMessage`: one WebSocket message from the server, as the client reads it: an
 * event envelope (DESIGN §3, with the optional `seq` of docs/protocol.md "Sessions,
 * numbering and recovery"), or the problem that stops it from being one. The envelope's
 * shape is the core's dependency-free wire rule (`envelopeFault`, which the server checks
 * with too), so the client bundle carries no io-ts. Pure; never throws.
 */
import { envelopeFault } from '../core/ws/envelope-wire.js'
import type { EventId } from '../core/ws/event.js'
import type { ClientProblem } from './client-problem.js'

/** A server message: `{"event", "data", "id"?, "seq"?}`; a missing `data` reads as `null`. */
export interface ServerMessage {
  readonly _tag: 'ServerMessage'
  readonly event: string
  readonly data: unknown
  readonly id?: EventId
  /** The message's number within the session, for a client that opted in to sessions. */
  readonly seq?: number
}

/**
 * Reads `data` (what the WebSocket delivered) as an event. Binary data, text over `limit`
 * bytes of UTF-8, text that is not JSON and JSON of the wrong shape are problems; an
 * `InvalidMessage` names the field at fault (`not an event envelope: bad "id"`): `event` must
 * be a non-empty string, `id` a string or a number, `seq` a positive integer.
 *
 * @example
 * readServerMessage('{"event":"ack","id":1,"data":{"ok":true},"seq":7}', 1024)
 * // { _tag: 'ServerMessage', event: 'ack', data: { ok: true }, id: 1, seq: 7 }
 * readServerMessage('{"event":', 1024) // { _tag: 'InvalidJson', message: 'message is not JSON' }
 */
export const readServerMessage = (data: unknown, limit: number): ServerMessage | ClientProblem => {
  if (typeof data !== 'string') {
    // An ArrayBuffer (binaryType 'arraybuffer'), or a Blob where that was not honoured.
    const d = (data ?? {}) as { byteLength?: number; size?: number }
    const size = d.byteLength ?? d.size ?? 0
    return { _tag: 'BinaryMessage', size, message: `binary message of ${size} bytes` }
  }
  // Every UTF-16 code unit is one to three bytes of UTF-8, so the exact count is needed only
  // between those bounds; far over the limit, the length in code units is reported (a lower
  // bound) rather than encoding megabytes to count them.
  const units = data.length
  const size = units * 3 <= limit ? 0 : units > limit ? units : new TextEncoder().encode(data).length
  if (size > limit) return { _tag: 'MessageTooBig', size, limit, message: `message over maxMessageBytes ${limit}` }
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    return { _tag: 'InvalidJson', message: 'message is not JSON' }
  }
  const bad = envelopeFault(value, true)
  if (bad) return { _tag: 'InvalidMessage', message: `not an event envelope: ${bad}` }
  const { event, data: payload = null, id, seq } = value as { event: string; data?: unknown; id?: EventId; seq?: number }
  return { _tag: 'ServerMessage', event, data: payload, ...(id !== undefined && { id }), ...(seq && { seq }) }
}
