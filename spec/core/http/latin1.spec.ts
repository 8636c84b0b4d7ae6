import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { asciiText, latin1 } from '../../../lib/core/http/latin1.js'

test('latin1 :: one char per byte, 0x80-0xFF included, short and long runs', () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i)
  assert.is(latin1(all, 250, 256), '\u00fa\u00fb\u00fc\u00fd\u00fe\u00ff')
  assert.is(latin1(all, 0, 256), String.fromCharCode(...all))
  const long = Uint8Array.from({ length: 10_000 }, (_, i) => 0x80 + (i % 128))
  const text = latin1(long, 1, 9_999)
  assert.is(text.length, 9_998)
  assert.ok([...text].every((c, i) => c.charCodeAt(0) === 0x80 + ((i + 1) % 128)))
})

test('asciiText :: short, whole-buffer and partial runs', () => {
  const bytes = new TextEncoder().encode('GET /a HTTP/1.1\r\nHost: example.com\r\n\r\n')
  assert.is(asciiText(bytes, 0, 3), 'GET')
  assert.is(asciiText(bytes, 0, bytes.length), 'GET /a HTTP/1.1\r\nHost: example.com\r\n\r\n')
  assert.is(asciiText(bytes, 17, 34), 'Host: example.com')
})

test.run()
