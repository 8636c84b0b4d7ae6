/**
 * The server and the client read the same wire: what the server's encoders write, the
 * client's `readServerMessage` reads back as the same values (events, acks, numbered
 * messages, batches, the session message), what the client writes the server's
 * `decodeEnvelope` reads back, and the client's session query is what the server reads.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readServerMessage } from '../../../lib/client/read-server-message.js'
import { decodeEnvelope, decodeEnvelopes, encodeEvent } from '../../../lib/core/ws/envelope.js'
import { BATCH_SEPARATOR, encodeAck, encodeEnvelope, numberEnvelope, type ResyncReason, sessionMessage, sessionQuery } from '../../../lib/core/ws/envelope-wire.js'
import { readSessionQuery } from '../../../lib/core/ws/session-wire.js'

const LIMIT = 1 << 30
// JSON has no -0 and no undefined: what a value reads back as after a trip through JSON.
const viaJson = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)))
const eventName = fc.string({ minLength: 1 })
const eventId = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
const data = fc.oneof(fc.jsonValue(), fc.constant(undefined))
const message = fc.record({ event: eventName, data, id: eventId }, { requiredKeys: ['event', 'data'] })

test('wire :: an event the server encodes (numbered or not), the client reads back identically', () => {
  fc.assert(
    fc.property(message, fc.option(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { nil: undefined }), (msg, seq) => {
      const text = seq === undefined ? encodeEvent(msg) : numberEnvelope(encodeEvent(msg), seq)
      const expected = { _tag: 'ServerMessage', event: msg.event, data: viaJson(msg.data), ...(msg.id !== undefined && { id: viaJson(msg.id) }), ...(seq !== undefined && { seq }) }
      assert.equal(readServerMessage(text, LIMIT), expected)
    }),
  )
})

test('wire :: an ack the server encodes, the client reads back as its id and data', () => {
  fc.assert(
    fc.property(eventId, fc.jsonValue(), (id, value) => {
      assert.equal(readServerMessage(encodeAck(id, value), LIMIT), { _tag: 'ServerMessage', event: 'ack', data: viaJson(value), id: viaJson(id) })
    }),
  )
})

test('wire :: a batch the server joins, the client splits into the same envelopes', () => {
  fc.assert(
    fc.property(fc.array(message, { minLength: 1, maxLength: 5 }), (messages) => {
      const texts = messages.map(encodeEvent)
      const read = texts.join(BATCH_SEPARATOR).split(BATCH_SEPARATOR).map((t) => readServerMessage(t, LIMIT))
      assert.equal(read, texts.map((t) => readServerMessage(t, LIMIT)))
    }),
  )
})

test('wire :: the session message the server writes, the client reads back field for field', () => {
  const reason = fc.option(fc.constantFrom<ResyncReason>('unknown_session', 'gap', 'unavailable'), { nil: undefined })
  const batch = fc.option(fc.integer({ min: 64, max: 2 ** 31 - 1 }), { nil: undefined })
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), fc.boolean(), fc.integer({ min: 1, max: 2 ** 31 }), reason, batch, (sid, recovered, heartbeat, resync, limit) => {
      const read = readServerMessage(sessionMessage(sid, recovered, heartbeat, resync, limit), LIMIT)
      const expected = { sid, recovered, heartbeat, ...(resync !== undefined && { resync }), ...(limit !== undefined && { batch: limit }) }
      assert.equal(read, { _tag: 'ServerMessage', event: 'tp:session', data: expected })
    }),
  )
})

test('wire :: what the client encodes, the server decodes back (one envelope, or a batch of them)', () => {
  fc.assert(
    fc.property(fc.array(message, { minLength: 1, maxLength: 4 }), (messages) => {
      const texts = messages.map((m) => encodeEnvelope(m.event, m.data, m.id))
      const expected = messages.map((m) => E.right({ event: m.event, data: viaJson(m.data), ...(m.id !== undefined && { id: viaJson(m.id) }) }))
      assert.equal(texts.map((text) => decodeEnvelope(text)), expected)
      assert.equal(decodeEnvelopes(texts.join(BATCH_SEPARATOR), true), expected)
    }),
  )
})

test('wire :: the session query the client writes, the server reads back', () => {
  const sid = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)
  fc.assert(
    fc.property(fc.integer({ min: 64, max: 2 ** 40 }), fc.option(fc.tuple(sid, fc.integer({ min: 0, max: 2 ** 40 })), { nil: undefined }), (batch, resume) => {
      const query = resume === undefined ? sessionQuery(batch) : sessionQuery(batch, resume[0], resume[1])
      assert.equal(readSessionQuery(query), { resume: resume && { sid: resume[0], lastSeq: resume[1] }, batch })
    }),
  )
})

test.run()
