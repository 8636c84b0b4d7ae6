/**
 * fast-check generators of client frame streams for the specs that compare the small-frame
 * path with the general decoder: mostly small masked text and binary frames (ASCII, UTF-8 of
 * every width, bytes that are not UTF-8), and among them fragments, longer frames, control
 * frames, unmasked frames, RSV bits, reserved opcodes and bad close payloads; and ways to cut
 * the stream into chunks. Test-only; portable (no node:*).
 */
import fc from 'fast-check'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { concatBytes } from './bytes.js'

/** One frame as the generator describes it, before encoding. */
export interface StreamFrame {
  readonly fin: boolean
  readonly rsv1: boolean
  readonly rsv2: boolean
  readonly opcode: number
  readonly payload: Uint8Array
  readonly key: Uint8Array | undefined
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** Payloads: ASCII, any UTF-8, any bytes; mostly short, sometimes past the 125-byte path. */
export const payloadArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 40 }).map(utf8) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(utf8) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 120, maxLength: 300 }).map(utf8) },
)

const keyArb = fc.uint8Array({ minLength: 4, maxLength: 4 })

/** The frame a client sends most: whole, final, masked text or binary. */
const smallArb: fc.Arbitrary<StreamFrame> = fc.record({
  fin: fc.constant(true),
  rsv1: fc.constant(false),
  rsv2: fc.constant(false),
  opcode: fc.constantFrom(0x1, 0x1, 0x1, 0x2),
  payload: payloadArb,
  key: keyArb,
})

/** Anything else: any opcode (reserved ones too), fragments, RSV bits, unmasked. */
const otherArb: fc.Arbitrary<StreamFrame> = fc.record({
  fin: fc.boolean(),
  rsv1: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  rsv2: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  opcode: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(0x0, 0x1, 0x2, 0x8, 0x9, 0xa) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 15 }) }),
  payload: payloadArb,
  key: fc.oneof({ weight: 9, arbitrary: keyArb }, { weight: 1, arbitrary: fc.constant(undefined) }),
})

/** A close frame with a code (valid or not) and a reason. */
const closeArb: fc.Arbitrary<StreamFrame> = fc
  .record({ code: fc.constantFrom(1000, 1001, 1005, 1006, 1016, 2999, 3000, 4999, 999), reason: fc.string({ maxLength: 10 }), key: keyArb })
  .map(({ code, reason, key }) => ({ fin: true, rsv1: false, rsv2: false, opcode: 0x8, payload: concatBytes(Uint8Array.of(code >> 8, code & 0xff), utf8(reason)), key }))

/** A frame of a stream: mostly small ones. */
export const frameArb: fc.Arbitrary<StreamFrame> = fc.oneof(
  { weight: 12, arbitrary: smallArb },
  { weight: 3, arbitrary: otherArb },
  { weight: 1, arbitrary: closeArb },
)

/** A fragmented text or binary message, its fragments in order. */
export const fragmentedArb: fc.Arbitrary<StreamFrame[]> = fc
  .record({ opcode: fc.constantFrom(0x1, 0x2), payload: payloadArb, cuts: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), key: keyArb })
  .map(({ opcode, payload, cuts, key }) => {
    const points = [...new Set(cuts.map((c) => c % (payload.length + 1)))].sort((a, b) => a - b)
    const bounds = [0, ...points, payload.length]
    return bounds.slice(1).map((end, i) => ({ fin: i === bounds.length - 2, rsv1: false, rsv2: false, opcode: i === 0 ? opcode : 0x0, payload: payload.subarray(bounds[i], end), key }))
  })

/** A stream of frames, fragmented messages among them. */
export const streamArb: fc.Arbitrary<StreamFrame[]> = fc
  .array(fc.oneof({ weight: 6, arbitrary: frameArb.map((f) => [f]) }, { weight: 1, arbitrary: fragmentedArb }), { maxLength: 14 })
  .map((groups) => groups.flat())

/** The frame's bytes (RFC 6455 §5.2), whatever its bits say. */
export const encodeStreamFrame = (f: StreamFrame): Uint8Array =>
  encodeFrameBytes({ fin: f.fin, rsv1: f.rsv1, rsv2: f.rsv2, opcode: f.opcode, payload: f.payload }, f.key)

/** The whole stream's bytes. */
export const encodeStream = (frames: readonly StreamFrame[]): Uint8Array => concatBytes(...frames.map(encodeStreamFrame))

/** Cuts `bytes` at the given points (taken modulo its length), in order. */
export const cutInto = (bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] => {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const bounds = [0, ...points, bytes.length]
  return bounds.slice(1).map((end, i) => bytes.slice(bounds[i], end)).filter((c) => c.length > 0)
}
