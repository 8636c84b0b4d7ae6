import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BATCH_SEPARATOR, decodeEnvelope, decodeEnvelopes, encodeAck, EventEnvelope } from '../../../lib/core/ws/envelope.js'

// Objects near the envelope's shape: each key present or not, with a value of the right type
// or of any other JSON type, plus keys the envelope ignores.
const anyJson = fc.jsonValue({ maxDepth: 2 })
const envelopeLike = fc.record(
  {
    event: fc.oneof(fc.string({ maxLength: 6 }), anyJson),
    data: anyJson,
    id: fc.oneof(fc.string({ maxLength: 4 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), anyJson),
    extra: anyJson,
  },
  { requiredKeys: [] },
)

test('decodeEnvelope :: its hand-checked common case agrees with the io-ts codec on every JSON value', () => {
  fc.assert(
    fc.property(fc.oneof(envelopeLike, anyJson), (value) => {
      const text = JSON.stringify(value)
      const viaCodec = EventEnvelope.decode(JSON.parse(text))
      const decoded = decodeEnvelope(text)
      if (E.isRight(viaCodec)) assert.equal(decoded, viaCodec)
      else assert.ok(E.isLeft(decoded) && decoded.left.code === 'invalid_message')
    }),
    { numRuns: 2000 },
  )
})

test('encodeAck :: the text built by hand is the JSON of {"event":"ack","id","data"}', () => {
  const answers = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.constant(() => 1), fc.constant(Symbol('s')), fc.date({ noInvalidDate: true }))
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.integer(), fc.double()), answers, (id, data) => {
      assert.is(encodeAck(id, data), JSON.stringify({ event: 'ack', id, data: data ?? null }))
    }),
    { numRuns: 2000 },
  )
})

test('decodeEnvelopes :: a batch is its envelopes, each decoded as if it were a message alone', () => {
  // Any text at all between the separators (no RS in it), well formed or not.
  const piece = fc.oneof(envelopeLike.map((v) => JSON.stringify(v)), fc.json(), fc.string().filter((t) => !t.includes(BATCH_SEPARATOR)))
  fc.assert(
    fc.property(fc.array(piece, { minLength: 2, maxLength: 6 }), (texts) => {
      assert.equal(decodeEnvelopes(texts.join(BATCH_SEPARATOR), true), texts.map((t) => decodeEnvelope(t)))
    }),
  )
})

test('decodeEnvelopes :: without batches, or without RS, it is decodeEnvelope', () => {
  fc.assert(
    fc.property(fc.oneof(fc.json(), fc.string({ unit: 'binary' })), fc.boolean(), (text, batches) => {
      fc.pre(!batches || !text.includes(BATCH_SEPARATOR))
      assert.equal(decodeEnvelopes(text, batches), [decodeEnvelope(text)])
    }),
  )
})

test.run()
