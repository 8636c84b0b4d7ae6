import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { ClusterMessage, Sequence } from '../../../lib/core/cluster/cluster-message.js'
import { decodeClusterMessage } from '../../../lib/core/cluster/decode-cluster-message.js'
import { encodeClusterMessage } from '../../../lib/core/cluster/encode-cluster-message.js'
import { withSequence } from '../../../lib/core/cluster/with-sequence.js'
import { encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../../lib/core/ws/frame.js'

// Names of any code points (no lone surrogates: those are not UTF-8), within their byte limits.
const nameArb = (min: number) => fc.string({ unit: 'binary', minLength: min, maxLength: 60 })
const seqArb: fc.Arbitrary<Sequence> = fc.oneof(
  fc.constant({ epoch: 0, n: 0 }),
  fc.record({ epoch: fc.integer({ min: 0, max: 2 ** 45 }), n: fc.integer({ min: 1, max: 2 ** 40 }) }),
  fc.record({ epoch: fc.constant(Number.MAX_SAFE_INTEGER), n: fc.constant(Number.MAX_SAFE_INTEGER) }),
).map((s) => ({ ...s }))
const payloadArb = fc.oneof(
  { weight: 6, arbitrary: fc.uint8Array({ maxLength: 140 }) },
  { weight: 1, arbitrary: fc.integer({ min: 65530, max: 66000 }).map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 7) & 0xff)) },
)
const frameArb = fc
  .tuple(fc.constantFrom(OPCODE.TEXT, OPCODE.BINARY), payloadArb)
  .map(([opcode, payload]) => encodeFrameBytes({ opcode, payload, fin: true }))
const opt = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: undefined })

const strip = <A extends object>(m: A): A => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) as A

const messageArb: fc.Arbitrary<ClusterMessage> = fc.oneof(
  fc
    .record({ origin: nameArb(1), seq: seqArb, namespace: opt(nameArb(0)), room: opt(nameArb(0)), envelope: opt(fc.constant(true as const)), frame: frameArb })
    .map((m) => strip({ _tag: 'Broadcast' as const, ...m })),
  fc
    .record({ origin: nameArb(1), seq: seqArb, node: nameArb(1), clientId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), envelope: opt(fc.constant(true as const)), frame: frameArb })
    .map((m) => strip({ _tag: 'Direct' as const, ...m })),
  fc
    .record({ origin: nameArb(1), seq: seqArb, requestId: fc.integer({ min: 0, max: 0xffff_ffff }), node: nameArb(0), body: fc.json() })
    .map((m) => ({ _tag: 'Request' as const, ...m })),
  fc
    .record({ origin: nameArb(1), seq: seqArb, requestId: fc.integer({ min: 0, max: 0xffff_ffff }), node: nameArb(1), body: fc.json() })
    .map((m) => ({ _tag: 'Reply' as const, ...m })),
)

const encode = (m: ClusterMessage): Uint8Array => {
  const encoded = encodeClusterMessage(m)
  if (E.isLeft(encoded)) throw new Error(`${encoded.left.reason} for ${JSON.stringify(m).slice(0, 200)}`)
  return encoded.right
}

test('decodeClusterMessage ∘ encodeClusterMessage :: gives the message back', () => {
  fc.assert(
    fc.property(messageArb, (m) => {
      assert.equal(decodeClusterMessage(encode(m)), E.right(m))
    }),
    { numRuns: 300 },
  )
})

test('withSequence :: any place given to any message decodes with that place and the same body', () => {
  fc.assert(
    fc.property(messageArb, seqArb, (m, seq) => {
      assert.equal(decodeClusterMessage(withSequence(encode(m), seq)), E.right({ ...m, seq }))
    }),
    { numRuns: 200 },
  )
})

test('decodeClusterMessage :: random bytes never throw, and are never a message', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, ours) => {
      // Half of them start like ours, so the checks past the magic bytes are reached.
      if (ours && bytes.length >= 4) bytes.set([0x74, 0x77, 0x01, 1 + (bytes[3] as number) % 4])
      assert.ok(E.isLeft(decodeClusterMessage(bytes)))
    }),
    { numRuns: 2000 },
  )
})

test('decodeClusterMessage :: any corrupted run of up to four bytes is an error, never another message (CRC-32 catches every burst up to 32 bits)', () => {
  fc.assert(
    fc.property(messageArb, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }), (m, where, noise) => {
      const bytes = encode(m)
      const at = where % bytes.length
      const corrupt = bytes.slice()
      let changed = false
      noise.forEach((x, i) => {
        if (at + i < corrupt.length && x !== 0) {
          corrupt[at + i] = (corrupt[at + i] as number) ^ x
          changed = true
        }
      })
      fc.pre(changed)
      assert.ok(E.isLeft(decodeClusterMessage(corrupt)))
    }),
    { numRuns: 1000 },
  )
})

test('decodeClusterMessage :: a cut message or one with bytes after it is an error', () => {
  fc.assert(
    fc.property(messageArb, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 }), (m, cut, extra) => {
      const bytes = encode(m)
      assert.ok(E.isLeft(decodeClusterMessage(bytes.subarray(0, cut % bytes.length))))
      const longer = new Uint8Array(bytes.length + extra.length)
      longer.set(bytes)
      longer.set(extra, bytes.length)
      assert.ok(E.isLeft(decodeClusterMessage(longer)))
    }),
    { numRuns: 500 },
  )
})

test('decodeClusterMessage :: scattered corruption is an error (CRC-32 misses one in 2^32)', () => {
  fc.assert(
    fc.property(messageArb, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 2, maxLength: 6 }), (m, flips) => {
      const bytes = encode(m)
      const corrupt = bytes.slice()
      for (const [where, x] of flips) corrupt[where % bytes.length] = (corrupt[where % bytes.length] as number) ^ x
      fc.pre(corrupt.some((b, i) => b !== bytes[i]))
      assert.ok(E.isLeft(decodeClusterMessage(corrupt)))
    }),
    { numRuns: 500 },
  )
})

test.run()
