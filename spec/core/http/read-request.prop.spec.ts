import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { createHeadScratch } from '../../../lib/core/http/head-scratch.js'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../../lib/core/http/http-limits.js'
import { type HttpNeedMore, parseHttpRequest } from '../../../lib/core/http/parse-http-request.js'
import { LINE_MAX } from '../../../lib/core/http/line-memo.js'
import { readRequest as readAt } from '../../../lib/core/http/read-request.js'
import type { HttpLimits as Limits } from '../../../lib/core/http/http-limits.js'

// One server's scratch for every read here (its memos carry over, as on a server).
const scratch = createHeadScratch()

// The request and where it ends, as one value to compare with the general parser's. The
// cursor's `upgrade` must say whether a field is named Upgrade (checked on every answer).
const readRequest = (bytes: Uint8Array, start: number, lim: Limits) => {
  const cursor = scratch
  cursor.end = -1
  cursor.upgrade = !lastUpgrade
  const request = readAt(bytes, start, lim, cursor)
  if (request === undefined) return undefined
  assert.is(cursor.upgrade, request.headers.some(([name]) => name.toLowerCase() === 'upgrade'), 'cursor.upgrade')
  lastUpgrade = cursor.upgrade
  return { request, end: cursor.end }
}
let lastUpgrade = false

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))

// A resume point that says the first byte was searched: the general parser then takes its
// exact path (scanHead, parseHead), not the single-pass reader that readRequest shares.
const EXACT: HttpNeedMore = { _tag: 'NeedMore', atLeast: 1, resume: { _tag: 'Head', searched: 1, lineEnd: -1, methodChecked: 0 } }

// The general parser on the bytes from `start`: the request and where it ends, or its other answer.
const general = (bytes: Uint8Array, start: number, limits: HttpLimits) => {
  const step = parseHttpRequest(bytes.subarray(start), limits, bytes[start] === 0x0a ? undefined : EXACT)
  if (step._tag === 'Left' || step.right._tag === 'NeedMore') return step
  return { request: step.right.value, end: bytes.length - step.right.rest.length }
}

// Heads made of plausible pieces and of the bytes that must be refused or left to the general path.
const piece = fc.constantFrom(
  'GET', 'POST', 'OPTIONS', 'G@T', ' ', '/', '/a?b=1', 'http://h.example/p', '*', '#', ' HTTP/1.1', ' HTTP/1.0', ' HTTP/2.0',
  '\r\n', '\r', '\n', 'Host: a', 'host: a b', 'HOST:[::1]:8', 'Host: a:x', 'Host: a ', 'Content-Length: 5', 'Content-Length: 1, 1',
  'content-length: 0', 'Transfer-Encoding: chunked', 'Connection: close', 'CONNECTION: Keep-Alive', 'Connection: keep-alive, x',
  'expect: 100-continue', 'Upgrade: websocket', 'X: \x01', 'X: \xe9', 'X: \x7f', 'X :a', ' folded', 'X:\t v \t', ':v', 'hello', 'abcde', '',
)
const head = fc.array(piece, { maxLength: 16 }).map((ps) => ps.join(''))

