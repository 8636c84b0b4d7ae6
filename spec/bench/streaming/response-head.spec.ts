import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseResponseHead } from '../../../bench/streaming/response-head.js'

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)
const parse = (s: string) => parseResponseHead(bytes(s), bytes(s).length)

test('parseResponseHead :: framing by Transfer-Encoding, then Content-Length, else close-delimited', () => {
  const chunked = parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\ncontent-length: 3\r\n\r\n3\r\n')
  assert.equal(chunked !== undefined && chunked !== 'invalid' ? [chunked.status, chunked.framing, chunked.headBytes] : chunked, [200, { kind: 'chunked' }, 66])
  const length = parse('HTTP/1.1 413 Payload Too Large\r\ncontent-length: 17\r\n\r\n')
  assert.equal(length !== undefined && length !== 'invalid' ? [length.status, length.framing] : length, [413, { kind: 'length', length: 17 }])
  const close = parse('HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\n')
  assert.equal(close !== undefined && close !== 'invalid' ? [close.framing, close.headers.get('content-type')] : close, [{ kind: 'close' }, 'text/plain'])
})

test('parseResponseHead :: undefined until the empty line; invalid for a non-response', () => {
  assert.is(parse('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n'), undefined)
  assert.is(parse('GET / HTTP/1.1\r\n\r\n'), 'invalid')
})

test.run()
