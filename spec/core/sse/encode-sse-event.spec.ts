import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeSseComment, encodeSseEvent, encodeSseRetry } from '../../../lib/core/sse/encode-sse-event.js'
import { isSseToken } from '../../../lib/core/sse/sse-event.js'

test('encodeSseEvent :: data alone is one data line and the empty line', () => {
  assert.is(encodeSseEvent({ data: 'hello' }), 'data: hello\n\n')
  assert.is(encodeSseEvent({ data: '' }), 'data: \n\n')
})

test('encodeSseEvent :: event, id and retry come first, in that order', () => {
  assert.is(encodeSseEvent({ data: '{"a":1}', event: 'chat', id: 'sid:7', retry: 1500 }), 'event: chat\nid: sid:7\nretry: 1500\ndata: {"a":1}\n\n')
})

test('encodeSseEvent :: CRLF, CR and LF in data each start a data line', () => {
  assert.is(encodeSseEvent({ data: 'a\r\nb\rc\nd' }), 'data: a\ndata: b\ndata: c\ndata: d\n\n')
  assert.is(encodeSseEvent({ data: 'end\n' }), 'data: end\ndata: \n\n')
})

test('encodeSseEvent :: a leading space in data survives (one space follows every colon)', () => {
  assert.is(encodeSseEvent({ data: ' x' }), 'data:  x\n\n')
})

test('encodeSseEvent :: an event or id with a line break or NUL, or a bad retry, is left out', () => {
  assert.is(encodeSseEvent({ data: 'x', event: 'a\nb', id: 'c\0', retry: 1.5 }), 'data: x\n\n')
  assert.is(encodeSseEvent({ data: 'x', event: '', retry: -1 }), 'data: x\n\n')
  assert.ok(isSseToken('sid:1'))
  assert.not.ok(isSseToken('a\rb'))
})

test('encodeSseComment :: an empty comment, and one line per line of text', () => {
  assert.is(encodeSseComment(''), ':\n\n')
  assert.is(encodeSseComment('a\nb'), ': a\n: b\n\n')
})

test('encodeSseRetry :: a retry field alone, or nothing for a bad time', () => {
  assert.is(encodeSseRetry(3000), 'retry: 3000\n\n')
  assert.is(encodeSseRetry(-5), '')
})

test.run()
