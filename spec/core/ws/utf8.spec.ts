import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeUtf8, decodeUtf8Fragment, incompleteTailStart, isValidPrefix, sequenceLength } from '../../../lib/core/ws/utf8.js'
import { hex } from './hex.js'

const EMPTY = new Uint8Array(0)

test('decodeUtf8 :: valid text, including a leading BOM kept as U+FEFF', () => {
  assert.is(decodeUtf8(hex('68 c3 a9 e2 82 ac f0 9f 98 80')), 'hé€😀')
  assert.is(decodeUtf8(hex('ef bb bf 61')), '\ufeffa')
  assert.is(decodeUtf8(EMPTY), '')
})

test('decodeUtf8 :: undefined for every kind of invalid input', () => {
  const bad = [
    'c3 28', // bad continuation
    'c0 af', // overlong
    'e0 80 af', // overlong 3-byte
    'ed a0 80', // surrogate
    'f4 90 80 80', // past U+10FFFF
    'f5 80 80 80', // lead byte past f4
    'ff', // never valid
    '80', // lone continuation
    'e2 82', // cut short
  ]
  for (const h of bad) assert.is(decodeUtf8(hex(h)), undefined, h)
})

test('sequenceLength :: by lead byte', () => {
  assert.equal([0x41, 0x80, 0xc1, 0xc2, 0xe0, 0xef, 0xf0, 0xf4, 0xf5, 0xff].map(sequenceLength), [1, 0, 0, 2, 3, 3, 4, 4, 0, 0])
})

test('incompleteTailStart :: finds a code point cut at the end', () => {
  assert.is(incompleteTailStart(hex('61 62')), 2)
  assert.is(incompleteTailStart(hex('61 e2 82')), 1)
  assert.is(incompleteTailStart(hex('61 e2 82 ac')), 4)
  assert.is(incompleteTailStart(hex('f0 9f 98')), 0)
  assert.is(incompleteTailStart(hex('f0 9f 98 80')), 4)
  assert.is(incompleteTailStart(hex('80 80 80')), 3, 'stray continuations are left to the decoder')
  assert.is(incompleteTailStart(hex('61 ff')), 2, 'an impossible byte is left to the decoder')
  assert.is(incompleteTailStart(EMPTY), 0)
})

test('isValidPrefix :: the narrow second-byte ranges of RFC 3629 §4', () => {
  const ok = ['c2', 'e0 a0', 'e1 80', 'ed 9f', 'f0 90', 'f4 8f', 'f0 90 80', 'e2 82']
  const bad = ['41', 'c1', 'e0 9f', 'ed a0', 'f0 8f', 'f4 90', 'f5', 'e2 41', 'f0 90 41']
  for (const h of ok) assert.ok(isValidPrefix(hex(h)), h)
  for (const h of bad) assert.not.ok(isValidPrefix(hex(h)), h)
})

test('decodeUtf8Fragment :: a code point split across fragments at every byte', () => {
  const text = 'a€😀b'
  const bytes = new TextEncoder().encode(text)
  for (let cut = 0; cut <= bytes.length; cut++) {
    const first = decodeUtf8Fragment(EMPTY, bytes.subarray(0, cut))
    if (first === undefined) throw new Error(`rejected at ${cut}`)
    const second = decodeUtf8Fragment(first.pending, bytes.subarray(cut))
    assert.equal(second && first.text + second.text, text, `cut at ${cut}`)
    assert.equal(second?.pending, EMPTY)
  }
})

test('decodeUtf8Fragment :: a code point spread over three fragments', () => {
  const a = decodeUtf8Fragment(EMPTY, hex('f0'))
  const b = a && decodeUtf8Fragment(a.pending, hex('9f'))
  const c = b && decodeUtf8Fragment(b.pending, hex('98'))
  const d = c && decodeUtf8Fragment(c.pending, hex('80 21'))
  assert.equal([a?.text, b?.text, c?.text, d?.text], ['', '', '', '😀!'])
  assert.equal(c?.pending, hex('f0 9f 98'))
})

test('decodeUtf8Fragment :: fails on the fragment that brings the first bad byte', () => {
  assert.is(decodeUtf8Fragment(EMPTY, hex('61 ed a0')), undefined, 'a surrogate is known from two bytes')
  assert.is(decodeUtf8Fragment(EMPTY, hex('61 f4 90')), undefined, 'past U+10FFFF from two bytes')
  const open = decodeUtf8Fragment(EMPTY, hex('61 e2'))
  assert.equal(open, { text: 'a', pending: hex('e2') })
  assert.is(decodeUtf8Fragment(hex('e2'), hex('41')), undefined, 'not a continuation')
  assert.is(decodeUtf8Fragment(hex('e0'), hex('80')), undefined, 'an overlong start, still incomplete')
  assert.is(decodeUtf8Fragment(hex('e2'), hex('82 ac ff')), undefined, 'bad byte after the completed code point')
})

test('decodeUtf8Fragment :: keeps no view of the fragment for the pending bytes', () => {
  const fragment = hex('61 e2 82')
  const out = decodeUtf8Fragment(EMPTY, fragment)
  assert.is.not(out?.pending.buffer, fragment.buffer)
})

test.run()
