import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { HEARTBEAT_MESSAGE, numberEnvelope, readSessionQuery, sessionMessage } from '../../../lib/core/ws/session-wire.js'

test('readSessionQuery :: no tp_v=1, no session (clients that do not opt in are unchanged)', () => {
  assert.is(readSessionQuery(''), undefined)
  assert.is(readSessionQuery('room=lobby'), undefined)
  assert.is(readSessionQuery('tp_v=2'), undefined)
})

test('readSessionQuery :: tp_v=1 asks for a session; with tp_sid and tp_last, a resume', () => {
  assert.equal(readSessionQuery('tp_v=1'), { resume: undefined })
  assert.equal(readSessionQuery('x=1&tp_v=1&tp_sid=ab-C_9&tp_last=42'), { resume: { sid: 'ab-C_9', lastSeq: 42 } })
  assert.equal(readSessionQuery('tp_v=1&tp_sid=abc&tp_last=0'), { resume: { sid: 'abc', lastSeq: 0 } })
})

test('readSessionQuery :: a malformed resume is a fresh session, never an error', () => {
  for (const q of ['tp_v=1&tp_sid=abc', 'tp_v=1&tp_last=3', 'tp_v=1&tp_sid=a%20b&tp_last=1', 'tp_v=1&tp_sid=abc&tp_last=-1', 'tp_v=1&tp_sid=abc&tp_last=1e3', `tp_v=1&tp_sid=${'a'.repeat(65)}&tp_last=1`, 'tp_v=1&tp_sid=abc&tp_last=1&tp_last=2']) {
    assert.equal(readSessionQuery(q), { resume: undefined }, q)
  }
})

test('readSessionQuery :: tp_b announces batches with a byte limit of at least 64; malformed, it is absent', () => {
  assert.equal(readSessionQuery('tp_v=1&tp_b=16777216'), { resume: undefined, batch: 16777216 })
  assert.equal(readSessionQuery('tp_v=1&tp_b=64&tp_sid=abc&tp_last=3'), { resume: { sid: 'abc', lastSeq: 3 }, batch: 64 })
  assert.equal(readSessionQuery('tp_v=1&tp_b=64&tp_sid=a%20b&tp_last=3'), { resume: undefined, batch: 64 })
  for (const q of ['tp_v=1&tp_b=63', 'tp_v=1&tp_b=', 'tp_v=1&tp_b=1e6', 'tp_v=1&tp_b=-100', 'tp_v=1&tp_b=100&tp_b=200', `tp_v=1&tp_b=${'9'.repeat(16)}`]) {
    assert.equal(readSessionQuery(q), { resume: undefined }, q)
  }
  assert.is(readSessionQuery('tp_b=100'), undefined)
})

test('numberEnvelope :: the sequence number goes last, and the text stays JSON', () => {
  const text = numberEnvelope('{"event":"chat","data":{"t":"}"}}', 7)
  assert.is(text, '{"event":"chat","data":{"t":"}"},"seq":7}')
  assert.equal(JSON.parse(text), { event: 'chat', data: { t: '}' }, seq: 7 })
})

test('sessionMessage and HEARTBEAT_MESSAGE :: byte for byte as docs/protocol.md shows', () => {
  assert.is(sessionMessage('abc', true, 30000), '{"event":"tp:session","data":{"sid":"abc","recovered":true,"heartbeat":30000}}')
  assert.is(HEARTBEAT_MESSAGE, '{"event":"tp:heartbeat"}')
  assert.is(sessionMessage('abe', false, 30000, undefined, 1048576), '{"event":"tp:session","data":{"sid":"abe","recovered":false,"heartbeat":30000,"batch":1048576}}')
  assert.is(sessionMessage('abf', false, 0, 'gap', 64), '{"event":"tp:session","data":{"sid":"abf","recovered":false,"heartbeat":0,"resync":"gap","batch":64}}')
  assert.is(sessionMessage('abd', false, 30000, 'unavailable'), '{"event":"tp:session","data":{"sid":"abd","recovered":false,"heartbeat":30000,"resync":"unavailable"}}')
})

test.run()
