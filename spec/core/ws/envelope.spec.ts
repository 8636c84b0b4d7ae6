import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BATCH_SEPARATOR, decodeEnvelope, decodeEnvelopes, encodeAck, encodeErrorEvent, encodeEvent, EventEnvelope } from '../../../lib/core/ws/envelope.js'

test('decodeEnvelope :: an event with data and an id', () => {
  assert.equal(decodeEnvelope('{"event":"join","data":{"room":"a"},"id":7}'), E.right({ event: 'join', data: { room: 'a' }, id: 7 }))
  assert.equal(decodeEnvelope('{"event":"join","data":[1,2],"id":"r-1"}'), E.right({ event: 'join', data: [1, 2], id: 'r-1' }))
})

test('decodeEnvelope :: missing data is null; extra keys are ignored', () => {
  assert.equal(decodeEnvelope('{"event":"ping"}'), E.right({ event: 'ping', data: null }))
  assert.equal(decodeEnvelope('{"event":"ping","data":0,"extra":true}'), E.right({ event: 'ping', data: 0 }))
})

test('decodeEnvelope :: text that is not JSON is invalid_json', () => {
  for (const text of ['', '{', 'event', '{"event":"x",}', 'undefined']) {
    assert.equal(decodeEnvelope(text), E.left({ code: 'invalid_json', message: 'message is not valid JSON' }), text)
  }
})

test('decodeEnvelope :: JSON that is not an object is invalid_message', () => {
  for (const text of ['[]', '"join"', '42', 'null', 'true', '[{"event":"x"}]']) {
    const result = decodeEnvelope(text)
    assert.equal(E.isLeft(result) && result.left.code, 'invalid_message', text)
    assert.match(E.isLeft(result) ? result.left.message : '', 'must be a JSON object')
  }
})

test('decodeEnvelope :: a bad event name is invalid_message, keeping a valid id', () => {
  const result = decodeEnvelope('{"event":"","id":3}')
  assert.equal(E.isLeft(result) && [result.left.code, result.left.id], ['invalid_message', 3])
  assert.match(E.isLeft(result) ? result.left.message : '', 'event must be a non-empty string')
  const missing = decodeEnvelope('{"data":1,"id":"q"}')
  assert.equal(E.isLeft(missing) && [missing.left.code, missing.left.id], ['invalid_message', 'q'])
  const number = decodeEnvelope('{"event":5}')
  assert.equal(E.isLeft(number) && [number.left.code, 'id' in number.left], ['invalid_message', false])
})

test('decodeEnvelope :: a bad id is invalid_message without an id', () => {
  for (const text of ['{"event":"x","id":{}}', '{"event":"x","id":true}', '{"event":"x","id":null}', '{"event":"x","id":[1]}']) {
    const result = decodeEnvelope(text)
    assert.ok(E.isLeft(result), text)
    if (E.isLeft(result)) {
      assert.is(result.left.code, 'invalid_message')
      assert.not.ok('id' in result.left, text)
      assert.match(result.left.message, 'id must be a string or a number')
    }
  }
  const both = decodeEnvelope('{"event":1,"id":false}')
  assert.match(E.isLeft(both) ? both.left.message : '', 'event must be a non-empty string, id must be a string or a number')
})

test('decodeEnvelope :: never throws on any text', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
      const result = decodeEnvelope(text)
      assert.ok(E.isLeft(result) || typeof result.right.event === 'string')
    }),
    { numRuns: 500 },
  )
})

test('EventEnvelope :: is, decode and encode as an io-ts codec', () => {
  assert.ok(EventEnvelope.is({ event: 'x', data: 1 }))
  assert.not.ok(EventEnvelope.is({ event: '' }))
  assert.ok(E.isLeft(EventEnvelope.decode({ event: 'x', id: {} })))
  assert.equal(EventEnvelope.encode({ event: 'x', data: undefined }), { event: 'x', data: null })
  assert.equal(EventEnvelope.encode({ event: 'x', data: 2, id: 'a' }), { event: 'x', data: 2, id: 'a' })
})

test('encodeEvent :: event then data then id; undefined data as null', () => {
  assert.is(encodeEvent({ event: 'chat', data: { text: 'hi' } }), '{"event":"chat","data":{"text":"hi"}}')
  assert.is(encodeEvent({ event: 'chat', data: undefined }), '{"event":"chat","data":null}')
  assert.is(encodeEvent({ event: 'chat', data: [1], id: 9 }), '{"event":"chat","data":[1],"id":9}')
})

