import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createHeadScratch } from '../../../lib/core/http/head-scratch.js'
import fc from 'fast-check'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../../lib/core/http/http-limits.js'
import { parseHead } from '../../../lib/core/http/parse-head.js'
import { readHead } from '../../../lib/core/http/read-head.js'
import { HEAD_START, scanHead } from '../../../lib/core/http/scan-head.js'

// One server's scratch, for every test here (as a server keeps it).
const scratch = createHeadScratch()

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))

// The exact path from scratch: scanHead, then parseHead once the head is complete.
const exact = (bytes: Uint8Array, limits: HttpLimits) => {
  const scanned = scanHead(bytes, HEAD_START, limits)
  if (scanned._tag === 'Left' || typeof scanned.right !== 'number') return scanned
  return parseHead(bytes, scanned.right, limits)
}

// What the single-pass reader leads to: its own answer, or scanHead from where it stopped.
const viaReader = (bytes: Uint8Array, limits: HttpLimits) => {
  const read = readHead(bytes, limits, 0, scratch)
  if (read === undefined) return exact(bytes, limits)
  if ('_tag' in read) return read
  const scanned = scanHead(bytes, read, limits)
  if (scanned._tag === 'Left' || typeof scanned.right !== 'number') return scanned
  return parseHead(bytes, scanned.right, limits)
}

// Heads made of plausible pieces and of the bytes that must be refused or left to the exact path.
const piece = fc.constantFrom(
  'GET', 'POST', 'OPTIONS', 'G@T', ' ', '/', '/a?b=1', 'http://h.example/p', '*', '#', ' HTTP/1.1', ' HTTP/1.0', ' HTTP/2.0',
  '\r\n', '\r', '\n', 'Host: a', 'host: a b', 'HOST:[::1]:8', 'Host: a:x', 'Host: a ', 'Content-Length: 5', 'Content-Length: 1, 1', 'Transfer-Encoding: chunked', 'Connection: close',
  'Connection: keep-alive, x', 'expect: 100-continue', 'X: \x01', 'X: \xe9', 'X: \x7f', 'X :a', ' folded', 'X:\t v \t', ':v', 'hello', '',
)
const head = fc.array(piece, { maxLength: 14 }).map((ps) => ps.join(''))
const valid = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'PUT', 'HEAD', 'OPTIONS', 'PATCH', 'DELETE', 'M-SEARCH'),
    fc.constantFrom('/', '/a/b?c=d', 'http://h.example:8080/x?y', '*'),
    fc.constantFrom('HTTP/1.1', 'HTTP/1.0'),
    fc.array(
      fc.tuple(
        fc.constantFrom('Host', 'Accept', 'Content-Length', 'connection', 'Connection', 'Expect', 'X-Long-Header-Name'),
        fc.oneof(fc.constantFrom('close', 'keep-alive', 'CLOSE', '100-continue', '0', '7'), fc.stringMatching(/^[ -~]{0,20}$/)),
      ),
      { maxLength: 8 },
    ),
    fc.constantFrom('', 'Host: a\r\n', 'host: localhost:6001\r\n', 'Host: [::1]\r\n', 'Host: a:b\r\n'),
  )
  .map(([m, t, v, hs, host]) => `${m} ${t} ${v}\r\n${host}${hs.map(([n, x]) => `${n}: ${x}\r\n`).join('')}\r\n`)
const limits = fc.constantFrom<HttpLimits>(
  DEFAULT_HTTP_LIMITS,
  { ...DEFAULT_HTTP_LIMITS, maxRequestLine: 12, maxHeaderBytes: 48, maxHeaders: 2 },
  { ...DEFAULT_HTTP_LIMITS, maxHeaderBytes: 30, maxHeaders: 1 },
)

test('readHead :: every prefix leads where the exact path leads (random pieces)', () => {
  fc.assert(
    fc.property(head, limits, (raw, lim) => {
      const bytes = enc(raw)
      for (let n = 0; n <= bytes.length; n++) assert.equal(viaReader(bytes.subarray(0, n), lim), exact(bytes.subarray(0, n), lim))
    }),
    { numRuns: 250 },
  )
})

test('readHead :: every prefix of a valid head, and the head with trailing bytes, agree with the exact path', () => {
  fc.assert(
    fc.property(valid, limits, (raw, lim) => {
      const bytes = enc(`${raw}GET / HTTP/1.1\r\n`)
      for (let n = 0; n <= bytes.length; n++) assert.equal(viaReader(bytes.subarray(0, n), lim), exact(bytes.subarray(0, n), lim))
    }),
    { numRuns: 200 },
  )
})

test.run()
