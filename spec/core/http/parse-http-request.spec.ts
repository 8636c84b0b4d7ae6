import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { feedAll } from '../../support/feed.js'
import type { HttpError } from '../../../lib/core/http/http-error.js'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../../lib/core/http/http-limits.js'
import { type HttpNeedMore, parseHttpRequest } from '../../../lib/core/http/parse-http-request.js'
import type { HttpRequest } from '../../../lib/core/http/types.js'

const test = suite('parseHttpRequest')
const enc = (s: string): Uint8Array => new TextEncoder().encode(s)
const txt = (b: Uint8Array): string => new TextDecoder().decode(b)
const decode = (limits: HttpLimits = DEFAULT_HTTP_LIMITS) => (bytes: Uint8Array) => parseHttpRequest(bytes, limits)

const one = (raw: string, limits?: HttpLimits): HttpRequest => {
  const out = feedAll(decode(limits), enc(raw))
  assert.is(out.error, undefined, `unexpected error ${JSON.stringify(out.error)}`)
  assert.is(out.values.length, 1)
  return out.values[0] as HttpRequest
}

const rejects = (raw: string | Uint8Array, tag: HttpError['_tag'], status: number, limits?: HttpLimits): HttpError => {
  const out = feedAll(decode(limits), typeof raw === 'string' ? enc(raw) : raw)
  assert.ok(out.error !== undefined, `expected ${tag}, got values ${out.values.length}`)
  const err = out.error as HttpError
  assert.is(err._tag, tag)
  assert.is(err.status, status)
  return err
}

test('parseHttpRequest :: parses a GET with origin-form target and query', () => {
  const r = one('GET /a/b%20c?x=1&y HTTP/1.1\r\nHost: example.com\r\nX-Pad:   v  \t\r\n\r\n')
  assert.is(r.method, 'GET')
  assert.is(r.target, '/a/b%20c?x=1&y')
  assert.is(r.path, '/a/b%20c')
  assert.is(r.rawQuery, 'x=1&y')
  assert.is(r.protocol, 'HTTP/1.1')
  assert.equal(r.headers, [['Host', 'example.com'], ['X-Pad', 'v']])
  assert.is(r.body.length, 0)
  assert.ok(r.keepAlive)
  assert.not.ok(r.expectContinue)
})

test('parseHttpRequest :: absolute-form target gives path and query', () => {
  const r = one('GET http://example.com:8080/p/q?z=9 HTTP/1.1\r\n\r\n')
  assert.is(r.path, '/p/q')
  assert.is(r.rawQuery, 'z=9')
  assert.is(one('GET HTTPS://example.com HTTP/1.1\r\n\r\n').path, '/')
  assert.is(one('GET http://example.com?a=b HTTP/1.1\r\n\r\n').rawQuery, 'a=b')
})

