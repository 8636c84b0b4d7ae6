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

test('numberEnvelope :: the sequence number goes last, and the text stays JSON', () => {
  const text = numberEnvelope('{"event":"chat","data":{"t":"}"}}', 7)
  assert.is(text, '{"event":"chat","data":{"t":"}"},"seq":7}')
  assert.equal(JSON.parse(text), { event: 'chat', data: { t: '}' }, seq: 7 })
})

test('sessionMessage and HEARTBEAT_MESSAGE :: byte for byte as docs/protocol.md shows', () => {
  assert.is(sessionMessage('abc', true, 30000), '{"event":"tp:session","data":{"sid":"abc","recovered":true,"heartbeat":30000}}')
  assert.is(HEARTBEAT_MESSAGE, '{"event":"tp:heartbeat"}')
  assert.is(sessionMessage('abd', false, 30000, 'unavailable'), '{"event":"tp:session","data":{"sid":"abd","recovered":false,"heartbeat":30000,"resync":"unavailable"}}')
})

test.run()
