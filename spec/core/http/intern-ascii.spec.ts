import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { createInternTables, internAscii } from '../../../lib/core/http/intern-ascii.js'
import { createWordViews } from '../../../lib/core/http/word-view.js'

// One server's tables, for every test here (as a server keeps them).
const tables = createInternTables(createWordViews())

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))

test('internAscii :: the string of the bytes in range, the same string when the bytes come again', () => {
  const a = internAscii(tables, enc('xxHost: 127.0.0.1:6391'), 8, 22)
  assert.is(a, '127.0.0.1:6391')
  const b = internAscii(tables, enc('127.0.0.1:6391'), 0, 14)
  assert.is(b, a)
  assert.is(internAscii(tables, enc('Host'), 0, 4), 'Host')
  assert.is(internAscii(tables, enc('abc'), 1, 1), '')
})

// Strings that share length and sampled bytes land in the same slot: each is still its own.
test('internAscii :: strings that meet in one slot are each answered as they are', () => {
  const seen = new Map<string, string>()
  for (let i = 0; i < 4000; i++) {
    const s = `/a${String(i).padStart(6, '0')}z`
    assert.is(internAscii(tables, enc(s), 0, s.length), s)
    seen.set(s, s)
  }
  for (const s of ['/a000001z', '/a001001z', '/a000001z', '/b000001z', '/a000001y']) assert.is(internAscii(tables, enc(s), 0, s.length), s)
})

test('internAscii :: a run longer than the table keeps is decoded as it is', () => {
  const long = `/${'x'.repeat(300)}?q=${'y'.repeat(50)}`
  assert.is(internAscii(tables, enc(long), 0, long.length), long)
  assert.is(internAscii(tables, enc(`..${long}`), 2, long.length + 2), long)
})

// Sec-Fetch-Site and Sec-Fetch-Mode share their length and most sampled bytes: before the
// two-slot sets and the three-quarter sample they took turns in one slot, each decoded anew.
test('internAscii :: names of one family, asked for in turn, are each the same string again', () => {
  const names = ['Sec-Fetch-Site', 'Sec-Fetch-Mode', 'Sec-Fetch-Dest', 'Sec-Fetch-User', 'sec-ch-ua-mobile', 'sec-ch-ua-platform']
  const first = names.map((n) => internAscii(tables, enc(n), 0, n.length))
  for (let round = 0; round < 3; round++) {
    names.forEach((n, i) => assert.ok(internAscii(tables, enc(`..${n}`), 2, n.length + 2) === first[i], n))
  }
})

test('internAscii :: runs of 97 to 512 bytes (a User-Agent) are kept too; longer ones decoded each time', () => {
  for (const n of [97, 101, 300, 511, 512]) {
    const s = `Mozilla/5.0 ${'x'.repeat(n - 12)}`
    const a = internAscii(tables, enc(s), 0, n)
    assert.is(a, s)
    assert.is(internAscii(tables, enc(`abc${s}`), 3, n + 3), a)
  }
  const s = 'y'.repeat(513)
  assert.is(internAscii(tables, enc(s), 0, 513), s)
})

// Compared a word at a time: any length, any offset, any alignment of the array in its buffer.
test('internAscii :: the string of the bytes for any run at any offset and alignment (random)', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[ -~]{0,8}$/), fc.stringMatching(/^[ -~]{0,40}$/), fc.integer({ min: 0, max: 3 }), fc.boolean(), (pad, run, shift, flip) => {
      const raw = enc(`${pad}${run}`)
      const buffer = new Uint8Array(raw.length + 4)
      buffer.set(raw, shift)
      const bytes = buffer.subarray(shift, shift + raw.length)
      assert.is(internAscii(tables, bytes, pad.length, raw.length), run)
      // The same length and samples, one byte apart: its own string.
      if (flip && run.length > 0) {
        const other = Uint8Array.from(bytes)
        const i = run.length >> 1
        other[pad.length + i] = (other[pad.length + i] as number) === 0x61 ? 0x62 : 0x61
        assert.is(internAscii(tables, other, pad.length, raw.length), run.slice(0, i) + String.fromCharCode(other[pad.length + i] as number) + run.slice(i + 1))
        assert.is(internAscii(tables, bytes, pad.length, raw.length), run)
      }
    }),
    { numRuns: 2000 },
  )
})

test.run()
