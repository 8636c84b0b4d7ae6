import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeFrame } from '../../../lib/core/ws/decode-frame.js'
import { type Frame, type FrameLimits, OPCODE } from '../../../lib/core/ws/frame.js'
import type { WsError } from '../../../lib/core/ws/ws-error.js'
import { feedAll } from '../../support/feed.js'
import { concatBytes, hex, utf8 } from './hex.js'

const SERVER: FrameLimits = { maxPayload: 1 << 20, requireMask: true }
const LENIENT: FrameLimits = { maxPayload: 1 << 20, requireMask: false }

const frame = (opcode: number, payload: Uint8Array, fin = true): Frame => ({ fin, rsv1: false, rsv2: false, rsv3: false, opcode, payload })

const decodeWith = (limits: FrameLimits) => (bytes: Uint8Array) => decodeFrame(bytes, limits)

// Decodes one frame every way feedAll knows; gives the frame.
const decodesTo = (limits: FrameLimits, bytes: Uint8Array, expected: Frame): void => {
  const out = feedAll(decodeWith(limits), bytes)
  assert.equal(out, { values: [expected], error: undefined, leftover: 0 })
}

// Fails every way feedAll knows; gives the error.
const failsWith = (limits: FrameLimits, bytes: Uint8Array): WsError => {
  const out = feedAll(decodeWith(limits), bytes)
  assert.equal(out.values, [])
  assert.ok(out.error !== undefined, 'expected an error')
  return out.error as WsError
}

// RFC 6455 §5.7, every example byte for byte.

test('decodeFrame :: RFC 6455 §5.7 single-frame unmasked text "Hello"', () => {
  decodesTo(LENIENT, hex('81 05 48 65 6c 6c 6f'), frame(OPCODE.TEXT, utf8('Hello')))
})

test('decodeFrame :: RFC 6455 §5.7 single-frame masked text "Hello"', () => {
  decodesTo(SERVER, hex('81 85 37 fa 21 3d 7f 9f 4d 51 58'), frame(OPCODE.TEXT, utf8('Hello')))
})

test('decodeFrame :: RFC 6455 §5.7 fragmented unmasked text "Hel" + "lo"', () => {
  const out = feedAll(decodeWith(LENIENT), hex('01 03 48 65 6c  80 02 6c 6f'))
  assert.equal(out.values, [frame(OPCODE.TEXT, utf8('Hel'), false), frame(OPCODE.CONTINUATION, utf8('lo'))])
})

test('decodeFrame :: RFC 6455 §5.7 unmasked ping "Hello"', () => {
  decodesTo(LENIENT, hex('89 05 48 65 6c 6c 6f'), frame(OPCODE.PING, utf8('Hello')))
})

test('decodeFrame :: RFC 6455 §5.7 masked pong "Hello"', () => {
  decodesTo(SERVER, hex('8a 85 37 fa 21 3d 7f 9f 4d 51 58'), frame(OPCODE.PONG, utf8('Hello')))
})

test('decodeFrame :: RFC 6455 §5.7 256 bytes binary in one unmasked frame (16-bit length)', () => {
  const payload = Uint8Array.from({ length: 256 }, (_, i) => i)
  decodesTo(LENIENT, concatBytes(hex('82 7e 01 00'), payload), frame(OPCODE.BINARY, payload))
})

test('decodeFrame :: RFC 6455 §5.7 64 KiB binary in one unmasked frame (64-bit length)', () => {
  const payload = Uint8Array.from({ length: 65536 }, (_, i) => i * 7)
  const bytes = concatBytes(hex('82 7f 00 00 00 00 00 01 00 00'), payload)
  const step = decodeFrame(bytes, LENIENT)
  assert.equal(step, E.right({ _tag: 'Parsed', value: frame(OPCODE.BINARY, payload), rest: new Uint8Array(0) }))
  feedAll(decodeWith(LENIENT), bytes, { splits: [1, 2, 5, 9, 10, 11, 40000, 65545] })
})

test('decodeFrame :: masked 64 KiB binary (64-bit length) unmasks every byte', () => {
  const payload = Uint8Array.from({ length: 65536 }, (_, i) => (i * 13) & 0xff)
  const key = hex('01 02 03 04')
  const masked = payload.map((b, i) => b ^ key[i & 3]!)
  const bytes = concatBytes(hex('82 ff 00 00 00 00 00 01 00 00'), key, masked)
  assert.equal(decodeFrame(bytes, SERVER), E.right({ _tag: 'Parsed', value: frame(OPCODE.BINARY, payload), rest: new Uint8Array(0) }))
})