// Valid requests with a body when they declare one, a few of them back to back. The fields
// are mostly of the kinds that change the answer (Connection, Expect), with now and then one
// that makes the request invalid or chunked.
const field = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('Connection', 'connection', 'CONNECTION'), fc.constantFrom('close', 'keep-alive', 'Keep-Alive, x', 'CLOSE', 'upgrade', 'x')) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('Expect', 'eXpect'), fc.constantFrom('100-continue', '100-Continue', 'x')) },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom('Accept', 'X-Long-Header-Name', 'Upgrade', 'Hosts', 'Hist', 'Hos'), fc.stringMatching(/^[ -~\t]{0,24}$/)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('Content-Length', 'Transfer-Encoding', 'hOsT'), fc.constantFrom('5', ' 3 ', 'chunked', 'gzip, chunked', 'a:1', '[::1]')) },
)
const request = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'PUT', 'HEAD', 'OPTIONS', 'PATCH', 'DELETE', 'M-SEARCH', 'get'),
    fc.constantFrom('/', '/hello', '/a/b?c=d', '/x?', 'http://h.example:8080/x?y', 'HTTPS://h/', '*', 'ftp://x/'),
    fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0'),
    fc.array(field, { maxLength: 4 }),
    fc.constantFrom('', 'Host: a\r\n', 'host: localhost:6001\r\n', 'Host: [::1]\r\n', 'Host: a:b\r\n', 'Host: 127.0.0.1:6391\r\n'),
    fc.constantFrom('', '', 'abc', 'hello world'),
  )
  .map(([m, t, v, hs, host, body]) => {
    const fields = hs.map(([n, x]) => `${n}: ${x}\r\n`).join('')
    return `${m} ${t} ${v}\r\n${host}${fields}${body === '' ? '' : `Content-Length: ${body.length}\r\n`}\r\n${body}`
  })
const limits = fc.oneof(
  { weight: 4, arbitrary: fc.constant<HttpLimits>(DEFAULT_HTTP_LIMITS) },
  { weight: 1, arbitrary: fc.constantFrom<HttpLimits>(
    { ...DEFAULT_HTTP_LIMITS, maxRequestLine: 12, maxHeaderBytes: 48, maxHeaders: 2 },
    { ...DEFAULT_HTTP_LIMITS, maxHeaderBytes: 30, maxHeaders: 1, maxBody: 4 },
  ) },
)
const before = fc.constantFrom('', 'GET / HTTP/1.1\r\nHost: a\r\n\r\n', 'xyz', '\r\n')

test('readRequest :: whenever it answers, the general parser gives the same request and end (random pieces, any offset)', () => {
  fc.assert(
    fc.property(before, head, limits, (prefix, raw, lim) => {
      const bytes = enc(prefix + raw)
      for (let n = prefix.length; n <= bytes.length; n++) {
        const cut = bytes.subarray(0, n)
        const read = readRequest(cut, prefix.length, lim)
        if (read !== undefined) assert.equal(read, general(cut, prefix.length, lim))
      }
    }),
    { numRuns: 300 },
  )
})

test('readRequest :: valid requests back to back are read one after another as the general parser reads them', () => {
  fc.assert(
    fc.property(fc.array(request, { minLength: 1, maxLength: 4 }), limits, (requests, lim) => {
      const bytes = enc(requests.join(''))
      let at = 0
      while (at < bytes.length) {
        const expected = general(bytes, at, lim)
        const read = readRequest(bytes, at, lim)
        if (read === undefined) return
        assert.equal(read, expected)
        at = read.end
      }
    }),
    { numRuns: 300 },
  )
})

test('readRequest :: every prefix of a valid request agrees with the general parser', () => {
  fc.assert(
    fc.property(request, limits, (raw, lim) => {
      const bytes = enc(`${raw}GET / HTTP/1.1\r\n`)
      for (let n = 0; n <= bytes.length; n++) {
        const cut = bytes.subarray(0, n)
        const read = readRequest(cut, 0, lim)
        if (read !== undefined) assert.equal(read, general(cut, 0, lim))
      }
    }),
    { numRuns: 150 },
  )
})

