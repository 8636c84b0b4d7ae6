import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeFrame } from '../../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../../lib/core/ws/frame.js'
import {
  FIN_BIT,
  frameHeaderSize,
  frameOpcode,
  MASK_BIT,
  lengthEnd,
  payloadOffset,
  readPayloadLength,
  writeFrameHeader,
} from '../../../lib/core/ws/frame-header.js'
import { toHex } from './hex.js'

// Lengths at every edge of the three forms, and anywhere up to 2^53 - 1.
const EDGES = [0, 1, 124, 125, 126, 127, 65534, 65535, 65536, 65537, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER]
const lengthArb = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.integer({ min: 0, max: 200 }),
  fc.integer({ min: 0, max: 0x2_0000 }),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
)
const opcodeArb = fc.constantFrom(OPCODE.CONTINUATION, OPCODE.TEXT, OPCODE.BINARY, OPCODE.CLOSE, OPCODE.PING, OPCODE.PONG)
const keyArb = fc.option(fc.uint8Array({ minLength: 4, maxLength: 4 }), { nil: undefined })

test('frame header :: written then read gives the same length, opcode, FIN and mask, at any offset', () => {
  fc.assert(
    fc.property(lengthArb, opcodeArb, fc.boolean(), keyArb, fc.nat(8), (length, opcode, fin, key, at) => {
      const size = frameHeaderSize(length, key !== undefined)
      const target = new Uint8Array(at + size)
      assert.is(writeFrameHeader(target, at, (fin ? FIN_BIT : 0) | opcode, length, key), at + size)
      assert.is(payloadOffset(target, at), size)
      assert.is(lengthEnd(target[at + 1]!), size - (key === undefined ? 0 : 4))
      assert.is(readPayloadLength(target, at), length)
      assert.is(frameOpcode(target, at), opcode)
      assert.is((target[at]! & FIN_BIT) !== 0, fin)
      assert.is((target[at + 1]! & MASK_BIT) !== 0, key !== undefined)
      if (key !== undefined) assert.equal(target.subarray(at + size - 4), key)
    }),
    { numRuns: 2000 },
  )
})

test('frame header :: the same bytes as encodeFrame', () => {
  fc.assert(
    fc.property(lengthArb, opcodeArb, fc.boolean(), keyArb, (anyLength, opcode, fin, key) => {
      // A masked payload is masked for real, so it stays below 70,000 bytes (every edge but
      // 2^32 and 2^53 is); an unmasked one is only its length, as the encoder reads no byte of it.
      const length = key === undefined ? anyLength : anyLength % 70_000
      const payload = key === undefined ? ({ length } as unknown as Uint8Array) : new Uint8Array(length)
      const target = new Uint8Array(frameHeaderSize(length, key !== undefined))
      writeFrameHeader(target, 0, (fin ? FIN_BIT : 0) | opcode, length, key)
      assert.is(toHex(encodeFrame({ fin, opcode, payload }, key)[0]), toHex(target))
    }),
    { numRuns: 1000 },
  )
})

test.run()
