import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { feedChunks } from '../../support/feed.js'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../../lib/core/http/http-limits.js'
import { parseHttpRequest } from '../../../lib/core/http/parse-http-request.js'
import { MAX_EMPTY_LINES } from '../../../lib/core/http/skip-empty-lines.js'
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

// `whole` cut at the given points (taken modulo its length).
const cutAt = (whole: Uint8Array, cuts: readonly number[]): Uint8Array[] => {
  const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b)
  const chunks: Uint8Array[] = []
  let from = 0
  for (const p of points) {
    chunks.push(whole.subarray(from, p))
    from = p
  }
  chunks.push(whole.subarray(from))
  return chunks
}

test('parseHttpRequest :: any split of pipelined requests gives the same result', () => {
  fc.assert(
    fc.property(fc.array(request, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 6 }), (reqs, cuts) => {
      const whole = new Uint8Array(reqs.flatMap((r) => [...serialise(r)]))
      assert.equal(feedChunks(decode, cutAt(whole, cuts)), feedChunks(decode, [whole]))
    }),
    { numRuns: 150 },
  )
})

// RFC 9112 §2.2: "a server that is expecting to receive and parse a request-line SHOULD ignore
// at least one empty line (CRLF) received prior to the request-line."
test('parseHttpRequest :: a request preceded by N <= 2 empty lines parses to the same request; N = 3 is 400', () => {
  const CRLF = enc.encode('\r\n')
  const padded = fc.tuple(request, fc.integer({ min: 0, max: MAX_EMPTY_LINES }))
  fc.assert(
    fc.property(fc.array(padded, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 6 }), (reqs, cuts) => {
      const plain = concatBytes(...reqs.map(([r]) => serialise(r)))
      const whole = concatBytes(...reqs.flatMap(([r, n]) => [...Array.from({ length: n }, () => CRLF), serialise(r)]))
      const want = feedChunks(decode, [plain])
      assert.is(want.error, undefined)
      assert.equal(feedChunks(decode, cutAt(whole, cuts)), want)
      // One empty line more than the bound, before any of the requests, stops the stream there.
      const at = cuts.length === 0 ? 0 : (cuts[0] as number) % reqs.length
      const over = concatBytes(...reqs.flatMap(([r], i) => [...Array.from({ length: i === at ? MAX_EMPTY_LINES + 1 : 0 }, () => CRLF), serialise(r)]))
      const refused = feedChunks(decode, cutAt(over, cuts))
      assert.equal([refused.values.length, refused.error?._tag, refused.error?.status], [at, 'TooManyEmptyLines', 400])
    }),
    { numRuns: 150 },
  )
})

// RFC 9112 §7.1.1: chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ),
// chunk-ext-name = token, chunk-ext-val = token / quoted-string (RFC 9110 §5.6.4). An
// independent reading of the grammar, as a regular expression over the latin1 line.
const TOKEN_RE = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+"
const QUOTED_RE = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"'
const CHUNK_LINE = new RegExp(`^[0-9A-Fa-f]+(?:[ \\t]*;[ \\t]*${TOKEN_RE}(?:[ \\t]*=[ \\t]*(?:${TOKEN_RE}|${QUOTED_RE}))?)*$`)

const bws = fc.constantFrom('', ' ', '\t', ' \t ')
const qdtext = fc.oneof(
  fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x22 && c !== 0x5c && c !== 0x7f).map((c) => String.fromCharCode(c)),
  fc.constant('\t'),
  fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => `\\${String.fromCharCode(c)}`),
)
const extValue = fc.oneof(token, fc.array(qdtext, { maxLength: 6 }).map((cs) => `"${cs.join('')}"`))
const chunkExt = fc
  .array(fc.tuple(bws, bws, token, fc.option(fc.tuple(bws, bws, extValue), { nil: undefined })), { minLength: 1, maxLength: 4 })
  .map((exts) => exts.map(([a, b, name, v]) => `${a};${b}${name}${v === undefined ? '' : `${v[0]}=${v[1]}${v[2]}`}`).join(''))

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))
const HEAD = 'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n'

test('parseHttpRequest :: any chunk-ext that matches the grammar is accepted, any single-byte mutation that breaks it is rejected', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 40 }), chunkExt, fc.nat(), fc.integer({ min: 0, max: 255 }), (size, ext, where, byte) => {
      const data = 'd'.repeat(size)
      const sizeText = size.toString(16)
      const message = (line: string) => latin1(`${HEAD}${line}\r\n${data}\r\n0\r\n\r\n`)
      assert.ok(CHUNK_LINE.test(sizeText + ext), 'the generator makes lines of the grammar')
      const good = feedChunks(decode, [message(sizeText + ext)])
      assert.is(good.error, undefined)
      assert.equal(good.values.map((v) => new TextDecoder().decode(v.body)), [data])

      const at = where % ext.length
      const mutated = `${ext.slice(0, at)}${String.fromCharCode(byte)}${ext.slice(at + 1)}`
      const line = sizeText + mutated
      const out = parseHttpRequest(message(line))
      if (CHUNK_LINE.test(line)) assert.ok(out._tag === 'Right' || out.left._tag !== 'InvalidChunk', JSON.stringify(line))
      else {
        assert.ok(out._tag === 'Left', `accepted ${JSON.stringify(line)}`)
        if (out._tag === 'Left') assert.equal([out.left._tag, out.left.status], ['InvalidChunk', 400])
      }
    }),
    { numRuns: 1000 },
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
  const texty = fc.string({ unit: fc.constantFrom('a', ' ', ':', '\r', '\n', '\r\n', '0', 'f', ';', '=', '"', '\\', 'G', 'T', '/', 'HTTP/1.1', 'Host: h\r\n'), maxLength: 120 }).map((s) => enc.encode(s))
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
