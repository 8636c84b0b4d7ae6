import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createHeadScratch } from '../../../lib/core/http/head-scratch.js'
import { DEFAULT_HTTP_LIMITS } from '../../../lib/core/http/http-limits.js'
import { readHead } from '../../../lib/core/http/read-head.js'
import { requestOfHead } from '../../../lib/core/http/request-of-head.js'

// One server's scratch, for every test here (as a server keeps it).
const scratch = createHeadScratch()

const headOf = (text: string) => {
  const read = readHead(new TextEncoder().encode(text), DEFAULT_HTTP_LIMITS, 0, scratch)
  if (read === undefined || !('_tag' in read) || read._tag !== 'Right') throw new Error(`not a head: ${JSON.stringify(text)}`)
  return read.right
}

test('requestOfHead :: the head fields, the body and trailers given, without framing or end offset', () => {
  const head = headOf('POST /a/b?c=1 HTTP/1.0\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n')
  const body = Uint8Array.of(0x68, 0x69)
  const trailers = [['x-sum', '1']] as const
  const request = requestOfHead(head, body, trailers)
  assert.equal(Object.keys(request).sort(), ['body', 'expectContinue', 'headers', 'keepAlive', 'method', 'path', 'protocol', 'rawQuery', 'target', 'trailers'])
  assert.is(request.method, 'POST')
  assert.is(request.target, '/a/b?c=1')
  assert.is(request.path, '/a/b')
  assert.is(request.rawQuery, 'c=1')
  assert.is(request.protocol, 'HTTP/1.0')
  assert.is(request.headers, head.headers)
  assert.is(request.keepAlive, head.keepAlive)
  assert.is(request.expectContinue, head.expectContinue)
  assert.is(request.body, body)
  assert.is(request.trailers, trailers)
})

test.run()