// Header fields.

test('decodeFrame :: reads RSV1 when an extension allows it', () => {
  decodesTo({ ...SERVER, allowRsv1: true }, hex('c1 80 00 00 00 00'), { ...frame(OPCODE.TEXT, new Uint8Array(0)), rsv1: true })
})

test('decodeFrame :: an empty masked payload', () => {
  decodesTo(SERVER, hex('82 80 aa bb cc dd'), frame(OPCODE.BINARY, new Uint8Array(0)))
})

test('decodeFrame :: the largest 7-bit and the smallest 16-bit lengths', () => {
  const p125 = new Uint8Array(125).fill(1)
  decodesTo(LENIENT, concatBytes(hex('82 7d'), p125), frame(OPCODE.BINARY, p125))
  const p126 = new Uint8Array(126).fill(2)
  decodesTo(LENIENT, concatBytes(hex('82 7e 00 7e'), p126), frame(OPCODE.BINARY, p126))
})

test('decodeFrame :: a control frame of exactly 125 bytes', () => {
  const payload = new Uint8Array(125).fill(9)
  decodesTo(LENIENT, concatBytes(hex('89 7d'), payload), frame(OPCODE.PING, payload))
})

test('decodeFrame :: hands back the bytes after the frame as a view', () => {
  const bytes = hex('81 05 48 65 6c 6c 6f 89 00')
  const step = decodeFrame(bytes, LENIENT)
  if (E.isLeft(step) || step.right._tag !== 'Parsed') throw new Error('expected a frame')
  assert.equal(step.right.rest, hex('89 00'))
  assert.is(step.right.rest.buffer, bytes.buffer)
  assert.is(step.right.rest.byteOffset, bytes.byteOffset + 7)
})

test('decodeFrame :: an unmasked payload is a view, a masked one a new array', () => {
  const plain = hex('82 03 01 02 03')
  const a = decodeFrame(plain, LENIENT)
  if (E.isLeft(a) || a.right._tag !== 'Parsed') throw new Error('expected a frame')
  assert.is(a.right.value.payload.buffer, plain.buffer)
  const masked = hex('82 83 01 01 01 01 00 03 02')
  const b = decodeFrame(masked, SERVER)
  if (E.isLeft(b) || b.right._tag !== 'Parsed') throw new Error('expected a frame')
  assert.is.not(b.right.value.payload.buffer, masked.buffer)
  assert.equal(b.right.value.payload, hex('01 02 03'))
  assert.equal(masked, hex('82 83 01 01 01 01 00 03 02'), 'the input is left as it was')
})

test('decodeFrame :: decodes a frame that starts at an odd offset of its buffer', () => {
  const payload = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff)
  const key = hex('a1 b2 c3 d4')
  const wire = concatBytes(hex('ff'), hex('82 fe 01 2c'), key, payload.map((b, i) => b ^ key[i & 3]!))
  assert.equal(decodeFrame(wire.subarray(1), SERVER), E.right({ _tag: 'Parsed', value: frame(OPCODE.BINARY, payload), rest: new Uint8Array(0) }))
})

// NeedMore: the header's length first, then the whole frame's.

const need = (bytes: Uint8Array, limits: FrameLimits = SERVER): number | undefined => {
  const step = decodeFrame(bytes, limits)
  return E.isRight(step) && step.right._tag === 'NeedMore' ? step.right.atLeast : undefined
}

test('decodeFrame :: NeedMore asks for 2 bytes, then the length, then the whole frame', () => {
  assert.is(need(hex('')), 2)
  assert.is(need(hex('81')), 2)
  assert.is(need(hex('81 85')), 11, 'a 7-bit length is known from the second byte')
  assert.is(need(hex('81 85 37 fa')), 11)
  assert.is(need(hex('82 fe')), 4, 'a 16-bit length follows')
  assert.is(need(hex('82 fe 01')), 4)
  assert.is(need(hex('82 fe 01 00')), 8 + 256, 'once the length is read, the whole frame')
  assert.is(need(hex('82 fe 01 00 aa bb')), 8 + 256)
  assert.is(need(hex('82 ff 00 00 00 00')), 10)
  assert.is(need(hex('82 ff 00 00 00 00 00 01 00 00')), 14 + 65536)
  assert.is(need(hex('82 7e 01'), LENIENT), 4)
})

