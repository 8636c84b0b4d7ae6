/**
 * The event envelope of DESIGN §3: one WebSocket text message holds one JSON object
 * `{"event": "<name>", "data": <any JSON>, "id"?: <string | number>}`. Decoding untrusted text
 * gives an event or an error event's value (`invalid_json`, `invalid_message`); encoding gives
 * the text of an event, an error event or an acknowledgement.
 *
 * The shape is an io-ts codec (`EventEnvelope`, the stable `t.Type` API): `decode` validates
 * a parsed value, `encode` gives the object that goes on the wire. The wire rules themselves
 * (the shape check of the common case, the text of an event and of an ack, the batch
 * separator) are `envelope-wire.ts`'s, which the client shares; this module adds what only
 * the server needs: the codec, `Either`s and the error events.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { BATCH_SEPARATOR, encodeEnvelope, envelopeFault } from './envelope-wire.js'
import type { EventError, EventId, EventMessage } from './event.js'
import { traceContextOf } from '../trace/trace-context.js'

export { BATCH_SEPARATOR, encodeAck } from './envelope-wire.js'

/** An event name: a non-empty string. */
const EventName = new t.Type<string, string, unknown>(
  'EventName',
  (u): u is string => typeof u === 'string' && u.length > 0,
  (u, c) => (typeof u === 'string' && u.length > 0 ? t.success(u) : t.failure(u, c, 'event must be a non-empty string')),
  t.identity,
)

/** An acknowledgement id: a string or a number. */
const EventIdCodec: t.Type<EventId> = t.union([t.string, t.number])

const Wire = t.intersection([t.type({ event: EventName }), t.partial({ data: t.unknown, id: EventIdCodec })])

/** An event as it travels: `data` is always present (`null` for none), `id` only when set. */
export interface WireEvent {
  readonly event: string
  readonly data: unknown
  readonly id?: EventId
}

const toWire = (msg: EventMessage): WireEvent =>
  msg.id === undefined ? { event: msg.event, data: msg.data ?? null } : { event: msg.event, data: msg.data ?? null, id: msg.id }

/**
 * The envelope as an io-ts codec: a missing `data` decodes as `null`, and `undefined` data
 * encodes as `null`; other keys are ignored.
 *
 * @example
 * EventEnvelope.decode({ event: 'join', data: { room: 'a' }, id: 1 }) // Right({ event: 'join', data: { room: 'a' }, id: 1 })
 * EventEnvelope.encode({ event: 'left', data: undefined }) // { event: 'left', data: null }
 */
export const EventEnvelope = new t.Type<EventMessage, WireEvent, unknown>(
  'EventEnvelope',
  (u): u is EventMessage => Wire.is(u),
  (u, c) =>
    E.map((w: t.TypeOf<typeof Wire>): EventMessage => toWire({ event: w.event, data: w.data, ...(w.id === undefined ? {} : { id: w.id }) }))(
      Wire.validate(u, c),
    ),
  toWire,
)

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

// A message with the sender's trace, when it carries a valid one.
const traced_ = (event: string, data: unknown, id: EventId | undefined, value: Record<string, unknown>): EventMessage => {
  const trace = value['traceparent'] === undefined ? undefined : traceContextOf(value['traceparent'], value['tracestate'])
  return { event, data, ...(id === undefined ? {} : { id }), ...(trace === undefined ? {} : { trace }) }
}

const SHAPE = 'expected {"event": "<name>", "data": <json>, "id"?: <string | number>}'

/**
 * Reads one text message as an event. Text that is not JSON is `invalid_json`; JSON of the
 * wrong shape is `invalid_message`, which keeps the message's `id` when that one is valid, so
 * the error can answer the request.
 *
 * @example
 * decodeEnvelope('{"event":"join","data":{"room":"a"},"id":7}') // Right({ event: 'join', data: { room: 'a' }, id: 7 })
 * decodeEnvelope('{"event":""}') // Left({ code: 'invalid_message', message: 'event must be a non-empty string; ...' })
 *
 * With `traced` (the server traces), a valid `traceparent` field (and its `tracestate`) is kept
 * as the message's `trace`; without, like any other extra key, they are ignored.
 *
 * @example
 * decodeEnvelope('{"event":"a","traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}', true)
 * // Right({ event: 'a', data: null, trace: { traceparent: '00-4bf92f…-01' } })
 */
