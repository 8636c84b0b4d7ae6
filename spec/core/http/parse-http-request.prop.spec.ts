import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { feedChunks } from '../../support/feed.js'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../../lib/core/http/http-limits.js'
import { parseHttpRequest } from '../../../lib/core/http/parse-http-request.js'
import { concatBytes } from '../../support/bytes.js'
import type { Header } from '../../../lib/core/http/types.js'

const enc = new TextEncoder()
const tchars = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
const token = fc.string({ unit: fc.constantFrom(...tchars), minLength: 1, maxLength: 12 })
const reserved = new Set(['content-length', 'transfer-encoding', 'connection', 'expect', 'host'])
const fieldName = token.filter((n) => !reserved.has(n.toLowerCase()))
const visible = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 })
const value = fc.oneof(fc.constant(''), visible, fc.tuple(visible, visible).map(([a, b]) => `${a} ${b}`))
const segment = fc.string({ unit: fc.constantFrom(...'abcxyz019-._~%!$&\'()*+,;=:@'), maxLength: 8 })

const request = fc.record({
  method: token,
  path: fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
  query: fc.option(fc.string({ unit: fc.constantFrom(...'ab=&+%12'), maxLength: 10 }), { nil: undefined }),
  minor: fc.constantFrom(0, 1),
  host: fc.constantFrom('example.com', 'localhost:6001', '127.0.0.1:80', '[::1]:6001', ''),
  headers: fc.array(fc.tuple(fieldName, value), { maxLength: 8 }),
  body: fc.uint8Array({ maxLength: 300 }),
  chunks: fc.option(fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 5 }), { nil: undefined }),
})

type Req = typeof request extends fc.Arbitrary<infer T> ? T : never

const serialise = (r: Req): Uint8Array => {
  const target = r.query === undefined ? r.path : `${r.path}?${r.query}`
  let head = `${r.method} ${target} HTTP/1.${r.minor}\r\nHost: ${r.host}\r\n`
  for (const [n, v] of r.headers) head += `${n}: ${v}\r\n`
  const parts: Uint8Array[] = []
  if (r.chunks === undefined) {
    head += `Content-Length: ${r.body.length}\r\n\r\n`
    parts.push(enc.encode(head), r.body)
  } else {
    head += 'Transfer-Encoding: chunked\r\n\r\n'
    parts.push(enc.encode(head))
    let at = 0
    for (const size of r.chunks) {
      const piece = r.body.subarray(at, at + size)
      if (piece.length === 0) break
      parts.push(enc.encode(`${piece.length.toString(16)}\r\n`), piece, enc.encode('\r\n'))
      at += piece.length
    }
    if (at < r.body.length) parts.push(enc.encode(`${(r.body.length - at).toString(16)};ext=1\r\n`), r.body.subarray(at), enc.encode('\r\n'))
    parts.push(enc.encode('0\r\n\r\n'))
  }
  return concatBytes(...parts)
}

const decode = (bytes: Uint8Array) => parseHttpRequest(bytes, DEFAULT_HTTP_LIMITS)

test('parseHttpRequest :: a serialised random request parses back to itself', () => {
  fc.assert(
    fc.property(request, (r) => {
      const out = feedChunks(decode, [serialise(r)])
      assert.is(out.error, undefined)
      assert.is(out.values.length, 1)
      const got = out.values[0]
      if (got === undefined) return
      assert.is(got.method, r.method)
      assert.is(got.path, r.path)
      assert.is(got.rawQuery, r.query ?? '')
      assert.is(got.protocol, r.minor === 1 ? 'HTTP/1.1' : 'HTTP/1.0')
      const expectHeaders: Header[] = r.headers.map(([n, v]) => [n, v])
      assert.equal(got.headers.slice(0, r.headers.length + 1), [['Host', r.host], ...expectHeaders])
      assert.equal(got.body, r.body)
    }),
    { numRuns: 200 },
  )
})

test('parseHttpRequest :: any split of pipelined requests gives the same result', () => {
  fc.assert(
    fc.property(fc.array(request, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 6 }), (reqs, cuts) => {
      const whole = new Uint8Array(reqs.flatMap((r) => [...serialise(r)]))
      const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b)
      const chunks: Uint8Array[] = []
      let from = 0
      for (const p of points) {
        chunks.push(whole.subarray(from, p))
        from = p
      }
      chunks.push(whole.subarray(from))
      assert.equal(feedChunks(decode, chunks), feedChunks(decode, [whole]))
    }),
    { numRuns: 150 },
  )
})

const tiny: HttpLimits = { maxRequestLine: 40, maxHeaderBytes: 120, maxHeaders: 4, maxBody: 64 }
const STATUSES = new Set([400, 413, 414, 431, 501, 505])

test('parseHttpRequest :: random bytes never throw and respect the limits', () => {
  const prefix = fc.constantFrom(
    '',
    '\r\n',
    'GET / HTTP/1.1\r\n',
    'GET / HTTP/1.1\r\nHost: a\r\n',
    'POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n',
    'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n',
  )
  const noise = fc.uint8Array({ maxLength: 400 }).chain((b) => fc.constant(b))
  const texty = fc.string({ unit: fc.constantFrom('a', ' ', ':', '\r', '\n', '\r\n', '0', 'f', ';', 'G', 'T', '/', 'HTTP/1.1'), maxLength: 120 }).map((s) => enc.encode(s))
  fc.assert(
    fc.property(prefix, fc.oneof(noise, texty), (p, tail) => {
      const bytes = new Uint8Array([...enc.encode(p), ...tail])
      for (const limits of [tiny, DEFAULT_HTTP_LIMITS]) {
        const r = parseHttpRequest(bytes, limits)
        if (r._tag === 'Left') assert.ok(STATUSES.has(r.left.status), r.left._tag)
        else if (r.right._tag === 'NeedMore') {
          assert.ok(r.right.atLeast > bytes.length)
          // Never waits for more than a maximal head plus a maximal (chunked) body could need.
          assert.ok(r.right.atLeast <= limits.maxHeaderBytes * 2 + limits.maxBody * 2 + 8192 + bytes.length)
        } else {
          assert.ok(r.right.value.body.length <= limits.maxBody)
          assert.ok(r.right.value.headers.length <= limits.maxHeaders)
        }
      }
    }),
    { numRuns: 300 },
  )
})

test.run()