// Every protocol error: its tag and its close code.

test('decodeFrame :: rejects an unmasked client frame (1002)', () => {
  const err = failsWith(SERVER, hex('81 05 48 65 6c 6c 6f'))
  assert.equal([err._tag, err.closeCode], ['UnmaskedFrame', 1002])
})

test('decodeFrame :: accepts masked frames when masks are not required', () => {
  decodesTo(LENIENT, hex('81 85 37 fa 21 3d 7f 9f 4d 51 58'), frame(OPCODE.TEXT, utf8('Hello')))
})

test('decodeFrame :: rejects RSV1 without extension (1002)', () => {
  const err = failsWith(SERVER, hex('c1 80 00 00 00 00'))
  assert.equal([err._tag, err.closeCode, err._tag === 'ReservedBits' && err.bits], ['ReservedBits', 1002, 4])
  assert.is(err.reason, 'reserved bits set: RSV1')
})

test('decodeFrame :: rejects RSV2 without extension (1002)', () => {
  const err = failsWith(SERVER, hex('a1 80 00 00 00 00'))
  assert.equal([err._tag, err.closeCode, err._tag === 'ReservedBits' && err.bits], ['ReservedBits', 1002, 2])
})

test('decodeFrame :: rejects RSV3 without extension (1002)', () => {
  const err = failsWith(SERVER, hex('91 80 00 00 00 00'))
  assert.equal([err._tag, err.closeCode, err._tag === 'ReservedBits' && err.bits], ['ReservedBits', 1002, 1])
})

test('decodeFrame :: rejects RSV2 even when RSV1 is allowed (1002)', () => {
  const err = failsWith({ ...SERVER, allowRsv1: true }, hex('e1 80 00 00 00 00'))
  assert.equal([err._tag, err.closeCode, err.reason], ['ReservedBits', 1002, 'reserved bits set: RSV1 RSV2'])
})

// RSV1 with permessage-deflate (RFC 7692 §6).

const DEFLATE: FrameLimits = { ...SERVER, allowRsv1: true }

test('decodeFrame :: RFC 7692 §7.2.3.1 compressed "Hello" in one frame: RSV1 read, payload left compressed', () => {
  decodesTo({ ...LENIENT, allowRsv1: true }, hex('c1 07 f2 48 cd c9 c9 07 00'), { ...frame(OPCODE.TEXT, hex('f2 48 cd c9 c9 07 00')), rsv1: true })
})

test('decodeFrame :: RFC 7692 §7.2.3.1 compressed "Hello" in two fragments: RSV1 on the first only', () => {
  const out = feedAll(decodeWith({ ...LENIENT, allowRsv1: true }), hex('41 03 f2 48 cd  80 04 c9 c9 07 00'))
  assert.equal(out.values, [{ ...frame(OPCODE.TEXT, hex('f2 48 cd'), false), rsv1: true }, frame(OPCODE.CONTINUATION, hex('c9 c9 07 00'))])
})

test('decodeFrame :: a masked compressed binary frame', () => {
  // "Hello" compressed, masked with the key 37 fa 21 3d.
  decodesTo(DEFLATE, hex('c2 87 37 fa 21 3d c5 b2 ec f4 fe fd 21'), { ...frame(OPCODE.BINARY, hex('f2 48 cd c9 c9 07 00')), rsv1: true })
})

test('decodeFrame :: rejects RSV1 on a continuation frame, even with the extension (RFC 7692 §6.1, 1002)', () => {
  // "An endpoint MUST NOT set the "Per-Message Compressed" bit of control frames and
  // non-first fragments of a data message."
  const err = failsWith(DEFLATE, hex('c0 80 00 00 00 00'))
  assert.equal(err, { _tag: 'MisplacedRsv1', opcode: 0, closeCode: 1002, reason: 'RSV1 on a continuation frame' })
  assert.equal(failsWith(DEFLATE, hex('40 80 00 00 00 00'))._tag, 'MisplacedRsv1', 'without FIN too')
})