export const decodeEnvelope = (text: string, traced = false): E.Either<EventError, EventMessage> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return E.left({ code: 'invalid_json', message: 'message is not valid JSON' })
  }
  // The common case checked by the shared wire rule: what io-ts would accept, with the same
  // result, without its contexts and intermediate objects. Anything else goes through the
  // codec below, for its error message.
  if (!envelopeFault(value, false)) {
    const { event, data = null, id } = value as { event: string; data?: unknown; id?: EventId }
    if (traced) return E.right(traced_(event, data, id, value as Record<string, unknown>))
    return E.right(id === undefined ? { event, data } : { event, data, id })
  }
  const decoded = EventEnvelope.decode(value)
  if (E.isRight(decoded)) return decoded
  if (!isRecord(value)) return E.left({ code: 'invalid_message', message: `message must be a JSON object: ${SHAPE}` })
  const idOk = value['id'] === undefined || EventIdCodec.is(value['id'])
  const problems = [
    ...(EventName.is(value['event']) ? [] : ['event must be a non-empty string']),
    ...(idOk ? [] : ['id must be a string or a number']),
  ]
  const id = idOk ? (value['id'] as EventId | undefined) : undefined
  return E.left({ code: 'invalid_message', message: `${problems.join(', ')}; ${SHAPE}`, ...(id === undefined ? {} : { id }) })
}

/**
 * Reads one text message as the events it holds. With `batches` (the client negotiated
 * them), a message holding RS is a batch: each envelope between separators is read as
 * `decodeEnvelope` reads a message (a bad one is its own error, the others stand). Anything
 * else, and every message without `batches`, is one envelope exactly as `decodeEnvelope`
 * reads it.
 *
 * @example
 * decodeEnvelopes('{"event":"a","id":1}\x1e{"event":""}', true)
 * // [Right({ event: 'a', data: null, id: 1 }), Left({ code: 'invalid_message', ... })]
 * decodeEnvelopes('{"event":"a"}', true) // [Right({ event: 'a', data: null })]
 */
export const decodeEnvelopes = (text: string, batches: boolean, traced = false): readonly E.Either<EventError, EventMessage>[] =>
  batches && text.includes(BATCH_SEPARATOR) ? text.split(BATCH_SEPARATOR).map((part) => decodeEnvelope(part, traced)) : [decodeEnvelope(text, traced)]

/**
 * The text of an event. `undefined` data is sent as `null`; the data must be something JSON can
 * hold (`JSON.stringify` throws on a cycle or a BigInt).
 *
 * @example
 * encodeEvent({ event: 'chat', data: { text: 'hi' } }) // '{"event":"chat","data":{"text":"hi"}}'
 */
export const encodeEvent = (msg: EventMessage): string => encodeEnvelope(msg.event, msg.data, msg.id)

/**
 * The text of an error event: `{"event":"error","data":{"error":code,"message":text,...details}}`,
 * with the request's `id` when it had one. Object details are spread into `data`; other details
 * go under `details`.
 *
 * @example
 * encodeErrorEvent({ code: 'unknown_event', message: 'no handler for "x"', id: 3 })
 * // '{"event":"error","data":{"error":"unknown_event","message":"no handler for \"x\""},"id":3}'
 */
export const encodeErrorEvent = (err: EventError): string => {
  const extra = err.details === undefined ? {} : isRecord(err.details) ? err.details : { details: err.details }
  return encodeEvent({ event: 'error', data: { error: err.code, message: err.message, ...extra }, ...(err.id === undefined ? {} : { id: err.id }) })
}
