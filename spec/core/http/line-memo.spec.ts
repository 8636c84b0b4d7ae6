import { test } from 'uvu'
import fc from 'fast-check'
import * as assert from 'uvu/assert'
import type { Header } from '../../../lib/core/http/types.js'
import { createWordViews, LONG_RUN } from '../../../lib/core/http/word-view.js'
import {
  createLineMemo, FRAMING_LINE, LINE_MAX, LINE_SLOTS, OTHER_LINE, REQUEST_LINE, rememberLine, rememberRequestLine, sameLine,
} from '../../../lib/core/http/line-memo.js'

// One server's memo, for every test here (as a server keeps it).
const memo = createLineMemo(createWordViews())

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))
const header = (name: string, value: string): Header => Object.freeze([name, value] as const)

test('sameLine :: the kept line again, at any offset: its length, with its strings and kind kept', () => {
  const line = 'User-Agent: Mozilla/5.0 (X11; Linux x86_64)'
  rememberLine(memo, enc(`${line}\r\n`), 0, line.length, 3, header('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64)'), OTHER_LINE)
  for (const before of ['', 'x', 'xy', 'xyz', 'GET / HTTP/1.1\r\n']) {
    assert.is(sameLine(memo, enc(`${before}${line}\r\nrest`), before.length, 3), line.length, JSON.stringify(before))
  }
  assert.equal([memo.headers[3], memo.kinds[3]], [['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64)'], OTHER_LINE])
  assert.ok(Object.isFrozen(memo.headers[3]))
  // Another position keeps its own line.
  assert.is(sameLine(memo, enc(`${line}\r\n`), 0, 4), -1)
})

// A short line is compared byte by byte, a long one (LONG_RUN or more) a word at a time.
for (const [name, value] of [['Content-Length', '12345'], ['User-Agent', `Mozilla/5.0 (X11; Linux x86_64) ${'w'.repeat(LONG_RUN)}`]] as const) {
  test(`sameLine :: a line that differs in any byte, is longer or shorter, or has no CRLF within the bytes is not the kept one (${name})`, () => {
    const line = `${name}: ${value}`
    rememberLine(memo, enc(`${line}\r\n`), 0, line.length, 0, header(name, value), FRAMING_LINE)
    for (let i = 0; i < line.length; i++) {
      for (const x of [0x00, 0x09, 0x0d, 0x0a, 0x20, 0x7f, 0x80, 0xff, line.charCodeAt(i) ^ 0x20]) {
        if (x === line.charCodeAt(i)) continue
        const b = enc(`${line}\r\n`)
        b[i] = x
        assert.is(sameLine(memo, b, 0, 0), -1, `0x${x.toString(16)} at ${i}`)
      }
    }
    for (const other of [`${line}6\r\n`, `${line.slice(0, -1)}\r\n`, `${line} \r\n`, `${line}\r`, line, `${line}\n\r`, `${line}\r\r`]) {
      assert.is(sameLine(memo, enc(other), 0, 0), -1, JSON.stringify(other))
    }
    assert.is(sameLine(memo, enc(`${line}\r\n`), 0, 0), line.length)
  })
}

test('rememberLine :: a line longer than LINE_MAX is not kept (the slot then keeps nothing)', () => {
  const short = 'Accept: */*'
  rememberLine(memo, enc(`${short}\r\n`), 0, short.length, 5, header('Accept', '*/*'), OTHER_LINE)
  assert.is(sameLine(memo, enc(`${short}\r\n`), 0, 5), short.length)
  const long = `Cookie: ${'a'.repeat(LINE_MAX)}`
  rememberLine(memo, enc(`${long}\r\n`), 0, long.length, 5, header('Cookie', 'a'.repeat(LINE_MAX)), OTHER_LINE)
  assert.is(sameLine(memo, enc(`${long}\r\n`), 0, 5), -1)
  assert.is(sameLine(memo, enc(`${short}\r\n`), 0, 5), -1)
  const edge = `Cookie: ${'b'.repeat(LINE_MAX - 8)}`
  rememberLine(memo, enc(`${edge}\r\n`), 0, edge.length, 5, header('Cookie', 'b'.repeat(LINE_MAX - 8)), OTHER_LINE)
  assert.is(sameLine(memo, enc(`${edge}\r\n`), 0, 5), LINE_MAX)
})

