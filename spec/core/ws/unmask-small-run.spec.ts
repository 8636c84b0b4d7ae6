import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { SMALL_NOT_ASCII } from '../../../lib/core/ws/unmask-small-frame.js'
import { isAsciiRange, isBinaryRunFrame, readSmallRun, runFrameSize, smallRunSize, unmaskSmallRun } from '../../../lib/core/ws/unmask-small-run.js'
import { hex, toHex } from './hex.js'

// A reader held to what readSmallRun promises its decoder: ASCII only, or it throws.
const strictAscii = (bytes: Uint8Array, from: number, to: number): string => {
  let text = ''
  for (let i = from; i < to; i++) {
    if (bytes[i]! > 0x7f) throw new Error(`byte ${i} is not ASCII`)
    text += String.fromCharCode(bytes[i]!)
  }
  return text
}

// The run at `at` of `bytes`: its size, the flag, and what was unmasked (the input checked unchanged).
const runOf = (bytes: Uint8Array, at = 0, maxLength = 125, limit = 4095): { size: number; high: number; out: string } => {
  const before = toHex(bytes)
  const size = smallRunSize(bytes, at, bytes.length, maxLength, limit)
  const out = new Uint8Array(size + 2).fill(0xee)
  const high = unmaskSmallRun(bytes, at, out, size)
  assert.is(toHex(bytes), before, 'the input is never changed')
  assert.equal(Array.from(out.subarray(size)), [0xee, 0xee], 'nothing written past the run')
  return { size, high, out: toHex(out.subarray(0, size)) }
}

// "a" and "bc", masked with 01 02 03 04; then a ping.
const A = '81 81 01 02 03 04 60'
const BC = '81 82 01 02 03 04 63 61'
const PING = '89 80 01 02 03 04'

test('unmaskSmallRun :: two masked texts, whole, with trailing bytes, and at an offset: one run of server frames', () => {
  const expected = { size: 7, high: 0, out: '81 01 61 81 02 62 63' }
  assert.equal(runOf(hex(`${A} ${BC}`)), expected)
  assert.equal(runOf(hex(`${A} ${BC} de ad`)), expected)
  assert.equal(runOf(hex(`00 00 00 ${A} ${BC}`), 3), expected)
})

test('unmaskSmallRun :: the run stops at a frame the small path does not take (a ping, a frame cut short, one past the limit)', () => {
  assert.equal(runOf(hex(`${A} ${PING} ${BC}`)), { size: 3, high: 0, out: '81 01 61' })
  assert.equal(runOf(hex(`${A} ${BC}`).subarray(0, 12)), { size: 3, high: 0, out: '81 01 61' })
  assert.equal(runOf(hex(`${A} ${BC}`), 0, 1), { size: 3, high: 0, out: '81 01 61' })
  assert.equal(runOf(hex(`${PING} ${A}`)), { size: 0, high: 0, out: '' })
})

test('unmaskSmallRun :: the run stops before the frame that would pass the size limit', () => {
  assert.equal(runOf(hex(`${A} ${BC}`), 0, 125, 6), { size: 3, high: 0, out: '81 01 61' })
  assert.equal(runOf(hex(`${A} ${BC}`), 0, 125, 7).size, 7)
  assert.equal(runOf(hex(`${A} ${BC}`), 0, 125, 2).size, 0)
})

test('unmaskSmallRun :: a payload byte past 0x7f anywhere in the run is flagged (binary 0xff after a text)', () => {
  assert.equal(runOf(hex(`${A} 82 81 00 00 00 00 ff`)), { size: 6, high: SMALL_NOT_ASCII, out: '81 01 61 82 01 ff' })
})

test('readSmallRun :: the run as one text, each payload at its offset, the reader given ASCII only, the bytes left as they were', () => {
  const out = hex('81 01 61 81 02 62 63 82 00 81 03 78 79 7a')
  const text = readSmallRun(out, out.length, strictAscii)
  assert.is(text.length, out.length)
  assert.is(text.substring(2, 3), 'a')
  assert.is(text.substring(5, 7), 'bc')
  assert.is(text.substring(11, 14), 'xyz')
  assert.is(toHex(out), '81 01 61 81 02 62 63 82 00 81 03 78 79 7a')
})

test('isAsciiRange :: true without a byte past 0x7f in the range, false with one', () => {
  const bytes = hex('68 69 c3 a9 7f')
  assert.ok(isAsciiRange(bytes, 0, 2))
  assert.ok(isAsciiRange(bytes, 4, 5))
  assert.ok(isAsciiRange(bytes, 2, 2))
  assert.not.ok(isAsciiRange(bytes, 1, 3))
  assert.not.ok(isAsciiRange(bytes, 0, 5))
})

test('runFrameSize, isBinaryRunFrame :: a run frame read where it lies', () => {
  const out = hex('81 01 61 82 02 62 63')
  assert.is(runFrameSize(out, 0), 3)
  assert.is(runFrameSize(out, 3), 4)
  assert.is(isBinaryRunFrame(out, 0), false)
  assert.is(isBinaryRunFrame(out, 3), true)
})

test.run()
