import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { feedAll } from '../../support/feed.js'
import type { HttpError } from '../../../lib/core/http/http-error.js'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../../lib/core/http/http-limits.js'
import { type HttpNeedMore, parseHttpRequest } from '../../../lib/core/http/parse-http-request.js'
import { MAX_EMPTY_LINES } from '../../../lib/core/http/skip-empty-lines.js'
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
  const r = one('GET http://example.com:8080/p/q?z=9 HTTP/1.1\r\nHost: a\r\n\r\n')
  assert.is(r.path, '/p/q')
  assert.is(r.rawQuery, 'z=9')
  assert.is(one('GET HTTPS://example.com HTTP/1.1\r\nHost: a\r\n\r\n').path, '/')
  assert.is(one('GET http://example.com?a=b HTTP/1.1\r\nHost: a\r\n\r\n').rawQuery, 'a=b')
})

test('parseHttpRequest :: asterisk-form for OPTIONS, other methods kept as received', () => {
  assert.is(one('OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n').path, '*')
  assert.is(one('PROPFIND /x HTTP/1.1\r\nHost: a\r\n\r\n').method, 'PROPFIND')
  assert.is(one('get /x HTTP/1.1\r\nHost: a\r\n\r\n').method, 'get')
  for (const m of ['POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'PUTS']) assert.is(one(`${m} / HTTP/1.1\r\nHost: a\r\n\r\n`).method, m)
})

test('parseHttpRequest :: keep-alive rules of RFC 9112 §9.3', () => {
  assert.ok(one('GET / HTTP/1.1\r\nHost: a\r\n\r\n').keepAlive)
  assert.not.ok(one('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n').keepAlive)
  assert.not.ok(one('GET / HTTP/1.1\r\nHost: a\r\nconnection: Keep-Alive, Close\r\n\r\n').keepAlive)
  assert.not.ok(one('GET / HTTP/1.0\r\n\r\n').keepAlive)
  assert.ok(one('GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n').keepAlive)
  assert.is(one('GET / HTTP/1.0\r\n\r\n').protocol, 'HTTP/1.0')
  assert.not.ok(one('POST / HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n').keepAlive)
})

test('parseHttpRequest :: surfaces Expect: 100-continue', () => {
  assert.ok(one('POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\nx').expectContinue)
  assert.not.ok(one('GET / HTTP/1.1\r\nHost: a\r\nExpect: other\r\n\r\n').expectContinue)
})

test('parseHttpRequest :: Content-Length body, identical repeats accepted', () => {
  assert.is(txt(one('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello').body), 'hello')
  assert.is(txt(one('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 003\r\n\r\nabc').body), 'abc')
  assert.is(txt(one('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 2\r\n\r\nab').body), 'ab')
  assert.is(one('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n').body.length, 0)
})

test('parseHttpRequest :: chunked body with extensions and trailers', () => {
  const r = one('POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;name=val\r\nhello\r\nA ; q="x y"\r\n0123456789\r\n0\r\nX-Sum: 1\r\nX-B: 2\r\n\r\n')
  assert.is(txt(r.body), 'hello0123456789')
  assert.equal(r.trailers, [['X-Sum', '1'], ['X-B', '2']])
  const single = one('POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n')
  assert.is(txt(single.body), 'abc')
  assert.equal(single.trailers, [])
  assert.is(one('POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n000\r\n\r\n').body.length, 0)
})

test('parseHttpRequest :: pipelined requests come out one after another', () => {
  const out = feedAll(decode(), enc('GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: a\r\n\r\n'))
  assert.equal(out.values.map((v) => v.path), ['/1', '/2', '/3'])
  assert.is(out.error, undefined)
})

test('parseHttpRequest :: rest is a view after the request', () => {
  const bytes = enc('GET / HTTP/1.1\r\nHost: a\r\n\r\nGET')
  const r = parseHttpRequest(bytes)
  assert.ok(r._tag === 'Right' && r.right._tag === 'Parsed')
  if (r._tag === 'Right' && r.right._tag === 'Parsed') {
    assert.is(txt(r.right.rest), 'GET')
    assert.is(r.right.rest.buffer, bytes.buffer)
  }
})

test('parseHttpRequest :: resumes from the previous NeedMore without changing the result', () => {
  const raw = enc('POST /r HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nX: y\r\n\r\n4\r\nwiki\r\n5\r\npedia\r\n0\r\nT: 1\r\n\r\n')
  const cl = enc('POST /r HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789')
  for (const input of [raw, cl, enc('\r\n\r\nGET /e HTTP/1.1\r\nHost: a\r\n\r\n')]) {
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
  const first = parseHttpRequest(enc('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n'))
  assert.ok(first._tag === 'Right' && first.right._tag === 'NeedMore')
  if (first._tag === 'Right' && first.right._tag === 'NeedMore') {
    const r = parseHttpRequest(enc('GET / HTTP/1.1\r\nHost: a\r\n\r\n'), DEFAULT_HTTP_LIMITS, first.right)
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
  ['empty method', ' / HTTP/1.1\r\nHost: a\r\n\r\n', 'InvalidMethod', 400],
  ['method with a slash', 'GE/T / HTTP/1.1\r\nHost: a\r\n\r\n', 'InvalidMethod', 400],
  ['double space before target', 'GET  / HTTP/1.1\r\nHost: a\r\n\r\n', 'InvalidRequestLine', 400],
  ['no version', 'GET /\r\n\r\n', 'InvalidRequestLine', 400],
  ['lower-case version', 'GET / http/1.1\r\n\r\n', 'InvalidRequestLine', 400],
  ['trailing space after version', 'GET / HTTP/1.1 \r\n\r\n', 'InvalidRequestLine', 400],
  ['control byte in target', 'GET /a\x01b HTTP/1.1\r\nHost: a\r\n\r\n', 'InvalidTarget', 400],
  ['fragment in target', 'GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n', 'InvalidTarget', 400],
  ['non-ASCII in target', 'GET /\u00e9 HTTP/1.1\r\nHost: a\r\n\r\n', 'InvalidTarget', 400],
  ['asterisk for GET', 'GET * HTTP/1.1\r\nHost: a\r\n\r\n', 'InvalidTarget', 400],
  ['authority-form', 'CONNECT example.com:443 HTTP/1.1\r\nHost: a\r\n\r\n', 'InvalidTarget', 400],
  ['absolute-form without host', 'GET http:///x HTTP/1.1\r\nHost: a\r\n\r\n', 'InvalidTarget', 400],
  ['HTTP/2.0', 'GET / HTTP/2.0\r\n\r\n', 'UnsupportedVersion', 505],
  ['HTTP/1.2', 'GET / HTTP/1.2\r\n\r\n', 'UnsupportedVersion', 505],
  ['HTTP/0.9', 'GET / HTTP/0.9\r\n\r\n', 'UnsupportedVersion', 505],
  ['space before colon', 'GET / HTTP/1.1\r\nHost : a\r\n\r\n', 'WhitespaceBeforeColon', 400],
  ['tab before colon', 'GET / HTTP/1.1\r\nHost\t: a\r\n\r\n', 'WhitespaceBeforeColon', 400],
  ['obs-fold', 'GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n  b\r\n\r\n', 'ObsFold', 400],
  ['empty header name', 'GET / HTTP/1.1\r\nHost: a\r\n: a\r\n\r\n', 'InvalidHeader', 400],
  ['no colon', 'GET / HTTP/1.1\r\nHost\r\n\r\n', 'InvalidHeader', 400],
  ['bad name byte', 'GET / HTTP/1.1\r\nHost: a\r\nX(y): a\r\n\r\n', 'InvalidHeader', 400],
  ['NUL in value', 'GET / HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n', 'InvalidHeader', 400],
  ['DEL in value', 'GET / HTTP/1.1\r\nHost: a\r\nX: a\x7fb\r\n\r\n', 'InvalidHeader', 400],
  ['bare CR in value', 'GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n', 'BareCr', 400],
  ['bare LF in head', 'GET / HTTP/1.1\r\nHost: a\r\nX: a\nY: b\r\n\r\n', 'BareLf', 400],
  ['bare LF ending request line', 'GET / HTTP/1.1\n\r\n', 'BareLf', 400],
  ['both CL and TE', 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', 'ContentLengthWithTransferEncoding', 400],
  ['differing CL', 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', 'ConflictingContentLength', 400],
  ['differing CL in one list', 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 4\r\n\r\nabcd', 'ConflictingContentLength', 400],
  ['negative CL', 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n', 'InvalidContentLength', 400],
  ['non-numeric CL', 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1e3\r\n\r\n', 'InvalidContentLength', 400],
  ['empty CL', 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n', 'InvalidContentLength', 400],
  ['gzip coding', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n', 'UnsupportedTransferCoding', 501],
  ['chunked twice', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n', 'InvalidTransferEncoding', 400],
  ['empty TE', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ,\r\n\r\n', 'InvalidTransferEncoding', 400],
  ['non-hex chunk size', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'InvalidChunk', 400],
  ['empty chunk size', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\n', 'InvalidChunk', 400],
  ['chunk size with junk', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3x\r\nabc\r\n0\r\n\r\n', 'InvalidChunk', 400],
  ['control byte in chunk ext', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;a\x01\r\nabc\r\n0\r\n\r\n', 'InvalidChunk', 400],
  ['bare LF after chunk size', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n', 'InvalidChunk', 400],
  ['chunk data without CRLF', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n', 'InvalidChunk', 400],
  ['bad trailer', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nBad Name: x\r\n\r\n', 'WhitespaceBeforeColon', 400],
  ['bare LF in trailers', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\n\r\n', 'BareLf', 400],
]

for (const [name, raw, tag, status] of REJECTIONS) {
  test(`parseHttpRequest :: rejects ${name} with ${status}`, () => {
    rejects(raw, tag, status)
  })
}

// RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1
// request message that lacks a Host header field and to any request message that contains
// more than one Host header field line or a Host header field with an invalid field value."
test('parseHttpRequest :: an HTTP/1.1 request without Host is 400, decided on the head alone', () => {
  rejects('GET / HTTP/1.1\r\n\r\n', 'MissingHost', 400)
  rejects('GET / HTTP/1.1\r\nX-Host: a\r\n\r\n', 'MissingHost', 400)
  // "A client MUST send a Host header field in an HTTP/1.1 request even if the request-target is in the absolute-form."
  rejects('GET http://example.com/ HTTP/1.1\r\n\r\n', 'MissingHost', 400)
  // No waiting for a body that is declared but not sent.
  const r = parseHttpRequest(enc('POST /users HTTP/1.1\r\nContent-Length: 100\r\n\r\n'))
  assert.ok(r._tag === 'Left' && r.left._tag === 'MissingHost')
  rejects('POST /users HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n', 'MissingHost', 400)
})

test('parseHttpRequest :: HTTP/1.0 may omit Host (RFC 9112 §3.2 requires it of HTTP/1.1 only)', () => {
  const r = one('GET /old HTTP/1.0\r\n\r\n')
  assert.equal([r.protocol, r.path, r.headers], ['HTTP/1.0', '/old', []])
  assert.is(txt(one('POST / HTTP/1.0\r\nContent-Length: 2\r\n\r\nhi').body), 'hi')
})

test('parseHttpRequest :: more than one Host field line is 400, in any version', () => {
  const err = rejects('GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n', 'DuplicateHost', 400)
  assert.is((err as { count: number }).count, 2)
  rejects('GET / HTTP/1.0\r\nhost: a\r\nX: y\r\nHOST: b\r\nHost: c\r\n\r\n', 'DuplicateHost', 400)
})

test('parseHttpRequest :: a Host value that is not uri-host [ ":" port ] is 400', () => {
  for (const value of ['a b', 'a/b', 'user@a', 'a:b', 'a:1:2', '[::1', '[::1]x', '[::g]', '%zz', 'a?b', 'a#b', '"a"']) {
    const err = rejects(`GET / HTTP/1.1\r\nHost: ${value}\r\n\r\n`, 'InvalidHost', 400)
    assert.is((err as { value: string }).value, value)
  }
  rejects('GET / HTTP/1.0\r\nHost: a b\r\n\r\n', 'InvalidHost', 400)
  rejects(new Uint8Array([...enc('GET / HTTP/1.1\r\nHost: caf'), 0xe9, ...enc('\r\n\r\n')]), 'InvalidHost', 400)
  for (const value of ['', 'example.com', 'EXAMPLE.com:8080', 'a:', '127.0.0.1:6001', '[::1]:6001', '[v7.x:y]', 'a%20b', "a-b_c~d!$&'()*+,;="]) {
    assert.equal(one(`GET / HTTP/1.1\r\nHost: ${value}\r\n\r\n`).headers, [['Host', value]])
  }
})

// RFC 9112 §2.2: "In the interest of robustness, a server that is expecting to receive and
// parse a request-line SHOULD ignore at least one empty line (CRLF) received prior to the
// request-line." Twinport ignores up to MAX_EMPTY_LINES (2).
test('parseHttpRequest :: up to two empty lines before a request line are ignored', () => {
  const plain = one('GET /a HTTP/1.1\r\nHost: h\r\n\r\n')
  assert.equal(one('\r\nGET /a HTTP/1.1\r\nHost: h\r\n\r\n'), plain)
  assert.equal(one('\r\n\r\nGET /a HTTP/1.1\r\nHost: h\r\n\r\n'), plain)
  assert.is(MAX_EMPTY_LINES, 2)
})

test('parseHttpRequest :: empty lines between pipelined requests are ignored (a CRLF after a body)', () => {
  const raw = 'POST /1 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n\r\n\r\nGET /3 HTTP/1.1\r\nHost: h\r\n\r\n'
  const out = feedAll(decode(), enc(raw))
  assert.is(out.error, undefined)
  assert.equal(out.values.map((v) => v.path), ['/1', '/2', '/3'])
  // Empty lines after the last request wait for the next one.
  const waiting = feedAll(decode(), enc('GET /1 HTTP/1.1\r\nHost: h\r\n\r\n\r\n'))
  assert.equal([waiting.values.length, waiting.error, waiting.leftover], [1, undefined, 2])
  const r = parseHttpRequest(enc('\r\n\r'))
  assert.ok(r._tag === 'Right' && r.right._tag === 'NeedMore' && r.right.atLeast === 4)
})

test('parseHttpRequest :: a third empty line, or a bare LF or CR before the request line, is 400', () => {
  const err = rejects('\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n', 'TooManyEmptyLines', 400)
  assert.is((err as { limit: number }).limit, 2)
  rejects('GET / HTTP/1.1\r\nHost: h\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n', 'TooManyEmptyLines', 400)
  rejects('\r\n\r\n\n', 'TooManyEmptyLines', 400)
  rejects('\nGET / HTTP/1.1\r\nHost: h\r\n\r\n', 'BareLf', 400)
  rejects('\r\n\nGET / HTTP/1.1\r\nHost: h\r\n\r\n', 'BareLf', 400)
  rejects('\rGET / HTTP/1.1\r\nHost: h\r\n\r\n', 'BareCr', 400)
})

test('parseHttpRequest :: after empty lines, offsets count from the start of the buffer', () => {
  const err = rejects('\r\n\r\nGET / HTTP/1.1\r\nHost : h\r\n\r\n', 'WhitespaceBeforeColon', 400)
  assert.is((err as { offset: number }).offset, 4 + 20)
  assert.equal(rejects('\r\nGET / HTTP/1.1\r\n\r\n', 'MissingHost', 400), { _tag: 'MissingHost', status: 400, reason: 'missing_host' })
  // Not HTTP after a CRLF is an ordinary bad method, not "not HTTP at the first byte".
  const tls = parseHttpRequest(new Uint8Array([0x0d, 0x0a, 0x16, 0x03, 0x01]))
  assert.ok(tls._tag === 'Left')
  if (tls._tag === 'Left') assert.equal([tls.left._tag, (tls.left as { offset: number }).offset], ['InvalidMethod', 2])
  const head = 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n'
  const long = parseHttpRequest(enc(`\r\n${head}ab`))
  assert.ok(long._tag === 'Right' && long.right._tag === 'NeedMore' && long.right.atLeast === 2 + head.length + 5)
})

// RFC 9112 §7.1.1: chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ),
// chunk-ext-name = token, chunk-ext-val = token / quoted-string.
const chunkedWith = (line: string): string => `POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n${line}\r\nab\r\n0\r\n\r\n`

test('parseHttpRequest :: chunk extensions that match the grammar are accepted and ignored', () => {
  for (const line of ['2;a', '2;a=b', '2 ; a = b', '2\t;\ta\t=\tb', '2;a="x y";b', '2;a="\\"q\\\\"', '2;a=b;c=d', '2;a=""', "2;!#$%&'*+-.^_`|~=0"]) {
    assert.is(txt(one(chunkedWith(line)).body), 'ab', line)
  }
  const last = one('POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0 ; done="yes"\r\n\r\n')
  assert.is(last.body.length, 0)
})

test('parseHttpRequest :: a chunk-size line that does not parse is 400, never guessed at', () => {
  const cases: readonly (readonly [string, number])[] = [
    ['2;', 2], // a ";" with no name
    ['2 xyz', 2], // whitespace then no ";"
    ['2 ', 2], // whitespace with no extension
    ['2\t', 2],
    ['2;a=', 4], // "=" with no value
    ['2;a="x', 6], // unterminated quoted-string
    ['2;a="x\\', 7], // quoted-pair cut by the line end
    ['2;a b', 4], // two names without ";"
    ['2;a=b c', 6],
    ['2;a=b ', 6], // trailing whitespace after a value
    ['2;a ', 4], // trailing whitespace after a name
    ['2;=b', 2],
    ['2;;a', 2],
    ['2;a=b,c', 5],
    ['2;a="x"y', 7],
    ['2;a="x\x01"', 6],
    ['2;a="x\x7f"', 6],
    ['2;a\x01', 3],
    ['2;a="x\rb"', 6],
  ]
  const start = chunkedWith('').indexOf('\r\n\r\n') + 4
  for (const [line, at] of cases) {
    const err = rejects(chunkedWith(line), 'InvalidChunk', 400)
    assert.is((err as { offset: number }).offset, start + at, JSON.stringify(line))
  }
  rejects('POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0;\r\n\r\n', 'InvalidChunk', 400)
})

// RFC 9112 §6.3: "If a Transfer-Encoding header field is present in a request and the chunked
// transfer coding is not the final encoding, the message body length cannot be determined
// reliably; the server MUST respond with the 400 (Bad Request) status code and then close the
// connection." §6.1: "A server that receives a request message with a transfer coding it
// does not understand SHOULD respond with 501 (Not Implemented)."
test('parseHttpRequest :: chunked not last is 400; an unknown coding before a final chunked is 501', () => {
  const te = (value: string): string => `POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: ${value}\r\n\r\n0\r\n\r\n`
  for (const value of ['chunked, identity', 'gzip', 'identity', 'chunked;x=1', 'chunked, chunked', 'gzip, chunked, chunked', 'chunk@d', 'gzip;, chunked', 'gzip;q, chunked', 'gzip chunked', ',', '']) {
    const err = rejects(te(value), 'InvalidTransferEncoding', 400)
    assert.is((err as { value: string }).value, value.trim())
  }
  for (const [value, coding] of [['gzip, chunked', 'gzip'], ['GZip ; level=1 ; x="a, b", Chunked', 'gzip'], ['identity,chunked', 'identity']] as const) {
    const err = rejects(te(value), 'UnsupportedTransferCoding', 501)
    assert.is((err as { coding: string }).coding, coding)
  }
  const split = rejects('POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'UnsupportedTransferCoding', 501)
  assert.is((split as { coding: string }).coding, 'gzip')
  rejects('POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n', 'InvalidTransferEncoding', 400)
  assert.is(txt(one('POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: , chunked ,\r\n\r\n2\r\nab\r\n0\r\n\r\n').body), 'ab')
})

// RFC 9110 §9.1: method = token. A token the routes do not know is the router's business
// (404/405); anything else is not a method.
test('parseHttpRequest :: a method is any token; a non-token method is 400', () => {
  assert.is(one("!#$%&'*+-.^_`|~09AZaz /x HTTP/1.1\r\nHost: h\r\n\r\n").method, "!#$%&'*+-.^_`|~09AZaz")
  for (const [raw, at] of [['G(T / HTTP/1.1\r\nHost: h\r\n\r\n', 1], ['GET\x01 / HTTP/1.1\r\nHost: h\r\n\r\n', 3], ['GE"T / HTTP/1.1\r\nHost: h\r\n\r\n', 2]] as const) {
    const err = rejects(raw, 'InvalidMethod', 400)
    assert.is((err as { offset: number }).offset, at)
  }
})

const small: HttpLimits = { maxRequestLine: 32, maxHeaderBytes: 96, maxHeaders: 3, maxBody: 10 }

test('parseHttpRequest :: request line over the limit is 414', () => {
  const err = rejects(`GET /${'a'.repeat(40)} HTTP/1.1\r\nHost: a\r\n\r\n`, 'RequestLineTooLong', 414, small)
  assert.is((err as { limit: number }).limit, 32)
  rejects(`GET /${'a'.repeat(200)}`, 'RequestLineTooLong', 414, small)
  one(`GET /${'a'.repeat(17)} HTTP/1.1\r\nHost: a\r\n\r\n`, small)
})

test('parseHttpRequest :: head over the limit or too many fields is 431', () => {
  rejects(`GET / HTTP/1.1\r\nHost: a\r\nX: ${'v'.repeat(100)}\r\n\r\n`, 'HeadersTooLarge', 431, small)
  rejects(`GET / HTTP/1.1\r\nHost: a\r\nX: ${'v'.repeat(100)}`, 'HeadersTooLarge', 431, small)
  rejects('GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n', 'HeadersTooLarge', 431, small)
  one('GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n', small)
})

test('parseHttpRequest :: body over the limit is 413, declared or chunked', () => {
  rejects('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n', 'BodyTooLarge', 413, small)
  rejects('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n', 'BodyTooLarge', 413, small)
  rejects('POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n5\r\n', 'BodyTooLarge', 413, small)
  rejects('POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n', 'BodyTooLarge', 413, small)
  assert.is(one('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789', small).body.length, 10)
})

test('parseHttpRequest :: chunk line and trailer section are bounded', () => {
  rejects(`POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1;${'e'.repeat(5000)}\r\n`, 'InvalidChunk', 400)
  rejects(`POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1;${'e'.repeat(5000)}`, 'InvalidChunk', 400)
  rejects(`POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: ${'t'.repeat(100)}\r\n\r\n`, 'HeadersTooLarge', 431, small)
  rejects(`POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: ${'t'.repeat(100)}`, 'HeadersTooLarge', 431, small)
})

test('parseHttpRequest :: keeps obs-text in values as latin1', () => {
  const r = parseHttpRequest(new Uint8Array([...enc('GET / HTTP/1.1\r\nHost: a\r\nX: a'), 0xe9, 0x80, ...enc('\r\n\r\n')]))
  assert.ok(r._tag === 'Right' && r.right._tag === 'Parsed')
  if (r._tag === 'Right' && r.right._tag === 'Parsed') assert.equal(r.right.value.headers, [['Host', 'a'], ['X', 'a\u00e9\u0080']])
})

test.run()