test('parseHttpRequest :: asterisk-form for OPTIONS, other methods kept as received', () => {
  assert.is(one('OPTIONS * HTTP/1.1\r\n\r\n').path, '*')
  assert.is(one('PROPFIND /x HTTP/1.1\r\n\r\n').method, 'PROPFIND')
  assert.is(one('get /x HTTP/1.1\r\n\r\n').method, 'get')
  for (const m of ['POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'PUTS']) assert.is(one(`${m} / HTTP/1.1\r\n\r\n`).method, m)
})

test('parseHttpRequest :: keep-alive rules of RFC 9112 §9.3', () => {
  assert.ok(one('GET / HTTP/1.1\r\n\r\n').keepAlive)
  assert.not.ok(one('GET / HTTP/1.1\r\nConnection: close\r\n\r\n').keepAlive)
  assert.not.ok(one('GET / HTTP/1.1\r\nconnection: Keep-Alive, Close\r\n\r\n').keepAlive)
  assert.not.ok(one('GET / HTTP/1.0\r\n\r\n').keepAlive)
  assert.ok(one('GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n').keepAlive)
  assert.is(one('GET / HTTP/1.0\r\n\r\n').protocol, 'HTTP/1.0')
  assert.not.ok(one('POST / HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n').keepAlive)
})

test('parseHttpRequest :: surfaces Expect: 100-continue', () => {
  assert.ok(one('POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\nx').expectContinue)
  assert.not.ok(one('GET / HTTP/1.1\r\nExpect: other\r\n\r\n').expectContinue)
})

test('parseHttpRequest :: Content-Length body, identical repeats accepted', () => {
  assert.is(txt(one('POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello').body), 'hello')
  assert.is(txt(one('POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 003\r\n\r\nabc').body), 'abc')
  assert.is(txt(one('POST / HTTP/1.1\r\nContent-Length: 2, 2\r\n\r\nab').body), 'ab')
  assert.is(one('POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n').body.length, 0)
})

test('parseHttpRequest :: chunked body with extensions and trailers', () => {
  const r = one('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;name=val\r\nhello\r\nA ; q="x y"\r\n0123456789\r\n0\r\nX-Sum: 1\r\nX-B: 2\r\n\r\n')
  assert.is(txt(r.body), 'hello0123456789')
  assert.equal(r.trailers, [['X-Sum', '1'], ['X-B', '2']])
  const single = one('POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n')
  assert.is(txt(single.body), 'abc')
  assert.equal(single.trailers, [])
  assert.is(one('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n000\r\n\r\n').body.length, 0)
})

test('parseHttpRequest :: pipelined requests come out one after another', () => {
  const out = feedAll(decode(), enc('GET /1 HTTP/1.1\r\n\r\nPOST /2 HTTP/1.1\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\n\r\n'))
  assert.equal(out.values.map((v) => v.path), ['/1', '/2', '/3'])
  assert.is(out.error, undefined)
})

test('parseHttpRequest :: rest is a view after the request', () => {
  const bytes = enc('GET / HTTP/1.1\r\n\r\nGET')
  const r = parseHttpRequest(bytes)
  assert.ok(r._tag === 'Right' && r.right._tag === 'Parsed')
  if (r._tag === 'Right' && r.right._tag === 'Parsed') {
    assert.is(txt(r.right.rest), 'GET')
    assert.is(r.right.rest.buffer, bytes.buffer)
  }
})

test('parseHttpRequest :: resumes from the previous NeedMore without changing the result', () => {
  const raw = enc('POST /r HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nX: y\r\n\r\n4\r\nwiki\r\n5\r\npedia\r\n0\r\nT: 1\r\n\r\n')
  const cl = enc('POST /r HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789')
  for (const input of [raw, cl]) {
    for (const step of [1, 3, 7]) {
      let prev: HttpNeedMore | undefined
      let result: HttpRequest | undefined
      for (let end = step; result === undefined; end = Math.min(input.length, end + step)) {
        const r = parseHttpRequest(input.subarray(0, end), DEFAULT_HTTP_LIMITS, prev)
        assert.is(r._tag, 'Right')
        if (r._tag !== 'Right') break
        if (r.right._tag === 'Parsed') result = r.right.value
        else {
          assert.ok(r.right.atLeast > end)
          prev = r.right
        }
      }
      const whole = parseHttpRequest(input)
      assert.ok(whole._tag === 'Right' && whole.right._tag === 'Parsed')
      if (whole._tag === 'Right' && whole.right._tag === 'Parsed') assert.equal(result, whole.right.value)
    }
  }
})

test('parseHttpRequest :: a NeedMore from another buffer is ignored', () => {
  const first = parseHttpRequest(enc('POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n'))
  assert.ok(first._tag === 'Right' && first.right._tag === 'NeedMore')
  if (first._tag === 'Right' && first.right._tag === 'NeedMore') {
    const r = parseHttpRequest(enc('GET / HTTP/1.1\r\n\r\n'), DEFAULT_HTTP_LIMITS, first.right)
    assert.ok(r._tag === 'Right' && r.right._tag === 'Parsed')
  }
})

test('parseHttpRequest :: refuses non-HTTP bytes at the first byte (TLS hello)', () => {
  const r = parseHttpRequest(new Uint8Array([0x16, 0x03, 0x01]))
  assert.ok(r._tag === 'Left')
  if (r._tag === 'Left') assert.equal([r.left._tag, r.left.status], ['InvalidMethod', 400])
  const one = parseHttpRequest(new Uint8Array([0x16]))
  assert.is(one._tag, 'Left')
})

// Every rejection: the raw request, the tag, the status.
const REJECTIONS: readonly (readonly [string, string, HttpError['_tag'], number])[] = [
  ['empty method', ' / HTTP/1.1\r\n\r\n', 'InvalidMethod', 400],
  ['method with a slash', 'GE/T / HTTP/1.1\r\n\r\n', 'InvalidMethod', 400],
  ['leading CRLF', '\r\nGET / HTTP/1.1\r\n\r\n', 'InvalidMethod', 400],
  ['double space before target', 'GET  / HTTP/1.1\r\n\r\n', 'InvalidRequestLine', 400],
  ['no version', 'GET /\r\n\r\n', 'InvalidRequestLine', 400],
  ['lower-case version', 'GET / http/1.1\r\n\r\n', 'InvalidRequestLine', 400],
  ['trailing space after version', 'GET / HTTP/1.1 \r\n\r\n', 'InvalidRequestLine', 400],
  ['control byte in target', 'GET /a\x01b HTTP/1.1\r\n\r\n', 'InvalidTarget', 400],
  ['fragment in target', 'GET /a#b HTTP/1.1\r\n\r\n', 'InvalidTarget', 400],
  ['non-ASCII in target', 'GET /\u00e9 HTTP/1.1\r\n\r\n', 'InvalidTarget', 400],
  ['asterisk for GET', 'GET * HTTP/1.1\r\n\r\n', 'InvalidTarget', 400],
  ['authority-form', 'CONNECT example.com:443 HTTP/1.1\r\n\r\n', 'InvalidTarget', 400],
  ['absolute-form without host', 'GET http:///x HTTP/1.1\r\n\r\n', 'InvalidTarget', 400],
  ['HTTP/2.0', 'GET / HTTP/2.0\r\n\r\n', 'UnsupportedVersion', 505],
  ['HTTP/1.2', 'GET / HTTP/1.2\r\n\r\n', 'UnsupportedVersion', 505],
  ['HTTP/0.9', 'GET / HTTP/0.9\r\n\r\n', 'UnsupportedVersion', 505],
  ['space before colon', 'GET / HTTP/1.1\r\nHost : a\r\n\r\n', 'WhitespaceBeforeColon', 400],
  ['tab before colon', 'GET / HTTP/1.1\r\nHost\t: a\r\n\r\n', 'WhitespaceBeforeColon', 400],
  ['obs-fold', 'GET / HTTP/1.1\r\nX: a\r\n  b\r\n\r\n', 'ObsFold', 400],
  ['empty header name', 'GET / HTTP/1.1\r\n: a\r\n\r\n', 'InvalidHeader', 400],
  ['no colon', 'GET / HTTP/1.1\r\nHost\r\n\r\n', 'InvalidHeader', 400],
  ['bad name byte', 'GET / HTTP/1.1\r\nX(y): a\r\n\r\n', 'InvalidHeader', 400],
  ['NUL in value', 'GET / HTTP/1.1\r\nX: a\x00b\r\n\r\n', 'InvalidHeader', 400],
  ['DEL in value', 'GET / HTTP/1.1\r\nX: a\x7fb\r\n\r\n', 'InvalidHeader', 400],
  ['bare CR in value', 'GET / HTTP/1.1\r\nX: a\rb\r\n\r\n', 'BareCr', 400],
  ['bare LF in head', 'GET / HTTP/1.1\r\nX: a\nY: b\r\n\r\n', 'BareLf', 400],
  ['bare LF ending request line', 'GET / HTTP/1.1\n\r\n', 'BareLf', 400],
  ['both CL and TE', 'POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', 'ContentLengthWithTransferEncoding', 400],
  ['differing CL', 'POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', 'ConflictingContentLength', 400],
  ['differing CL in one list', 'POST / HTTP/1.1\r\nContent-Length: 3, 4\r\n\r\nabcd', 'ConflictingContentLength', 400],
  ['negative CL', 'POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n', 'InvalidContentLength', 400],
  ['non-numeric CL', 'POST / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n', 'InvalidContentLength', 400],
  ['empty CL', 'POST / HTTP/1.1\r\nContent-Length:\r\n\r\n', 'InvalidContentLength', 400],
  ['gzip coding', 'POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n', 'UnsupportedTransferCoding', 501],
  ['chunked twice', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked, chunked\r\n\r\n', 'InvalidTransferEncoding', 400],
  ['empty TE', 'POST / HTTP/1.1\r\nTransfer-Encoding: ,\r\n\r\n', 'InvalidTransferEncoding', 400],
  ['non-hex chunk size', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'InvalidChunk', 400],
  ['empty chunk size', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\r\n', 'InvalidChunk', 400],
  ['chunk size with junk', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3x\r\nabc\r\n0\r\n\r\n', 'InvalidChunk', 400],
  ['control byte in chunk ext', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;a\x01\r\nabc\r\n0\r\n\r\n', 'InvalidChunk', 400],
  ['bare LF after chunk size', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n', 'InvalidChunk', 400],
  ['chunk data without CRLF', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n', 'InvalidChunk', 400],
  ['bad trailer', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nBad Name: x\r\n\r\n', 'WhitespaceBeforeColon', 400],
  ['bare LF in trailers', 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\n\r\n', 'BareLf', 400],
]

for (const [name, raw, tag, status] of REJECTIONS) {
  test(`parseHttpRequest :: rejects ${name} with ${status}`, () => {
    rejects(raw, tag, status)
  })
}

const small: HttpLimits = { maxRequestLine: 32, maxHeaderBytes: 96, maxHeaders: 3, maxBody: 10 }

test('parseHttpRequest :: request line over the limit is 414', () => {
  const err = rejects(`GET /${'a'.repeat(40)} HTTP/1.1\r\n\r\n`, 'RequestLineTooLong', 414, small)
  assert.is((err as { limit: number }).limit, 32)
  rejects(`GET /${'a'.repeat(200)}`, 'RequestLineTooLong', 414, small)
  one(`GET /${'a'.repeat(17)} HTTP/1.1\r\n\r\n`, small)
})

test('parseHttpRequest :: head over the limit or too many fields is 431', () => {
  rejects(`GET / HTTP/1.1\r\nX: ${'v'.repeat(100)}\r\n\r\n`, 'HeadersTooLarge', 431, small)
  rejects(`GET / HTTP/1.1\r\nX: ${'v'.repeat(100)}`, 'HeadersTooLarge', 431, small)
  rejects('GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n', 'HeadersTooLarge', 431, small)
  one('GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n', small)
})

test('parseHttpRequest :: body over the limit is 413, declared or chunked', () => {
  rejects('POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n', 'BodyTooLarge', 413, small)
  rejects('POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n', 'BodyTooLarge', 413, small)
  rejects('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n5\r\n', 'BodyTooLarge', 413, small)
  rejects('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n', 'BodyTooLarge', 413, small)
  assert.is(one('POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789', small).body.length, 10)
})

test('parseHttpRequest :: chunk line and trailer section are bounded', () => {
  rejects(`POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;${'e'.repeat(5000)}\r\n`, 'InvalidChunk', 400)
  rejects(`POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;${'e'.repeat(5000)}`, 'InvalidChunk', 400)
  rejects(`POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: ${'t'.repeat(100)}\r\n\r\n`, 'HeadersTooLarge', 431, small)
  rejects(`POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: ${'t'.repeat(100)}`, 'HeadersTooLarge', 431, small)
})

test('parseHttpRequest :: keeps obs-text in values as latin1', () => {
  const r = parseHttpRequest(new Uint8Array([...enc('GET / HTTP/1.1\r\nX: a'), 0xe9, 0x80, ...enc('\r\n\r\n')]))
  assert.ok(r._tag === 'Right' && r.right._tag === 'Parsed')
  if (r._tag === 'Right' && r.right._tag === 'Parsed') assert.equal(r.right.value.headers, [['X', 'a\u00e9\u0080']])
})

test.run()
