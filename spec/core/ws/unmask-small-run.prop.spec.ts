import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { NOT_SMALL, SMALL_NOT_ASCII, unmaskSmallFrame } from '../../../lib/core/ws/unmask-small-frame.js'
import { isAsciiRange, readSmallRun, smallRunSize, unmaskSmallRun } from '../../../lib/core/ws/unmask-small-run.js'
import { encodeStream, frameArb, type StreamFrame, streamArb } from '../../support/ws-stream.js'
import { toHex } from './hex.js'

// Small masked text and binary frames, ASCII or not, among any others.
const smallArb: fc.Arbitrary<StreamFrame> = fc
  .record({ opcode: fc.constantFrom(1, 2), payload: fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 125 }).map((b) => b.map((x) => x & 0x7f))), key: fc.uint8Array({ minLength: 4, maxLength: 4 }) })
  .map(({ opcode, payload, key }) => ({ fin: true, rsv1: false, rsv2: false, opcode, payload, key }))
const runStreamArb = fc
  .array(fc.oneof({ weight: 4, arbitrary: smallArb.map((f) => [f]) }, { weight: 1, arbitrary: streamArb }, { weight: 1, arbitrary: frameArb.map((f) => [f]) }), { maxLength: 12 })
  .map((groups) => groups.flat())

// The frames unmaskSmallFrame takes one by one from `at`, while they fit in `limit`: the
// server frames back to back, whether a payload had a byte past 0x7f, and the bytes consumed.
const oneByOne = (bytes: Uint8Array, at: number, maxLength: number, limit: number): { out: string; high: number; consumed: number } => {
  const scratch = new Uint8Array(limit + 127)
  let outAt = 0
  let high = 0
  let from = at
  for (;;) {
    const answer = unmaskSmallFrame(bytes, from, bytes.length, maxLength, scratch, outAt)
    if (answer === NOT_SMALL || outAt + 2 + (answer & 0xff) > limit) break
    high |= answer & SMALL_NOT_ASCII
    outAt += 2 + (answer & 0xff)
    from += 6 + (answer & 0xff)
  }
  return { out: toHex(scratch.subarray(0, outAt)), high, consumed: from - at }
}

test('unmaskSmallRun :: any stream, at any offset and limits: the run unmaskSmallFrame gives frame by frame', () => {
  fc.assert(
    fc.property(runStreamArb, fc.nat({ max: 20 }), fc.constantFrom(0, 8, 40, 125, 1 << 20), fc.constantFrom(127, 200, 4095), (frames, skip, maxLength, limit) => {
      const bytes = encodeStream(frames)
      const at = Math.min(skip, bytes.length)
      const size = smallRunSize(bytes, at, bytes.length, maxLength, limit)
      const out = new Uint8Array(size)
      const high = unmaskSmallRun(bytes, at, out, size)
      const expected = oneByOne(bytes, at, maxLength, limit)
      assert.is(toHex(out), expected.out)
      assert.is(high, expected.high)
      // The run consumes its frames plus a 4-byte key each.
      let frameCount = 0
      for (let o = 0; o < size; o += 2 + out[o + 1]!) frameCount += 1
      assert.is(size + 4 * frameCount, expected.consumed)
    }),
    { numRuns: 1500 },
  )
})

test('readSmallRun :: an ASCII run read at once gives every payload as the per-message reader gives it, and leaves the run unchanged', () => {
  const decoder = new TextDecoder()
  fc.assert(
    fc.property(runStreamArb, (frames) => {
      const bytes = encodeStream(frames)
      const size = smallRunSize(bytes, 0, bytes.length, 125, 4095)
      const out = new Uint8Array(size)
      if (unmaskSmallRun(bytes, 0, out, size) !== 0) return
      const before = toHex(out)
      const seen: number[] = []
      const text = readSmallRun(out, size, (b, from, to) => {
        for (let i = from; i < to; i++) seen.push(b[i]!)
        return decoder.decode(b.subarray(from, to))
      })
      assert.ok(seen.every((b) => b < 0x80), 'the reader is given ASCII only')
      assert.is(toHex(out), before)
      for (let o = 0; o < size; o += 2 + out[o + 1]!) {
        const from = o + 2
        const to = from + out[o + 1]!
        assert.ok(isAsciiRange(out, from, to))
        assert.is(text.substring(from, to), decoder.decode(out.subarray(from, to)))
      }
    }),
    { numRuns: 1000 },
  )
})

test.run()
