import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readServerMessage } from '../../lib/client/read-server-message.js'

const test = suite('readServerMessage properties')

test('readServerMessage :: never throws on any text', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 0, max: 1 << 20 }), (text, limit) => typeof readServerMessage(text, limit)._tag === 'string'))
})

test('readServerMessage :: never throws on any JSON value', () => {
  fc.assert(fc.property(fc.json(), (text) => typeof readServerMessage(text, 1 << 20)._tag === 'string'))
})

test('readServerMessage :: reads back any envelope the server encodes', () => {
  const envelope = fc.record(
    { event: fc.string({ minLength: 1 }), data: fc.jsonValue(), id: fc.oneof(fc.string(), fc.integer()), seq: fc.integer({ min: 1 }) },
    { requiredKeys: ['event', 'data'] },
  )
  fc.assert(
    fc.property(envelope, (msg) => {
      // JSON has no -0: it reads back as 0.
      const expected = JSON.parse(JSON.stringify(msg)) as object
      assert.equal(readServerMessage(JSON.stringify(msg), 1 << 30), { _tag: 'ServerMessage', ...expected })
    }),
  )
})

test.run()