test('decodeFrame :: rejects RSV1 on every control frame, even with the extension (RFC 7692 §6.1, 1002)', () => {
  for (const opcode of [OPCODE.CLOSE, OPCODE.PING, OPCODE.PONG]) {
    const err = failsWith(DEFLATE, Uint8Array.of(0xc0 | opcode, 0x80, 0, 0, 0, 0))
    assert.equal(err, { _tag: 'MisplacedRsv1', opcode, closeCode: 1002, reason: 'RSV1 on a control frame' })
  }
})

test('decodeFrame :: RSV1 on a continuation or control frame without the extension is ReservedBits (1002)', () => {
  assert.equal([failsWith(SERVER, hex('c0 80 00 00 00 00'))._tag, failsWith(SERVER, hex('c9 80 00 00 00 00'))._tag], ['ReservedBits', 'ReservedBits'])
})

test('decodeFrame :: a misplaced RSV1 is known from the first two bytes', () => {
  assert.equal(decodeFrame(hex('c9 7e'), DEFLATE), E.left({ _tag: 'MisplacedRsv1', opcode: 9, closeCode: 1002, reason: 'RSV1 on a control frame' }))
})

test('decodeFrame :: a reserved opcode with RSV1 is a reserved opcode (1002)', () => {
  assert.is(failsWith(DEFLATE, hex('c3 80 00 00 00 00'))._tag, 'ReservedOpcode')
})

test('decodeFrame :: rejects every reserved opcode (1002)', () => {
  for (const opcode of [3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf]) {
    const err = failsWith(SERVER, Uint8Array.of(0x80 | opcode, 0x80, 0, 0, 0, 0))
    assert.equal([err._tag, err.closeCode, err._tag === 'ReservedOpcode' && err.opcode], ['ReservedOpcode', 1002, opcode])
  }
})

test('decodeFrame :: rejects a fragmented control frame (1002)', () => {
  for (const opcode of [OPCODE.CLOSE, OPCODE.PING, OPCODE.PONG]) {
    const err = failsWith(SERVER, Uint8Array.of(opcode, 0x80, 0, 0, 0, 0))
    assert.equal([err._tag, err.closeCode], ['FragmentedControlFrame', 1002])
  }
})

test('decodeFrame :: rejects a control frame over 125 bytes, from its length field (1002)', () => {
  const err = failsWith(SERVER, hex('89 fe 00 7e'))
  assert.equal([err._tag, err.closeCode, err._tag === 'ControlFrameTooLong' && err.lengthField], ['ControlFrameTooLong', 1002, 126])
  assert.ok(E.isLeft(decodeFrame(hex('88 ff'), SERVER)), 'known from the first two bytes')
})

test('decodeFrame :: rejects a 64-bit length with the top bit set (1002)', () => {
  const err = failsWith(SERVER, hex('82 ff 80 00 00 00 00 00 00 00'))
  assert.equal([err._tag, err.closeCode], ['LengthOutOfRange', 1002])
})

test('decodeFrame :: rejects a frame over the limit as soon as its length is read (1009)', () => {
  const limits = { maxPayload: 1000, requireMask: true }
  const err = failsWith(limits, hex('82 fe 03 e9'))
  assert.equal(err, { _tag: 'FrameTooBig', length: 1001, limit: 1000, closeCode: 1009, reason: 'frame too big' })
  // No mask key and no payload needed to know it.
  assert.equal(decodeFrame(hex('82 fe 03 e9'), limits), E.left(err))
  decodesTo(limits, concatBytes(hex('82 fe 03 e8 00 00 00 00'), new Uint8Array(1000)), frame(OPCODE.BINARY, new Uint8Array(1000)))
})

test('decodeFrame :: a 64-bit length past 2^53 is too big for any limit (1009)', () => {
  const err = failsWith({ maxPayload: Infinity, requireMask: false }, hex('82 7f 7f ff ff ff ff ff ff ff'))
  assert.equal([err._tag, err.closeCode], ['FrameTooBig', 1009])
})

test('decodeFrame :: reports the first rule broken, in header order', () => {
  assert.is(failsWith(SERVER, hex('a3 7f'))._tag, 'ReservedBits', 'RSV2, reserved opcode, unmasked')
  assert.is(failsWith(SERVER, hex('83 7f'))._tag, 'ReservedOpcode', 'reserved opcode, unmasked')
  assert.is(failsWith({ maxPayload: 1, requireMask: true }, hex('82 7e 00 02'))._tag, 'UnmaskedFrame', 'unmasked, too big')
})

test.run()
