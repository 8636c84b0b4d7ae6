import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readSseEvents, SSE_READER_START } from '../../../lib/core/sse/read-sse-events.js'

test('readSseEvents :: the WHATWG example streams', () => {
  // WHATWG HTML §9.2.6: "data: YHOO / data: +2 / data: 10" is one event "YHOO\n+2\n10".
  const read = readSseEvents(SSE_READER_START, 'data: YHOO\ndata: +2\ndata: 10\n\n')
  assert.equal(read.events, [{ event: 'message', data: 'YHOO\n+2\n10', lastEventId: '' }])
  // "data:test" and "data: test" are the same; "data" alone is an empty line of data.
  const two = readSseEvents(SSE_READER_START, 'data:test\n\ndata: test\n\ndata\ndata\n\ndata:\n\n')
  assert.equal(two.events.map((e) => e.data), ['test', 'test', '\n', ''])
})

test('readSseEvents :: comments are skipped, an event without data dispatches nothing, ids persist', () => {
  const read = readSseEvents(SSE_READER_START, ': heartbeat\n\nid: 1\n\nevent: x\ndata: a\n\ndata: b\n\n')
  assert.equal(read.events, [
    { event: 'x', data: 'a', lastEventId: '1' },
    { event: 'message', data: 'b', lastEventId: '1' },
  ])
  assert.is(read.reader.lastEventId, '1')
  assert.is(read.rest, '')
})

test('readSseEvents :: CRLF, CR and LF end lines; a CR at the very end waits for the next piece', () => {
  assert.equal(readSseEvents(SSE_READER_START, 'data: a\r\n\r\ndata: b\r\rdata: c\n\n').events.map((e) => e.data), ['a', 'b', 'c'])
  const cut = readSseEvents(SSE_READER_START, 'data: a\r\n\r')
  assert.is(cut.events.length, 0)
  assert.is(cut.rest, 'data: a\r\n\r')
  assert.equal(readSseEvents(cut.reader, `${cut.rest}\n`).events.map((e) => e.data), ['a'])
})

test('readSseEvents :: an incomplete event is the rest, its id not taken yet', () => {
  const read = readSseEvents(SSE_READER_START, 'id: 1\ndata: a\n\nid: 2\ndata: b')
  assert.is(read.events.length, 1)
  assert.is(read.reader.lastEventId, '1')
  assert.is(read.rest, 'id: 2\ndata: b')
  const next = readSseEvents(read.reader, `${read.rest}\n\n`)
  assert.equal(next.events, [{ event: 'message', data: 'b', lastEventId: '2' }])
})

test('readSseEvents :: retry takes digits only; an id with NUL is ignored; a leading BOM is skipped', () => {
  const read = readSseEvents(SSE_READER_START, '\ufeffretry: 2500\nid: a\0b\ndata: x\n\nretry: 1e3\n\n')
  assert.is(read.reader.retry, 2500)
  assert.is(read.reader.lastEventId, '')
  assert.is(read.events[0]?.data, 'x')
})

test.run()
