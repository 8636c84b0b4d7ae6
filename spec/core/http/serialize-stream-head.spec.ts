import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { serializeStreamHead } from '../../../lib/core/http/serialize-stream-head.js'
import { stream } from '../../../lib/core/http/stream-response.js'
import { isStreamBody } from '../../../lib/core/http/stream-body.js'
import { chunkSizeLine, CHUNK_TAIL, LAST_CHUNK } from '../../../lib/core/http/chunk-framing.js'
import { text } from '../../../lib/core/http/response.js'
import { getBodyString } from '../../../lib/core/http/read-response.js'

const dec = new TextDecoder()
async function* none(): AsyncGenerator<string> {}
const head = (res: ReturnType<typeof stream>, options: Parameters<typeof serializeStreamHead>[1]) => {
  const out = serializeStreamHead(res, options)
  return { ...out, text: dec.decode(out.bytes) }
}

test('stream :: a streamed response value: status, content type, headers, length', () => {
  const res = stream(none(), { status: 201, headers: { 'X-A': '1', 'Content-Length': '9' }, contentType: 'text/plain' })
  assert.is(res.status, 201)
  assert.is(res.contentType, 'text/plain')
  assert.equal(res.headers, [['X-A', '1']])
  assert.ok(isStreamBody(res.body))
  assert.is(stream(none()).contentType, 'application/octet-stream')
  assert.is(stream(none(), { headers: { 'content-type': 'text/csv' } }).contentType, 'text/csv')
  assert.is(isStreamBody(stream(none(), { length: 5 }).body) && (stream(none(), { length: 5 }).body as { length: number }).length, 5)
  // A length that is no byte count is no length: the body is chunked.
  for (const length of [-1, 1.5, Number.NaN]) assert.is((stream(none(), { length }).body as { length: unknown }).length, undefined)
  assert.is(getBodyString(stream(none())), '')
  assert.ok(!isStreamBody(text('x').body))
})

test('serializeStreamHead :: HTTP/1.1 without a length is chunked', () => {
  const out = head(stream(none(), { contentType: 'text/plain' }), { keepAlive: true, protocol: 'HTTP/1.1', date: 'D' })
  assert.is(out.framing, 'chunked')
  assert.ok(out.keepAlive)
  assert.is(out.text, 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nDate: D\r\n\r\n')
})

test('serializeStreamHead :: a known length is sent as Content-Length', () => {
  const out = head(stream(none(), { length: 42, headers: { 'X-Id': '7' } }), { keepAlive: false })
  assert.is(out.framing, 'length')
  assert.is(out.length, 42)
  assert.is(out.text, 'HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 42\r\nX-Id: 7\r\nConnection: close\r\n\r\n')
})

test('serializeStreamHead :: HTTP/1.0 without a length ends by closing the connection', () => {
  const out = head(stream(none()), { keepAlive: true, protocol: 'HTTP/1.0' })
  assert.is(out.framing, 'close')
  assert.not.ok(out.keepAlive)
  assert.ok(out.text.endsWith('Connection: close\r\n\r\n'))
  assert.not.match(out.text, /Transfer-Encoding/)
  const known = head(stream(none(), { length: 1 }), { keepAlive: true, protocol: 'HTTP/1.0' })
  assert.is(known.framing, 'length')
  assert.ok(known.text.endsWith('Connection: keep-alive\r\n\r\n'))
})

test('serializeStreamHead :: no body for HEAD, 204 and 304; HEAD keeps the framing headers', () => {
  const headOut = head(stream(none()), { keepAlive: true, head: true })
  assert.is(headOut.framing, 'none')
  assert.match(headOut.text, /Transfer-Encoding: chunked/)
  for (const status of [204, 304, 101]) {
    const out = head(stream(none(), { status }), { keepAlive: true })
    assert.is(out.framing, 'none', String(status))
    assert.not.match(out.text, /Content-Type|Content-Length|Transfer-Encoding/)
  }
  assert.match(head(stream(none(), { status: 999 }), { keepAlive: true }).text, /^HTTP\/1.1 500 /)
})

test('chunk framing :: size lines in lower-case hex, the tail and the last chunk', () => {
  assert.is(dec.decode(chunkSizeLine(1)), '1\r\n')
  assert.is(dec.decode(chunkSizeLine(255)), 'ff\r\n')
  assert.is(dec.decode(chunkSizeLine(256)), '100\r\n')
  assert.is(dec.decode(chunkSizeLine(2 ** 32)), '100000000\r\n')
  // Each edge where the line grows by a digit, up to the largest exact integer's range.
  for (const n of [15, 16, 4095, 4096, 65535, 65536, 2 ** 32 - 1, 2 ** 52, 2 ** 53 - 1]) assert.is(dec.decode(chunkSizeLine(n)), `${n.toString(16)}\r\n`, String(n))
  for (let n = 1; n < 5000; n += 37) assert.is(dec.decode(chunkSizeLine(n)), `${n.toString(16)}\r\n`)
  assert.is(dec.decode(CHUNK_TAIL), '\r\n')
  assert.is(dec.decode(LAST_CHUNK), '0\r\n\r\n')
})

test.run()
