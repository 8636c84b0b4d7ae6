import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeFrame } from '../../../lib/core/ws/decode-frame.js'
import { encodeFrame, encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { type Frame, type FrameLimits, OPCODE } from '../../../lib/core/ws/frame.js'
import { maskBytes } from '../../../lib/core/ws/mask.js'
import { feedChunks } from '../../support/feed.js'
import { concatBytes } from './hex.js'

const LIMITS: FrameLimits = { maxPayload: 1 << 20, requireMask: false, allowRsv1: true }

// Payloads: mostly short, sometimes past the 16-bit and 64-bit length boundaries.
const payloadArb = fc.oneof(
  { weight: 8, arbitrary: fc.uint8Array({ maxLength: 140 }) },
  { weight: 2, arbitrary: fc.uint8Array({ minLength: 120, maxLength: 1000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 65530, max: 66000 }).map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 31) & 0xff)) },
)

const dataFrameArb: fc.Arbitrary<Frame> = fc.record({
  fin: fc.boolean(),
  rsv1: fc.boolean(),
  rsv2: fc.constant(false),
  rsv3: fc.constant(false),
  opcode: fc.constantFrom(OPCODE.CONTINUATION, OPCODE.TEXT, OPCODE.BINARY),
  payload: payloadArb,
  // RFC 7692 §6.1: RSV1 only on the first frame of a message, never on a continuation.
}).map((f) => ({ ...f, rsv1: f.rsv1 && f.opcode !== OPCODE.CONTINUATION })) // a plain object: fast-check's records have no prototype

const controlFrameArb: fc.Arbitrary<Frame> = fc.record({
  fin: fc.constant(true),
  rsv1: fc.constant(false),
  rsv2: fc.constant(false),
  rsv3: fc.constant(false),
  opcode: fc.constantFrom(OPCODE.CLOSE, OPCODE.PING, OPCODE.PONG),
  payload: fc.uint8Array({ maxLength: 125 }),
}).map((f) => ({ ...f }))

const frameArb = fc.oneof({ weight: 3, arbitrary: dataFrameArb }, { weight: 1, arbitrary: controlFrameArb })
const keyArb = fc.option(fc.uint8Array({ minLength: 4, maxLength: 4 }), { nil: undefined })

const decodeAll = (bytes: Uint8Array) => decodeFrame(bytes, LIMITS)

test('decodeFrame ∘ encodeFrame :: gives the frame back with no rest, masked or not', () => {
  fc.assert(
    fc.property(frameArb, keyArb, (frame, key) => {
      const bytes = encodeFrameBytes(frame, key)
      assert.equal(decodeFrame(bytes, LIMITS), E.right({ _tag: 'Parsed', value: frame, rest: new Uint8Array(0) }))
      const [header, payload] = encodeFrame(frame, key)
      assert.equal(concatBytes(header, payload), bytes)
    }),
    { numRuns: 300 },
  )
})

test('decodeFrame :: any split of a stream of frames decodes to the same frames', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(frameArb, keyArb), { minLength: 1, maxLength: 6 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      (pairs, cuts) => {
        const stream = concatBytes(...pairs.map(([f, k]) => encodeFrameBytes(f, k)))
        const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b)
        const chunks = [0, ...points].map((from, i) => stream.subarray(from, [...points, stream.length][i]))
        assert.equal(feedChunks(decodeAll, chunks), { values: pairs.map(([f]) => f), error: undefined, leftover: 0 })
      },
    ),
    { numRuns: 200 },
  )
})

test('decodeFrame :: random bytes never throw, whatever the limits', () => {
  const limitsArb = fc.record({ maxPayload: fc.nat({ max: 70000 }), requireMask: fc.boolean(), allowRsv1: fc.boolean() })
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), limitsArb, (bytes, limits) => {
      const step = decodeFrame(bytes, limits)
      assert.ok(E.isLeft(step) || step.right._tag === 'NeedMore' || step.right._tag === 'Parsed')
      // Fed byte by byte, as the shell would, it must not throw either.
      feedChunks((b) => decodeFrame(b, limits), Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)))
    }),
    { numRuns: 500 },
  )
})

test('maskBytes :: masking twice with the same key is the identity', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2000 }), fc.uint8Array({ minLength: 4, maxLength: 4 }), fc.nat({ max: 3 }), (bytes, key, offset) => {
      // Also from an unaligned view, to reach every alignment of the word-wise path.
      const shifted = new Uint8Array(bytes.length + offset)
      shifted.set(bytes, offset)
      const view = shifted.subarray(offset)
      assert.equal(maskBytes(maskBytes(view, key), key), bytes)
    }),
    { numRuns: 300 },
  )
})

test.run()
