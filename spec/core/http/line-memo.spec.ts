import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Header } from '../../../lib/core/http/types.js'
import { LONG_RUN } from '../../../lib/core/http/word-view.js'
import { FRAMING_LINE, LINE_MAX, lineMemo, OTHER_LINE, rememberLine, sameLine } from '../../../lib/core/http/line-memo.js'

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))
const header = (name: string, value: string): Header => Object.freeze([name, value] as const)

test('sameLine :: the kept line again, at any offset: its length, with its strings and kind kept', () => {
  const line = 'User-Agent: Mozilla/5.0 (X11; Linux x86_64)'
  rememberLine(enc(`${line}\r\n`), 0, line.length, 3, header('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64)'), OTHER_LINE)
  for (const before of ['', 'x', 'xy', 'xyz', 'GET / HTTP/1.1\r\n']) {
    assert.is(sameLine(enc(`${before}${line}\r\nrest`), before.length, 3), line.length, JSON.stringify(before))
  }
  assert.equal([lineMemo.headers[3], lineMemo.kinds[3]], [['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64)'], OTHER_LINE])
  assert.ok(Object.isFrozen(lineMemo.headers[3]))
  // Another position keeps its own line.
  assert.is(sameLine(enc(`${line}\r\n`), 0, 4), -1)
})

// A short line is compared byte by byte, a long one (LONG_RUN or more) a word at a time.
for (const [name, value] of [['Content-Length', '12345'], ['User-Agent', `Mozilla/5.0 (X11; Linux x86_64) ${'w'.repeat(LONG_RUN)}`]] as const) {
  test(`sameLine :: a line that differs in any byte, is longer or shorter, or has no CRLF within the bytes is not the kept one (${name})`, () => {
    const line = `${name}: ${value}`
    rememberLine(enc(`${line}\r\n`), 0, line.length, 0, header(name, value), FRAMING_LINE)
    for (let i = 0; i < line.length; i++) {
      for (const x of [0x00, 0x09, 0x0d, 0x0a, 0x20, 0x7f, 0x80, 0xff, line.charCodeAt(i) ^ 0x20]) {
        if (x === line.charCodeAt(i)) continue
        const b = enc(`${line}\r\n`)
        b[i] = x
        assert.is(sameLine(b, 0, 0), -1, `0x${x.toString(16)} at ${i}`)
      }
    }
    for (const other of [`${line}6\r\n`, `${line.slice(0, -1)}\r\n`, `${line} \r\n`, `${line}\r`, line, `${line}\n\r`, `${line}\r\r`]) {
      assert.is(sameLine(enc(other), 0, 0), -1, JSON.stringify(other))
    }
    assert.is(sameLine(enc(`${line}\r\n`), 0, 0), line.length)
  })
}

test('rememberLine :: a line longer than LINE_MAX is not kept (the slot then keeps nothing)', () => {
  const short = 'Accept: */*'
  rememberLine(enc(`${short}\r\n`), 0, short.length, 5, header('Accept', '*/*'), OTHER_LINE)
  assert.is(sameLine(enc(`${short}\r\n`), 0, 5), short.length)
  const long = `Cookie: ${'a'.repeat(LINE_MAX)}`
  rememberLine(enc(`${long}\r\n`), 0, long.length, 5, header('Cookie', 'a'.repeat(LINE_MAX)), OTHER_LINE)
  assert.is(sameLine(enc(`${long}\r\n`), 0, 5), -1)
  assert.is(sameLine(enc(`${short}\r\n`), 0, 5), -1)
  const edge = `Cookie: ${'b'.repeat(LINE_MAX - 8)}`
  rememberLine(enc(`${edge}\r\n`), 0, edge.length, 5, header('Cookie', 'b'.repeat(LINE_MAX - 8)), OTHER_LINE)
  assert.is(sameLine(enc(`${edge}\r\n`), 0, 5), LINE_MAX)
})

test.run()
