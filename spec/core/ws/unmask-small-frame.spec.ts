import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { NOT_SMALL, SMALL_NOT_ASCII, smallFrameLength, unmaskSmallFrame } from '../../../lib/core/ws/unmask-small-frame.js'
import { hex, toHex } from './hex.js'

// Runs the fast path on `bytes` at `at`, into a fresh array; gives the answer and what it wrote.
const run = (bytes: Uint8Array, at = 0, maxLength = 1 << 20): { answer: number; out: string } => {
  const before = toHex(bytes)
  const out = new Uint8Array(200)
  const answer = unmaskSmallFrame(bytes, at, bytes.length, maxLength, out, 3)
  assert.is(toHex(bytes), before, 'the input is never changed')
  assert.is(smallFrameLength(bytes, at, bytes.length, maxLength), answer < 0 ? NOT_SMALL : answer & 0xff, 'smallFrameLength agrees')
  return { answer, out: answer < 0 ? '' : toHex(out.subarray(3, 3 + 2 + (answer & 0xff))) }
}

// Whole, with trailing bytes, and cut short at every length: the same frame or NOT_SMALL.
const takes = (frame: string, answer: number, out: string): void => {
  const bytes = hex(frame)
  assert.equal(run(bytes), { answer, out })
  const trailed = new Uint8Array(bytes.length + 4)
  trailed.set(bytes)
  trailed.set([0xde, 0xad, 0xbe, 0xef], bytes.length)
  assert.equal(run(trailed), { answer, out }, 'trailing bytes are left alone')
  const shifted = new Uint8Array(bytes.length + 2)
  shifted.set(bytes, 2)
  assert.equal(run(shifted, 2), { answer, out }, 'read at an offset')
  for (let n = 0; n < bytes.length; n++) assert.is(run(bytes.subarray(0, n)).answer, NOT_SMALL, `cut to ${n} bytes`)
}

const refuses = (frame: string, maxLength = 1 << 20): void => {
  assert.is(run(hex(frame), 0, maxLength).answer, NOT_SMALL)
}

test('unmaskSmallFrame :: RFC 6455 §5.7 single-frame masked text "Hello", as the unmasked server frame', () => {
  takes('81 85 37 fa 21 3d 7f 9f 4d 51 58', 5, '81 05 48 65 6c 6c 6f')
})

test('unmaskSmallFrame :: a masked binary frame, and an empty text frame', () => {
  takes('82 83 01 02 03 04 01 02 03', 3, '82 03 00 00 00')
  takes('81 80 01 02 03 04', 0, '81 00')
})

test('unmaskSmallFrame :: a payload byte past 0x7f is flagged (UTF-8 "é", and 0xff)', () => {
  // "é" is c3 a9, masked with 01 02 03 04.
  takes('81 82 01 02 03 04 c2 ab', 2 | SMALL_NOT_ASCII, '81 02 c3 a9')
  takes('82 81 00 00 00 00 ff', 1 | SMALL_NOT_ASCII, '82 01 ff')
})

test('unmaskSmallFrame :: 125 bytes is the largest payload it takes (the 7-bit length)', () => {
  const masked = `81 fd 00 00 00 00 ${'41 '.repeat(125)}`
  takes(masked, 125, `81 7d ${'41 '.repeat(125).trim()}`)
  refuses(`81 fe 00 7e 00 00 00 00 ${'41 '.repeat(126)}`)
})

test('unmaskSmallFrame :: leaves to the general decoder what is not a whole, final, masked data frame', () => {
  refuses('81 05 48 65 6c 6c 6f') // unmasked
  refuses('01 81 00 00 00 00 41') // not final
  refuses('80 81 00 00 00 00 41') // continuation
  refuses('89 81 00 00 00 00 41') // ping
  refuses('88 82 00 00 00 00 03 e8') // close
  refuses('8a 80 00 00 00 00') // pong
  refuses('c1 81 00 00 00 00 41') // RSV1 (compressed)
  refuses('a1 81 00 00 00 00 41') // RSV2
  refuses('91 81 00 00 00 00 41') // RSV3
  refuses('83 81 00 00 00 00 41') // reserved opcode
})

test('unmaskSmallFrame :: a payload past maxLength is left to the general decoder (its 1009)', () => {
  refuses('81 85 37 fa 21 3d 7f 9f 4d 51 58', 4)
  assert.is(run(hex('81 85 37 fa 21 3d 7f 9f 4d 51 58'), 0, 5).answer, 5)
})

test('unmaskSmallFrame :: a run of frames from one buffer, each at its offset', () => {
  const bytes = hex('81 85 37 fa 21 3d 7f 9f 4d 51 58  82 81 00 00 00 00 07  89 80 00 00 00 00')
  const out = new Uint8Array(16)
  assert.is(unmaskSmallFrame(bytes, 0, bytes.length, 100, out, 0), 5)
  assert.is(unmaskSmallFrame(bytes, 11, bytes.length, 100, out, 7), 1)
  assert.is(unmaskSmallFrame(bytes, 18, bytes.length, 100, out, 10), NOT_SMALL)
  assert.is(toHex(out.subarray(0, 10)), '81 05 48 65 6c 6c 6f 82 01 07')
})

test.run()
