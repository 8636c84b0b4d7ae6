import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createHeadScratch } from '../../../lib/core/http/head-scratch.js'
import { DEFAULT_HTTP_LIMITS } from '../../../lib/core/http/http-limits.js'
import { readHead } from '../../../lib/core/http/read-head.js'
import { HEAD_START } from '../../../lib/core/http/scan-head.js'

// One server's scratch, for every test here (as a server keeps it).
const scratch = createHeadScratch()

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))
const read = (s: string, limits = DEFAULT_HTTP_LIMITS) => readHead(enc(s), limits, 0, scratch)

test('readHead :: a complete plain head in one pass, trailing bytes untouched', () => {
  const r = read('POST /a?b=1 HTTP/1.0\r\nHost: x\r\nContent-Length: 3\r\nConnection: keep-alive\r\nX-E:  v \t\r\n\r\nabcGET')
  assert.ok(r !== undefined && '_tag' in r && r._tag === 'Right')
  const head = r.right
  assert.equal(
    [head.method, head.target, head.path, head.rawQuery, head.protocol, head.keepAlive, head.framing, head.end],
    ['POST', '/a?b=1', '/a', 'b=1', 'HTTP/1.0', true, { _tag: 'Length', length: 3 }, 87],
  )
  assert.equal(head.headers, [['Host', 'x'], ['Content-Length', '3'], ['Connection', 'keep-alive'], ['X-E', 'v']])
})

test('readHead :: the field list holds every field in order, with no holes, whatever their number', () => {
  for (const n of [0, 1, 2, 17, 40]) {
    const fields = Array.from({ length: n }, (_, i) => `X-${i}: v${i}\r\n`).join('')
    const r = read(`GET / HTTP/1.0\r\n${fields}\r\n`)
    assert.ok(r !== undefined && '_tag' in r && r._tag === 'Right')
    const headers = r.right.headers
    assert.is(headers.length, n)
    assert.equal(Object.keys(headers), Array.from({ length: n }, (_, i) => String(i)))
    assert.equal([...headers], Array.from({ length: n }, (_, i) => [`X-${i}`, `v${i}`]))
  }
})

test('readHead :: an unknown method is kept as sent', () => {
  const r = read('M-SEARCH / HTTP/1.1\r\nHost: a\r\n\r\n')
  assert.ok(r !== undefined && '_tag' in r && r._tag === 'Right')
  assert.is(r.right.method, 'M-SEARCH')
})

test('readHead :: framing errors of a complete head are answered', () => {
  const r = read('GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n')
  assert.ok(r !== undefined && '_tag' in r && r._tag === 'Left')
  assert.equal([r.left._tag, r.left.status], ['ContentLengthWithTransferEncoding', 400])
})

// RFC 9112 §3.2: one Host, with a valid value, on HTTP/1.1. The reader checks the usual
// reg-name[:port] on its walk and leaves any other form to isValidHost.
test('readHead :: Host is counted and checked on the way', () => {
  const tag = (raw: string) => {
    const r = read(raw)
    return r !== undefined && '_tag' in r ? (r._tag === 'Left' ? r.left._tag : r.right.headers) : r
  }
  assert.equal(tag('GET / HTTP/1.1\r\nHOST: localhost:6001\r\n\r\n'), [['HOST', 'localhost:6001']])
  assert.equal(tag('GET / HTTP/1.1\r\nHost: [::1]:80 \r\n\r\n'), [['Host', '[::1]:80']])
  assert.equal(tag('GET / HTTP/1.1\r\nHost: a%41\r\n\r\n'), [['Host', 'a%41']])
  assert.equal(tag('GET / HTTP/1.1\r\nHost: \r\n\r\n'), [['Host', '']])
  assert.equal(tag('GET / HTTP/1.0\r\nHosts: a b\r\n\r\n'), [['Hosts', 'a b']])
  assert.is(tag('GET / HTTP/1.1\r\nHost: a b\r\n\r\n'), 'InvalidHost')
  assert.is(tag('GET / HTTP/1.1\r\nHost: a:1x\r\n\r\n'), 'InvalidHost')
  assert.is(tag('GET / HTTP/1.1\r\nhost: a\r\nhOST: a\r\n\r\n'), 'DuplicateHost')
  assert.is(tag('GET / HTTP/1.1\r\nHostx: a\r\n\r\n'), 'MissingHost')
})