// The fast path must actually be taken for the usual request, or it is no fast path.
test('readRequest :: answers every plain request with a complete body itself', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('GET', 'POST', 'DELETE'),
      fc.constantFrom('/', '/hello', '/a/b?c=d'),
      fc.array(fc.tuple(fc.constantFrom('Accept', 'User-Agent', 'Connection', 'X-A'), fc.stringMatching(/^[!-~]([ -~]{0,20}[!-~])?$/)), { maxLength: 5 }),
      fc.stringMatching(/^[a-z]{0,8}$/),
      (method, target, hs, body) => {
        const raw = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:6391\r\n${hs.map(([n, v]) => `${n}: ${v}\r\n`).join('')}Content-Length: ${body.length}\r\n\r\n${body}`
        const read = readRequest(enc(`xx${raw}`), 2, DEFAULT_HTTP_LIMITS)
        assert.ok(read !== undefined, JSON.stringify(raw))
        assert.is(read.end, raw.length + 2)
      },
    ),
    { numRuns: 200 },
  )
})

// Targets and Host values that meet the memos of the last target and the last plain Host
// value in every way: the same bytes again, one byte apart, one a prefix of the other, the
// other case of the name, and runs longer than the memo whose bytes repeat it.
const block = 'a'.repeat(63) + 'b'.repeat(64)
const memoTarget = fc.constantFrom('/hello', '/hellp', '/hell', '/hello/', '/Hello', '/hello?a', '/?', `/${block}`, `/${block}/${block}`, `/${'c'.repeat(127)}/${block}`, `/${block}/${block}x`, `/${block}x`)
const memoHost = fc.constantFrom(
  'Host: 127.0.0.1:6001', 'Host: 127.0.0.1:6002', 'Host: 127.0.0.1:600', 'Host: 127.0.0.1', 'host: 127.0.0.1:6001', 'HOST: 127.0.0.1:6001',
  'Host:127.0.0.1:6001', 'Host: 127.0.0.1:6001 ', 'Host: [::1]:6001', `Host: ${block}.`, `Host: ${block}.${block}.`, `Host: ${'c'.repeat(127)}.${block}.`, `Host: ${block}.${block}x`,
  'Host: a\r\nHost: a', 'X-Host: 127.0.0.1:6001\r\nHost: 127.0.0.1:6001', 'Hist: 127.0.0.1:6001', 'Hosx: a\r\nHost: 127.0.0.1:6001', 'Hos: a',
)
const memoRequest = fc.tuple(memoTarget, memoHost, fc.constantFrom('HTTP/1.1', 'HTTP/1.0')).map(([t, h, v]) => `GET ${t} ${v}\r\n${h}\r\n\r\n`)

test('readRequest :: targets and Host values seen before (or nearly) are read as the general parser reads them', () => {
  fc.assert(
    fc.property(fc.array(memoRequest, { minLength: 1, maxLength: 8 }), (requests) => {
      for (const raw of requests) {
        const bytes = enc(`x${raw}`)
        const read = readRequest(bytes, 1, DEFAULT_HTTP_LIMITS)
        const expected = general(bytes, 1, DEFAULT_HTTP_LIMITS)
        // Every one is answered by the fast path but those the general parser refuses (two Host
        // fields, none on 1.1: 400).
        if (read === undefined) assert.is('_tag' in expected && expected._tag, 'Left', JSON.stringify(raw))
        else assert.equal(read, expected)
      }
    }),
    { numRuns: 300 },
  )
})


// What Chrome sends for fetch('/hello'): fifteen field lines, most of them the same request
// after request, which the line memo keeps by position.
const CHROME_LINES = [
  'Host: localhost:6001',
  'Connection: keep-alive',
  'sec-ch-ua: "Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"',
  'sec-ch-ua-mobile: ?0',
  'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'sec-ch-ua-platform: "Linux"',
  'Accept: */*',
  'Sec-Fetch-Site: same-origin',
  'Sec-Fetch-Mode: cors',
  'Sec-Fetch-Dest: empty',
  'Referer: http://localhost:6001/',
  'Accept-Encoding: gzip, deflate, br, zstd',
  'Accept-Language: en-US,en;q=0.9',
  'Cookie: theme=dark; session=3f9c2a7e1b0d4c8e9a6f5b2d7c1e0a93',
]
const CHROME = `GET /hello HTTP/1.1\r\n${CHROME_LINES.map((l) => `${l}\r\n`).join('')}\r\n`

// Field lines that meet the kept line of their position in every way: the same bytes, one
// byte apart, longer, shorter, another case, trailing white space, an HTAB inside, and the
// lines whose kind matters (Host valid or not, Connection, Upgrade, Expect, framing).
const memoLine = fc.constantFrom(
  ...CHROME_LINES,
  'Host: localhost:6002', 'Host: [::1]:6001', 'host: localhost:6001', 'Host: a b', 'Host: localhost:6001 ',
  'Connection: Keep-Alive', 'Connection: keep-alivE ', 'Connection: close', 'Connection: keep-alive, Upgrade', 'connection:keep-alive',
  'Upgrade: websocket', 'upgrade: h2c', 'Upgrades: x', 'Expect: 100-continue', 'Transfer-Encoding: chunked', 'Content-Length: 3',
  'Accept: */**', 'Accept: */', 'ACCEPT: */*', 'Accept: \t*/*', 'Accept: */*\t', 'Accept:*/*', 'Accept: a\tb',
  'Sec-Fetch-Site: same-originx', 'Sec-Fetch-Site: same-origiN', 'Sec-Fetch-Mode: corS', 'X-A: ', 'X-A:',
  `Cookie: ${'k'.repeat(500)}`, `Cookie: ${'k'.repeat(505)}`, `Cookie: ${'k'.repeat(504)}`,
)
const memoHead = fc
  .tuple(fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0'), fc.array(fc.oneof(memoLine, fc.constantFrom(...CHROME_LINES)), { maxLength: 16 }), fc.boolean())
  .map(([v, lines, chrome]) => {
    const fields = chrome ? [...CHROME_LINES.slice(0, 14 - lines.length), ...lines] : lines
    const body = fields.some((l) => l.startsWith('Content-Length')) ? 'abc' : ''
    return `GET /hello ${v}\r\n${fields.map((l) => `${l}\r\n`).join('')}\r\n${body}`
  })

test('readRequest :: field lines seen before at their position (or nearly) are read as the general parser reads them', () => {
  fc.assert(
    fc.property(fc.array(memoHead, { minLength: 1, maxLength: 6 }), limits, (heads, lim) => {
      for (const raw of heads) {
        const bytes = enc(`x${raw}`)
        const read = readRequest(bytes, 1, lim)
        const expected = general(bytes, 1, lim)
        if (read !== undefined) assert.equal(read, expected)
        // A valid plain head with its body is the fast path's to answer.
        else if (lim === DEFAULT_HTTP_LIMITS && !raw.includes('chunked')) assert.is('_tag' in expected && expected._tag, 'Left', JSON.stringify(raw))
      }
    }),
    { numRuns: 400 },
  )
})

// The Chrome head read once (its lines kept), then again with one byte replaced, at every
// position, by a byte that is malformed there or that changes the line's meaning.
test('readRequest :: a head whose lines were kept, with any one byte made malformed, is read as the general parser reads it', () => {
  const good = enc(CHROME)
  for (let at = 0; at < good.length; at++) {
    for (const x of [0x00, 0x09, 0x0a, 0x0d, 0x20, 0x3a, 0x7f, 0x80, 0xff, good[at] === 0x2d ? 0x2e : (good[at] as number) ^ 0x20]) {
      if (x === good[at]) continue
      const primed = readRequest(good, 0, DEFAULT_HTTP_LIMITS)
      assert.ok(primed !== undefined)
      const bytes = Uint8Array.from(good)
      bytes[at] = x
      const read = readRequest(bytes, 0, DEFAULT_HTTP_LIMITS)
      if (read !== undefined) assert.equal(read, general(bytes, 0, DEFAULT_HTTP_LIMITS), `0x${x.toString(16)} at ${at}`)
    }
  }
})

test('readRequest :: every prefix of a head whose lines were kept waits for the rest; the whole is the general parser\'s request', () => {
  const good = enc(`${CHROME}GET`)
  assert.ok(readRequest(good, 0, DEFAULT_HTTP_LIMITS) !== undefined)
  for (let n = 0; n < CHROME.length; n++) assert.is(readRequest(good.subarray(0, n), 0, DEFAULT_HTTP_LIMITS), undefined, `${n} bytes`)
  assert.equal(readRequest(good, 0, DEFAULT_HTTP_LIMITS), general(good, 0, DEFAULT_HTTP_LIMITS))
})

test('readRequest :: the head and field-count limits hold at their edge for lines read again from the memo', () => {
  const good = enc(CHROME)
  const fields = CHROME_LINES.length
  for (const maxHeaderBytes of [CHROME.length - 3, CHROME.length - 2, CHROME.length - 1, CHROME.length, CHROME.length + 1]) {
    for (const maxHeaders of [fields - 1, fields, fields + 1]) {
      const lim = { ...DEFAULT_HTTP_LIMITS, maxHeaderBytes, maxHeaders }
      assert.ok(readRequest(good, 0, DEFAULT_HTTP_LIMITS) !== undefined)
      const read = readRequest(good, 0, lim)
      const expected = general(good, 0, lim)
      if (read !== undefined) assert.equal(read, expected)
      else assert.is('_tag' in expected && expected._tag, 'Left', `${maxHeaderBytes} bytes, ${maxHeaders} fields`)
      // The edge itself: the fast path answers exactly when the general parser does.
      assert.is(read !== undefined, !('_tag' in expected), `${maxHeaderBytes} bytes, ${maxHeaders} fields`)
    }
  }
})

// Request lines that meet the kept request line in every way: the same bytes, one byte apart
// in the method, target or version, longer, shorter, a query at another place, the other
// version, and lines at the memo's length edge (LINE_MAX). Each head alone in its buffer
// (compared byte by byte) or followed by more (compared eight bytes at a time).
const longTarget = (n: number): string => `/${'t'.repeat(n - 'GET / HTTP/1.1'.length)}`
const memoLineRequest = fc.constantFrom(
  'GET /hello HTTP/1.1', 'GET /hello HTTP/1.0', 'GET /hellp HTTP/1.1', 'GET /hell HTTP/1.1', 'GET /hello/ HTTP/1.1', 'GET /hello?x HTTP/1.1',
  'GET /hel?lo HTTP/1.1', 'GET /?hello HTTP/1.1', 'GET /hello?a?b HTTP/1.1', 'PUT /hello HTTP/1.1', 'GETS /hello HTTP/1.1', 'GE /hello HTTP/1.1',
  'get /hello HTTP/1.1', 'M-SEARCH /hello HTTP/1.1', 'GET /hello HTTP/1.2', 'GET /hello HTTP/2.0', 'GET /hello  HTTP/1.1', 'GET  /hello HTTP/1.1',
  'GET /hel#lo HTTP/1.1', 'GET /hello HTTP/1.1 ', 'GET * HTTP/1.1', 'OPTIONS * HTTP/1.1', 'GET http://h.example/x?y HTTP/1.1', 'GET /a HTTP/1.1',
  `GET ${longTarget(LINE_MAX - 1)} HTTP/1.1`, `GET ${longTarget(LINE_MAX)} HTTP/1.1`, `GET ${longTarget(LINE_MAX + 1)} HTTP/1.1`,
  `GET ${longTarget(LINE_MAX)}?q HTTP/1.0`,
)
const lineRequest = fc
  .tuple(memoLineRequest, fc.constantFrom('Host: 127.0.0.1:6001\r\n', 'Host: a\r\nAccept: */*\r\n', ''), fc.boolean())
  .map(([line, fields, more]) => ({ raw: `${line}\r\n${fields}\r\n`, more: more ? 'GET / HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(3) : '' }))

test('readRequest :: request lines seen before (or nearly) are read as the general parser reads them', () => {
  fc.assert(
    fc.property(fc.array(lineRequest, { minLength: 1, maxLength: 8 }), (requests) => {
      for (const { raw, more } of requests) {
        const bytes = enc(`x${raw}${more}`)
        const read = readRequest(bytes, 1, DEFAULT_HTTP_LIMITS)
        const expected = general(bytes, 1, DEFAULT_HTTP_LIMITS)
        if (read !== undefined) assert.equal(read, expected)
        // A valid plain head is the fast path's to answer.
        else assert.ok(!raw.startsWith('GET /hello HTTP/1.1\r\nHost') || '_tag' in expected, JSON.stringify(raw))
      }
    }),
    { numRuns: 400 },
  )
})

// wrk's head (the http-pipelined workload's), read once so that its request line and Host
// line are kept, then again with one byte replaced by every other value, at every position,
// alone in its buffer and as the first and a middle head of ten back to back.
const WRK = 'GET /hello HTTP/1.1\r\nHost: 127.0.0.1:6001\r\n\r\n'
for (const [name, copies, nth] of [['alone', 1, 0], ['first of ten', 10, 0], ['sixth of ten', 10, 5]] as const) {
  test(`readRequest :: wrk's head with its lines kept and any one byte changed is read as the general parser reads it (${name})`, () => {
    const good = enc(WRK.repeat(copies))
    const at0 = nth * WRK.length
    for (let i = 0; i < WRK.length; i++) {
      for (let x = 0; x < 256; x++) {
        if (x === good[at0 + i]) continue
        assert.ok(readRequest(good, at0, DEFAULT_HTTP_LIMITS) !== undefined)
        const bytes = Uint8Array.from(good)
        bytes[at0 + i] = x
        const read = readRequest(bytes, at0, DEFAULT_HTTP_LIMITS)
        if (read !== undefined) assert.equal(read, general(bytes, at0, DEFAULT_HTTP_LIMITS), `0x${x.toString(16)} at ${i}`)
      }
    }
  })
}