// A line is compared eight bytes at a time (as doubles) when a view of the bytes pays, else
// byte by byte: both ways, every byte of the line and of its CRLF changed to every other value.
// Padding after the CRLF makes the run long enough for a view (LONG_RUN).
for (const [name, line, tail] of [
  ['short, byte by byte', 'Host: 127.0.0.1:6001', ''],
  ['short, eight at a time', 'Host: 127.0.0.1:6001', 'x'.repeat(LONG_RUN)],
  ['seven bytes with CRLF, eight at a time', 'X: abc', 'x'.repeat(LONG_RUN)],
  ['eight bytes with CRLF, eight at a time', 'X: abcd', 'x'.repeat(LONG_RUN)],
  ['a value with HTAB, eight at a time', 'X-A: a\tb\t c d e', 'x'.repeat(LONG_RUN)],
] as const) {
  test(`sameLine :: any one byte of the line or its CRLF changed to any other value is not the kept line (${name})`, () => {
    rememberLine(memo, enc(`${line}\r\n`), 0, line.length, 7, header('X', line), OTHER_LINE)
    const good = enc(`${line}\r\n${tail}`)
    assert.is(sameLine(memo, good, 0, 7), line.length)
    for (let i = 0; i < line.length + 2; i++) {
      for (let x = 0; x < 256; x++) {
        if (x === good[i]) continue
        const b = Uint8Array.from(good)
        b[i] = x
        assert.is(sameLine(memo, b, 0, 7), -1, `0x${x.toString(16)} at ${i}`)
      }
    }
  })
}

// Compared as doubles, eight arbitrary bytes equal the kept ones only when they are the same
// bytes (a kept line's bytes make a normal number: no NaN, no zero of the other sign).
test('sameLine :: random runs of bytes put over a kept line match it only when they are its bytes', () => {
  const line = `Accept-Language: en-US,en;q=0.9 ${'v'.repeat(LONG_RUN)}`
  const good = enc(`${line}\r\n`)
  rememberLine(memo, good, 0, line.length, 9, header('Accept-Language', line.slice(17)), OTHER_LINE)
  fc.assert(
    fc.property(fc.nat(line.length + 1), fc.uint8Array({ minLength: 1, maxLength: 16 }), (at, run) => {
      const b = Uint8Array.from(good)
      b.set(run.subarray(0, b.length - at), at)
      const same = b.every((x, i) => x === good[i])
      assert.is(sameLine(memo, b, 0, 9), same ? line.length : -1)
    }),
    { numRuns: 2000 },
  )
  // Words that are a NaN, a zero or a negative zero as doubles, over every offset of the line.
  for (const word of [[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0x80], [0, 0, 0, 0, 0, 0, 0xf8, 0x7f], [1, 0, 0, 0, 0, 0, 0xf0, 0xff]]) {
    for (let at = 0; at + 8 <= good.length; at++) {
      const b = Uint8Array.from(good)
      b.set(word, at)
      assert.is(sameLine(memo, b, 0, 9), -1, `${word} at ${at}`)
    }
  }
})

test('rememberRequestLine :: the request line kept apart from the field lines, with its parts; found again only as the same bytes', () => {
  const line = 'GET /a?b=1 HTTP/1.1'
  rememberRequestLine(memo, enc(`${line}\r\n`), 0, line.length, 'GET', '/a?b=1', 2, 'HTTP/1.1')
  assert.equal({ ...memo.requestLine }, { method: 'GET', target: '/a?b=1', query: 2, targetOffset: 4, protocol: 'HTTP/1.1' })
  for (const tail of ['', 'Host: a\r\n\r\n'.repeat(8)]) {
    assert.is(sameLine(memo, enc(`${line}\r\n${tail}`), 0, REQUEST_LINE), line.length)
    assert.is(sameLine(memo, enc(`xx${line}\r\n${tail}`), 2, REQUEST_LINE), line.length)
    for (const other of ['GET /a?b=1 HTTP/1.0\r\n', 'GET /a?b=2 HTTP/1.1\r\n', 'GET /a?b=1 HTTP/1.1\n', 'GET /a?b=1 HTTP/1.1\r', 'PUT /a?b=1 HTTP/1.1\r\n', 'GET /a?b=1  HTTP/1.1\r\n']) {
      assert.is(sameLine(memo, enc(`${other}${tail}`), 0, REQUEST_LINE), -1, JSON.stringify(other))
    }
  }
  // The field positions keep their own lines.
  for (let slot = 0; slot < LINE_SLOTS; slot++) assert.is(sameLine(memo, enc(`${line}\r\n`), 0, slot), -1, `slot ${slot}`)
  // A request line longer than LINE_MAX is not kept; one of LINE_MAX is.
  const target = (n: number) => `/${'t'.repeat(n - 'GET / HTTP/1.1'.length)}`
  const edge = `GET ${target(LINE_MAX)} HTTP/1.1`
  rememberRequestLine(memo, enc(`${edge}\r\n`), 0, edge.length, 'GET', target(LINE_MAX), -1, 'HTTP/1.1')
  assert.is(sameLine(memo, enc(`${edge}\r\n`), 0, REQUEST_LINE), LINE_MAX)
  const long = `GET ${target(LINE_MAX + 1)} HTTP/1.1`
  rememberRequestLine(memo, enc(`${long}\r\n`), 0, long.length, 'GET', target(LINE_MAX + 1), -1, 'HTTP/1.1')
  assert.is(sameLine(memo, enc(`${long}\r\n`), 0, REQUEST_LINE), -1)
  assert.is(sameLine(memo, enc(`${edge}\r\n`), 0, REQUEST_LINE), -1)
})

test.run()
