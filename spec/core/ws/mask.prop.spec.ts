import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createMasker, maskBytes as maskBytesWith } from '../../../lib/core/ws/mask.js'
import { maskCopyJs, maskInPlaceJs } from '../../../lib/core/ws/mask-js.js'
import { SIMD_CHUNK, simdMaskCopy as simdMaskCopyWith, simdMaskInto as simdMaskIntoWith } from '../../../lib/core/ws/mask-simd.js'

// A server's masker (SIMD where the runtime has it), and its SIMD module: what "dispatch" and
// "SIMD" below go through.
const masker = createMasker()
const maskBytes = (bytes: Uint8Array, key: Uint8Array): Uint8Array => maskBytesWith(bytes, key, masker)
const { maskCopy, maskInPlace } = masker
const simdMaskCopy = (source: Uint8Array, start: number, end: number, word: number, headroom?: number): Uint8Array | undefined =>
  simdMaskCopyWith(masker.simd(), source, start, end, word, headroom)
const simdMaskInto = (source: Uint8Array, start: number, end: number, word: number, target: Uint8Array, at: number): boolean =>
  simdMaskIntoWith(masker.simd(), source, start, end, word, target, at)

// The definition (RFC 6455 §5.3), byte by byte.
const reference = (bytes: Uint8Array, key: Uint8Array, keyAt = 0): Uint8Array => bytes.map((b, i) => b ^ key[keyAt + (i & 3)]!)

const wordOf = (key: Uint8Array, keyAt: number): number =>
  key[keyAt]! | (key[keyAt + 1]! << 8) | (key[keyAt + 2]! << 16) | (key[keyAt + 3]! << 24)

// Lengths: mostly short, some around the SIMD loop's 64 bytes, some spanning several chunks.
const lengthArb = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 300 }) },
  { weight: 2, arbitrary: fc.integer({ min: 300, max: 5000 }) },
  { weight: 1, arbitrary: fc.integer({ min: SIMD_CHUNK - 70, max: 2 * SIMD_CHUNK + 70 }) },
)

// A payload inside a larger array: `before` bytes in front of it (so every alignment of the
// underlying buffer occurs), the key somewhere in the same array or in its own.
const caseArb = fc.record({
  length: lengthArb,
  before: fc.nat({ max: 19 }),
  after: fc.nat({ max: 9 }),
  seed: fc.nat({ max: 255 }),
  key: fc.uint8Array({ minLength: 4, maxLength: 4 }),
  keyInSource: fc.boolean(),
  headroom: fc.nat({ max: 20 }),
})

interface Case {
  readonly source: Uint8Array
  readonly start: number
  readonly end: number
  readonly key: Uint8Array
  readonly keyAt: number
  readonly headroom: number
}

type Raw = typeof caseArb extends fc.Arbitrary<infer T> ? T : never

const build = (c: Raw): Case => {
  // The key goes just before the payload when it lives in the source, as in a frame header.
  const keyRoom = c.keyInSource ? 4 : 0
  const start = c.before + keyRoom
  const source = Uint8Array.from({ length: start + c.length + c.after }, (_, i) => (i * 151 + c.seed) & 0xff)
  if (c.keyInSource) source.set(c.key, c.before)
  return c.keyInSource
    ? { source, start, end: start + c.length, key: source, keyAt: c.before, headroom: c.headroom }
    : { source, start, end: start + c.length, key: c.key, keyAt: 0, headroom: c.headroom }
}

const expectedOf = ({ source, start, end, key, keyAt, headroom }: Case): Uint8Array => {
  const out = new Uint8Array(headroom + end - start)
  out.set(reference(source.subarray(start, end), key, keyAt), headroom)
  return out
}

test('maskCopy :: SIMD, JavaScript and the definition agree; the source is never modified', () => {
  fc.assert(
    fc.property(caseArb, (raw) => {
      const c = build(raw)
      const before = c.source.slice()
      const expected = expectedOf(c)
      const simd = simdMaskCopy(c.source, c.start, c.end, wordOf(c.key, c.keyAt), c.headroom)
      assert.ok(simd !== undefined)
      assert.equal(simd, expected, 'SIMD')
      assert.equal(maskCopyJs(c.source, c.start, c.end, c.key, c.keyAt, c.headroom), expected, 'JavaScript')
      assert.equal(maskCopy(c.source, c.start, c.end, c.key, c.keyAt, c.headroom), expected, 'dispatch')
      assert.equal(c.source, before, 'source untouched')
      assert.is(simd.buffer.byteLength, expected.length, 'the result owns a buffer exactly its size')
    }),
    { numRuns: 300 },
  )
})

test('maskInPlace :: SIMD, JavaScript and the definition agree; bytes outside the range stay', () => {
  fc.assert(
    fc.property(caseArb, (raw) => {
      const c = build({ ...raw, keyInSource: false })
      const expected = c.source.slice()
      expected.set(reference(c.source.subarray(c.start, c.end), c.key, c.keyAt), c.start)
      const viaSimd = c.source.slice()
      assert.ok(simdMaskInto(viaSimd, c.start, c.end, wordOf(c.key, c.keyAt), viaSimd, c.start))
      assert.equal(viaSimd, expected, 'SIMD')
      const viaJs = c.source.slice()
      maskInPlaceJs(viaJs, c.start, c.end, c.key, c.keyAt)
      assert.equal(viaJs, expected, 'JavaScript')
      const viaDispatch = c.source.slice()
      maskInPlace(viaDispatch, c.start, c.end, c.key, c.keyAt)
      assert.equal(viaDispatch, expected, 'dispatch')
    }),
    { numRuns: 300 },
  )
})

test('maskBytes :: masking twice with the same key is the identity', () => {
  fc.assert(
    fc.property(lengthArb, fc.uint8Array({ minLength: 4, maxLength: 4 }), fc.nat({ max: 255 }), (length, key, seed) => {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 7 + seed) & 0xff)
      assert.equal(maskBytes(maskBytes(bytes, key), key), bytes)
    }),
    { numRuns: 200 },
  )
})

test.run()