test('encodeEvent ∘ decodeEnvelope :: round trip for any JSON data and id', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), fc.jsonValue(), fc.option(fc.oneof(fc.string(), fc.integer()), { nil: undefined }), (event, data, id) => {
      const msg = id === undefined ? { event, data } : { event, data, id }
      // JSON cannot tell -0 from 0.
      assert.equal(decodeEnvelope(encodeEvent(msg)), E.right(JSON.parse(JSON.stringify(msg))))
    }),
    { numRuns: 300 },
  )
})

test('encodeErrorEvent :: the error event shape, with id, and details spread or nested', () => {
  assert.is(
    encodeErrorEvent({ code: 'invalid_json', message: 'message is not valid JSON' }),
    '{"event":"error","data":{"error":"invalid_json","message":"message is not valid JSON"}}',
  )
  assert.is(
    encodeErrorEvent({ code: 'unknown_event', message: 'no handler', id: 3 }),
    '{"event":"error","data":{"error":"unknown_event","message":"no handler"},"id":3}',
  )
  assert.is(
    encodeErrorEvent({ code: 'invalid_payload', message: 'bad', details: { paths: ['room'] } }),
    '{"event":"error","data":{"error":"invalid_payload","message":"bad","paths":["room"]}}',
  )
  assert.is(
    encodeErrorEvent({ code: 'handler_error', message: 'boom', details: ['x'] }),
    '{"event":"error","data":{"error":"handler_error","message":"boom","details":["x"]}}',
  )
})

test('encodeAck :: event, id, data; undefined data as null', () => {
  assert.is(encodeAck(7, { ok: true }), '{"event":"ack","id":7,"data":{"ok":true}}')
  assert.is(encodeAck('r', undefined), '{"event":"ack","id":"r","data":null}')
})

test('decodeEnvelopes :: RS separates the envelopes of a batch; an empty or malformed one is its own error', () => {
  assert.is(BATCH_SEPARATOR, '\x1e')
  const batch = ['{"event":"a","id":1}', '', '{"event":"b","data":[1,\n 2]}', '{"event":7,"id":"x"}'].join(BATCH_SEPARATOR)
  const read = decodeEnvelopes(batch, true)
  assert.equal(read[0], E.right({ event: 'a', data: null, id: 1 }))
  assert.equal(read[1], E.left({ code: 'invalid_json', message: 'message is not valid JSON' }))
  assert.equal(read[2], E.right({ event: 'b', data: [1, 2] }))
  assert.equal(read[3], decodeEnvelope('{"event":7,"id":"x"}'))
  assert.is(read.length, 4)
  // Without batches, the same text is one message: not JSON.
  assert.equal(decodeEnvelopes(batch, false), [E.left({ code: 'invalid_json', message: 'message is not valid JSON' })])
})

const TP = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'

test('decodeEnvelope :: traceparent and tracestate are ignored unless traced; traced, a valid one is the message\'s trace', () => {
  const text = `{"event":"a","id":1,"traceparent":"${TP}","tracestate":"k=v"}`
  assert.equal(decodeEnvelope(text), E.right({ event: 'a', data: null, id: 1 }))
  assert.equal(decodeEnvelope(text, true), E.right({ event: 'a', data: null, id: 1, trace: { traceparent: TP, tracestate: 'k=v' } }))
  // Bad trace fields never make a bad envelope: the message stands without a trace.
  for (const bad of ['"traceparent":42', '"traceparent":"00-zz"', `"traceparent":"ff-${TP.slice(3)}"`]) {
    assert.equal(decodeEnvelope(`{"event":"a",${bad}}`, true), E.right({ event: 'a', data: null }), bad)
    assert.equal(decodeEnvelope(`{"event":"a",${bad}}`), E.right({ event: 'a', data: null }), bad)
  }
  assert.equal(decodeEnvelope(`{"event":"a","traceparent":"${TP}","tracestate":7}`, true), E.right({ event: 'a', data: null, trace: { traceparent: TP } }))
  assert.equal(decodeEnvelopes(`{"event":"a","traceparent":"${TP}"}${BATCH_SEPARATOR}{"event":"b"}`, true, true), [
    E.right({ event: 'a', data: null, trace: { traceparent: TP } }),
    E.right({ event: 'b', data: null }),
  ])
})

test.run()
