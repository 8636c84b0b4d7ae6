import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ChunkedCounter } from '../../../bench/streaming/chunked-counter.js'

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)

// Feeds `input` whole, byte by byte and split at every offset; every way must agree.
const feedAllWays = (framing: ConstructorParameters<typeof ChunkedCounter>[0], input: Uint8Array): { state: string; body: number }[] => {
  const results: { state: string; body: number }[] = []
  const whole = new ChunkedCounter(framing)
  results.push({ state: whole.feed(input, 0, input.length), body: whole.bodyBytes })
  const single = new ChunkedCounter(framing)
  let state = single.state
  for (let i = 0; i < input.length; i++) state = single.feed(input, i, i + 1)
  results.push({ state, body: single.bodyBytes })
  for (let cut = 1; cut < input.length; cut++) {
    const c = new ChunkedCounter(framing)
    c.feed(input, 0, cut)
    results.push({ state: c.feed(input, cut, input.length), body: c.bodyBytes })
  }
  return results
}

test('ChunkedCounter :: a chunked body with an extension and a trailer, fed whole, byte by byte and split anywhere', () => {
  const input = bytes('5;name=x\r\nhello\r\nA\r\n0123456789\r\n0\r\nx-check: 1\r\n\r\n')
  for (const r of feedAllWays({ kind: 'chunked' }, input)) assert.equal(r, { state: 'complete', body: 15 })
})

test('ChunkedCounter :: upper-case hex sizes; no last chunk yet is still reading, and end() says it was cut short', () => {
  const c = new ChunkedCounter({ kind: 'chunked' })
  assert.is(c.feed(bytes('1F\r\n'), 0, 4), 'reading')
  assert.is(c.feed(new Uint8Array(31), 0, 31), 'reading')
  assert.is(c.bodyBytes, 31)
  assert.is(c.end(), 'reading')
})

test('ChunkedCounter :: bad framing is invalid: no CRLF after data, a non-hex size, bytes past the end', () => {
  for (const s of ['3\r\nabcX\r\n0\r\n\r\n', 'g\r\n', '\r\n', '0\r\n\r\nHTTP']) {
    const c = new ChunkedCounter({ kind: 'chunked' })
    const input = bytes(s)
    assert.is(c.feed(input, 0, input.length), 'invalid', JSON.stringify(s))
  }
})

test('ChunkedCounter :: a Content-Length body is complete at its length; a close-delimited one at the end', () => {
  for (const r of feedAllWays({ kind: 'length', length: 4 }, bytes('abcd'))) assert.equal(r, { state: 'complete', body: 4 })
  assert.is(new ChunkedCounter({ kind: 'length', length: 0 }).state, 'complete')
  const c = new ChunkedCounter({ kind: 'close' })
  assert.is(c.feed(bytes('abc'), 0, 3), 'reading')
  assert.is(c.end(), 'complete')
  assert.is(c.bodyBytes, 3)
})

test.run()