test('readRequest :: every prefix of wrk\'s head with its lines kept waits for the rest; the whole is the general parser\'s request', () => {
  for (const tail of ['', WRK.repeat(3)]) {
    const good = enc(`${WRK}${tail}`)
    assert.ok(readRequest(good, 0, DEFAULT_HTTP_LIMITS) !== undefined)
    for (let n = 0; n < WRK.length; n++) {
      // The prefix alone, and as the start of a longer buffer of the same array.
      assert.is(readRequest(good.subarray(0, n), 0, DEFAULT_HTTP_LIMITS), undefined, `${n} bytes`)
    }
    const read = readRequest(good, 0, DEFAULT_HTTP_LIMITS)
    assert.equal(read, general(good, 0, DEFAULT_HTTP_LIMITS))
    assert.is(read?.end, WRK.length)
  }
})

test('readRequest :: the request-line and head limits hold at their edge for a request line read again from the memo', () => {
  const line = 'GET /hello HTTP/1.1'.length
  for (const tail of ['', WRK.repeat(3)]) {
    const good = enc(`${WRK}${tail}`)
    for (const maxRequestLine of [line - 2, line - 1, line, line + 1, line + 2]) {
      for (const maxHeaderBytes of [WRK.length - 2, WRK.length - 1, WRK.length, WRK.length + 1, line + 1, line + 2, line + 3]) {
        const lim = { ...DEFAULT_HTTP_LIMITS, maxRequestLine, maxHeaderBytes }
        assert.ok(readRequest(good, 0, DEFAULT_HTTP_LIMITS) !== undefined)
        const read = readRequest(good, 0, lim)
        const expected = general(good, 0, lim)
        if (read !== undefined) assert.equal(read, expected)
        // The edge itself: the fast path answers exactly when the general parser does.
        assert.is(read !== undefined, !('_tag' in expected), `line ${maxRequestLine}, head ${maxHeaderBytes}`)
      }
    }
  }
})

test.run()
