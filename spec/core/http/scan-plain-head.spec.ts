import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createHeadScratch } from '../../../lib/core/http/head-scratch.js'
import { DEFAULT_HTTP_LIMITS } from '../../../lib/core/http/http-limits.js'
import { EXACT, SCAN, SCAN_START, scanPlainHead } from '../../../lib/core/http/scan-plain-head.js'

// One server's scratch, for every test here (as a server keeps it).
const scratch = createHeadScratch()

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))

test('scanPlainHead :: a complete head: its length from start, and what it read in plainHead', () => {
  const raw = 'xxGET /a?b=1 HTTP/1.0\r\nHost: 127.0.0.1:6001\r\nX-A:  v \t\r\n\r\nGET'
  const end = scanPlainHead(enc(raw), DEFAULT_HTTP_LIMITS, 2, scratch)
  assert.is(end, raw.length - 5)
  const { method, target, query, targetOffset, protocol, headers, hosts, hostChecked, plain } = scratch.head
  assert.equal(
    { method, target, query, targetOffset, protocol, headers, hosts, hostChecked, plain },
    { method: 'GET', target: '/a?b=1', query: 2, targetOffset: 4, protocol: 'HTTP/1.0', headers: [['Host', '127.0.0.1:6001'], ['X-A', 'v']], hosts: 1, hostChecked: true, plain: true },
  )
})

test('scanPlainHead :: notes a field that drives framing, and a Host left to the full check', () => {
  assert.ok(scanPlainHead(enc('GET / HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n'), DEFAULT_HTTP_LIMITS, 0, scratch) > 0)
  assert.equal([scratch.head.plain, scratch.head.hosts, scratch.head.hostChecked], [false, 1, false])
})

test('scanPlainHead :: a buffer ending inside the request line starts a fresh scan', () => {
  for (const raw of ['GE', 'GET /hel', 'GET / HTTP/1.'])
    assert.is(scanPlainHead(enc(raw), DEFAULT_HTTP_LIMITS, 0, scratch), SCAN_START, raw)
})

test('scanPlainHead :: a buffer ending inside the fields says how far it searched', () => {
  const raw = 'GET / HTTP/1.1\r\nHost: a\r\nX-A: b'
  assert.is(scanPlainHead(enc(`zz${raw}`), DEFAULT_HTTP_LIMITS, 2, scratch), SCAN)
  assert.equal([scratch.head.searched, scratch.head.lineEnd], [raw.length, 15])
})

test('scanPlainHead :: leaves what is not plain to the exact path', () => {
  for (const raw of ['GET / HTTP/2.0\r\n\r\n', 'GET / HTTP/1.1\r\nX: \xe9\r\n\r\n', 'GET / HTTP/1.1\nHost: a\r\n\r\n', ' GET / HTTP/1.1\r\n\r\n', 'GET / HTTP/1.1\r\nX :a\r\n\r\n'])
    assert.is(scanPlainHead(enc(raw), DEFAULT_HTTP_LIMITS, 0, scratch), EXACT, JSON.stringify(raw))
})

test('scanPlainHead :: a target and Host value seen last, then one byte apart or longer, are each read as they are', () => {
  const long = `/${'a'.repeat(127)}`
  const cases: readonly (readonly [string, string, string])[] = [
    ['/hello', 'Host', '127.0.0.1:6001'],
    ['/hello', 'Host', '127.0.0.1:6001'],
    ['/hellp', 'Host', '127.0.0.1:6002'],
    ['/hell', 'host', '127.0.0.1:600'],
    ['/hello', 'Host', '127.0.0.1:6001'],
    [long, 'Host', 'a'.repeat(128)],
    [long + long, 'Host', 'a'.repeat(256)],
    [long + long.replace('/', 'b'), 'Host', `${'a'.repeat(128)}${'b'.repeat(128)}`],
    [long + long, 'Host', 'a'.repeat(256)],
  ]
  for (const [target, name, value] of cases) {
    const raw = `GET ${target} HTTP/1.1\r\n${name}: ${value}\r\n\r\n`
    assert.is(scanPlainHead(enc(raw), DEFAULT_HTTP_LIMITS, 0, scratch), raw.length)
    assert.equal([scratch.head.target, scratch.head.headers, scratch.head.hostChecked], [target, [[name, value]], true], raw)
  }
})

test('scanPlainHead :: Connection: keep-alive keeps a 1.1 head plain, not a 1.0 one; an Upgrade field is noted', () => {
  const scan = (raw: string) => {
    assert.ok(scanPlainHead(enc(raw), DEFAULT_HTTP_LIMITS, 0, scratch) > 0, raw)
    return [scratch.head.plain, scratch.head.upgrade]
  }
  // Twice each: read anew, then again from the line memo.
  for (let i = 0; i < 2; i++) {
    assert.equal(scan('GET / HTTP/1.1\r\nHost: a\r\nConnection: Keep-Alive \r\n\r\n'), [true, false])
    assert.equal(scan('GET / HTTP/1.0\r\nHost: a\r\nConnection: Keep-Alive \r\n\r\n'), [false, false])
    assert.equal(scan('GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, x\r\n\r\n'), [false, false])
    assert.equal(scan('GET / HTTP/1.1\r\nHost: a\r\nUPGRADE: websocket\r\n\r\n'), [true, true])
    assert.equal(scan('GET / HTTP/1.1\r\nHost: a\r\nUpgrad: websocket\r\n\r\n'), [true, false])
  }
})

test.run()