test('readHead :: a buffer ending inside the head says where scanHead goes on', () => {
  assert.equal(read('GET /x'), HEAD_START)
  assert.equal(read('GET / HTTP/1'), HEAD_START)
  assert.equal(read('GET / HTTP/1.1\r\nHo'), { searched: 18, lineEnd: 15, methodChecked: Infinity })
  assert.equal(read('GET / HTTP/1.1\r\nHost: a'), { searched: 23, lineEnd: 15, methodChecked: Infinity })
  assert.equal(read('GET / HTTP/1.1\r\nHost: a\r'), { searched: 23, lineEnd: 15, methodChecked: Infinity })
  assert.equal(read('GET / HTTP/1.1\r\nHost: a\r\n\r'), { searched: 25, lineEnd: 15, methodChecked: Infinity })
})

test('readHead :: leaves everything unusual to the exact path', () => {
  for (const raw of [
    ' GET / HTTP/1.1\r\n\r\n', 'GET /# HTTP/1.1\r\n\r\n', 'GET / HTTP/2.0\r\n\r\n', 'GET / HTTP/1.1\n\r\n',
    'GET / HTTP/1.1\r\nX: \xe9\r\n\r\n', 'GET / HTTP/1.1\r\nX: \x01\r\n\r\n', 'GET / HTTP/1.1\r\nX :a\r\n\r\n',
    'GET / HTTP/1.1\r\n folded\r\n\r\n', 'GET / HTTP/1.1\r\nX: a\rb\r\n\r\n', 'GET / HTTP/1.1\r\n\rx',
  ]) {
    assert.is(read(raw), undefined, JSON.stringify(raw))
  }
})

test('readHead :: leaves heads at the limits to the exact path', () => {
  const tight = { ...DEFAULT_HTTP_LIMITS, maxRequestLine: 8, maxHeaderBytes: 40, maxHeaders: 1 }
  assert.is(read('GET /long/target HTTP/1.1\r\n\r\n', tight), undefined)
  assert.is(read('GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n', tight), undefined)
  assert.is(read('GET / HTTP/1.1\r\nA: 12345678901234567\r\n\r\n', tight), undefined)
  assert.is(read('GET / HTTP/1.1\r\nA: 1234567890123456\r\n\r\n', tight), undefined)
})

test('readHead :: reads at an offset, counting its answer from there', () => {
  const bytes = enc('xxxxGET /a?b HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nrest')
  const r = readHead(bytes, DEFAULT_HTTP_LIMITS, 4, scratch)
  assert.ok(r !== undefined && '_tag' in r && r._tag === 'Right')
  assert.equal([r.right.method, r.right.path, r.right.rawQuery, r.right.keepAlive, r.right.end], ['GET', '/a', 'b', false, 49])
  assert.equal(readHead(enc('xxGET / HTTP/1.1\r\nHo'), DEFAULT_HTTP_LIMITS, 2, scratch), { searched: 18, lineEnd: 15, methodChecked: Infinity })
  assert.equal(readHead(enc('xxGET /x'), DEFAULT_HTTP_LIMITS, 2, scratch), HEAD_START)
  const tight = { ...DEFAULT_HTTP_LIMITS, maxHeaderBytes: 30 }
  assert.ok(readHead(enc(`${'x'.repeat(50)}GET / HTTP/1.1\r\nHost: a\r\n\r\n`), tight, 50, scratch) !== undefined)
  assert.is(readHead(enc(`${'x'.repeat(50)}GET / HTTP/1.1\r\nHost: abcdefgh\r\n\r\n`), tight, 50, scratch), undefined)
})

test.run()
