import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { internAscii } from '../../../lib/core/http/intern-ascii.js'

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))

test('internAscii :: the string of the bytes in range, the same string when the bytes come again', () => {
  const a = internAscii(enc('xxHost: 127.0.0.1:6391'), 8, 22)
  assert.is(a, '127.0.0.1:6391')
  const b = internAscii(enc('127.0.0.1:6391'), 0, 14)
  assert.is(b, a)
  assert.is(internAscii(enc('Host'), 0, 4), 'Host')
  assert.is(internAscii(enc('abc'), 1, 1), '')
})

// Strings that share length and sampled bytes land in the same slot: each is still its own.
test('internAscii :: strings that meet in one slot are each answered as they are', () => {
  const seen = new Map<string, string>()
  for (let i = 0; i < 4000; i++) {
    const s = `/a${String(i).padStart(6, '0')}z`
    assert.is(internAscii(enc(s), 0, s.length), s)
    seen.set(s, s)
  }
  for (const s of ['/a000001z', '/a001001z', '/a000001z', '/b000001z', '/a000001y']) assert.is(internAscii(enc(s), 0, s.length), s)
})

test('internAscii :: a run longer than the table keeps is decoded as it is', () => {
  const long = `/${'x'.repeat(300)}?q=${'y'.repeat(50)}`
  assert.is(internAscii(enc(long), 0, long.length), long)
  assert.is(internAscii(enc(`..${long}`), 2, long.length + 2), long)
})

test.run()
