import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readServerMessage } from '../../lib/client/read-server-message.js'

const test = suite('readServerMessage')
const LIMIT = 1 << 20

test('readServerMessage :: an event with data', () => {
  assert.equal(readServerMessage('{"event":"joined","data":{"room":"lobby"}}', LIMIT), { _tag: 'ServerMessage', event: 'joined', data: { room: 'lobby' } })
})

test('readServerMessage :: an ack keeps its id as sent, number or string', () => {
  assert.equal(readServerMessage('{"event":"ack","id":1,"data":{"ok":true}}', LIMIT), { _tag: 'ServerMessage', event: 'ack', data: { ok: true }, id: 1 })
  assert.equal(readServerMessage('{"event":"ack","id":"1","data":null}', LIMIT), { _tag: 'ServerMessage', event: 'ack', data: null, id: '1' })
})

test('readServerMessage :: a missing data reads as null; other keys are ignored', () => {
  assert.equal(readServerMessage('{"event":"ping","extra":[1]}', LIMIT), { _tag: 'ServerMessage', event: 'ping', data: null })
})

test('readServerMessage :: a numbered message carries its seq', () => {
  assert.equal(readServerMessage('{"event":"m","data":1,"seq":42}', LIMIT), { _tag: 'ServerMessage', event: 'm', data: 1, seq: 42 })
})

test('readServerMessage :: text that is not JSON is InvalidJson', () => {
  assert.equal(readServerMessage('{"event":', LIMIT), { _tag: 'InvalidJson', message: 'message is not JSON' })
  assert.equal(readServerMessage('', LIMIT), { _tag: 'InvalidJson', message: 'message is not JSON' })
})

test('readServerMessage :: JSON that is not an object is InvalidMessage', () => {
  for (const text of ['[1,2]', '"event"', '42', 'null', 'true']) {
    assert.equal(readServerMessage(text, LIMIT), { _tag: 'InvalidMessage', message: 'not an event envelope: not an object' }, text)
  }
})

test('readServerMessage :: a missing, empty or non-string event is InvalidMessage', () => {
  for (const text of ['{}', '{"event":""}', '{"event":7}', '{"data":{}}']) {
    assert.equal(readServerMessage(text, LIMIT), { _tag: 'InvalidMessage', message: 'not an event envelope: bad "event"' }, text)
  }
})

test('readServerMessage :: an id that is neither string nor number is InvalidMessage', () => {
  for (const text of ['{"event":"ack","id":null}', '{"event":"ack","id":[1]}', '{"event":"ack","id":true}']) {
    assert.equal(readServerMessage(text, LIMIT), { _tag: 'InvalidMessage', message: 'not an event envelope: bad "id"' }, text)
  }
})

test('readServerMessage :: a seq that is not a positive integer is InvalidMessage', () => {
  for (const text of ['{"event":"m","seq":0}', '{"event":"m","seq":-1}', '{"event":"m","seq":1.5}', '{"event":"m","seq":"1"}', '{"event":"m","seq":1e300}']) {
    assert.equal(readServerMessage(text, LIMIT), { _tag: 'InvalidMessage', message: 'not an event envelope: bad "seq"' }, text)
  }
})

test('readServerMessage :: binary data is BinaryMessage with its size', () => {
  assert.equal(readServerMessage(new Uint8Array([1, 2, 3]).buffer, LIMIT), {
    _tag: 'BinaryMessage',
    size: 3,
    message: 'binary message of 3 bytes',
  })
  // A Blob, where binaryType 'arraybuffer' was not honoured.
  assert.equal(readServerMessage(new Blob(['abcd']), LIMIT), { _tag: 'BinaryMessage', size: 4, message: 'binary message of 4 bytes' })
  assert.equal(readServerMessage(undefined, LIMIT), { _tag: 'BinaryMessage', size: 0, message: 'binary message of 0 bytes' })
})

test('readServerMessage :: text over the limit is MessageTooBig, counted in UTF-8 bytes', () => {
  const text = `{"event":"m","data":"${'x'.repeat(100)}"}` // 123 bytes
  assert.equal(readServerMessage(text, 122), { _tag: 'MessageTooBig', size: 123, limit: 122, message: 'message over maxMessageBytes 122' })
  assert.is(readServerMessage(text, 123)._tag, 'ServerMessage')
})

test('readServerMessage :: multi-byte text is measured exactly near the limit', () => {
  // 23 bytes of ASCII and 10 × 3 bytes of "€": 53 bytes in 33 code units.
  const text = `{"event":"m","data":"${'€'.repeat(10)}"}`
  assert.is(new TextEncoder().encode(text).length, 53)
  assert.is(readServerMessage(text, 53)._tag, 'ServerMessage')
  assert.equal(readServerMessage(text, 52), { _tag: 'MessageTooBig', size: 53, limit: 52, message: 'message over maxMessageBytes 52' })
  // Over the limit in code units already: the count of code units is reported.
  assert.equal(readServerMessage(text, 20), { _tag: 'MessageTooBig', size: 33, limit: 20, message: 'message over maxMessageBytes 20' })
})

test.run()
