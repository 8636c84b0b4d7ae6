import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { OPCODE } from '../../../lib/core/ws/frame.js'
import {
  FIN_BINARY,
  FIN_CLOSE,
  FIN_TEXT,
  firstByteOf,
  frameHeaderSize,
  frameOpcode,
  isCloseFrame,
  LENGTH_OUT_OF_RANGE,
  lengthEnd,
  maskedFrameSize,
  payloadOffset,
  readPayloadLength,
  writeFrameHeader,
} from '../../../lib/core/ws/frame-header.js'
import { hex, toHex } from './hex.js'

const KEY = hex('37 fa 21 3d')

// The header alone, written for a payload of `length` bytes.
const header = (first: number, length: number, key?: Uint8Array): string => {
  const target = new Uint8Array(frameHeaderSize(length, key !== undefined))
  assert.is(writeFrameHeader(target, 0, first, length, key), target.length, 'answers where the payload starts')
  return toHex(target)
}

test('frameHeaderSize :: 2, 4 or 10 bytes by the length, 4 more masked', () => {
  assert.equal(
    [0, 125, 126, 65535, 65536, 2 ** 32, Number.MAX_SAFE_INTEGER].map((n) => frameHeaderSize(n, false)),
    [2, 2, 4, 4, 10, 10, 10],
  )
  assert.equal([0, 125, 126, 65535, 65536].map((n) => frameHeaderSize(n, true)), [6, 6, 8, 8, 14])
})

test('writeFrameHeader :: RFC 6455 §5.7 examples', () => {
  assert.is(header(FIN_TEXT, 5), '81 05')
  assert.is(header(FIN_TEXT, 5, KEY), '81 85 37 fa 21 3d')
  assert.is(header(FIN_BINARY, 256), '82 7e 01 00')
  assert.is(header(FIN_BINARY, 65536), '82 7f 00 00 00 00 00 01 00 00')
})

test('writeFrameHeader :: length boundaries 125, 126, 65535, 65536', () => {
  assert.is(header(FIN_BINARY, 125), '82 7d')
  assert.is(header(FIN_BINARY, 126), '82 7e 00 7e')
  assert.is(header(FIN_BINARY, 65535), '82 7e ff ff')
  assert.is(header(FIN_BINARY, 65536, KEY), '82 ff 00 00 00 00 00 01 00 00 37 fa 21 3d')
})

test('writeFrameHeader :: a length past 32 bits, and the largest exact one', () => {
  assert.is(header(FIN_BINARY, 0x1_2345_6789), '82 7f 00 00 00 01 23 45 67 89')
  assert.is(header(FIN_BINARY, Number.MAX_SAFE_INTEGER), '82 7f 00 1f ff ff ff ff ff ff')
})

test('writeFrameHeader :: at an offset, touching nothing else', () => {
  const target = new Uint8Array(9).fill(0xee)
  assert.is(writeFrameHeader(target, 3, FIN_CLOSE, 2), 5)
  assert.is(toHex(target), 'ee ee ee 88 02 ee ee ee ee')
})

test('firstByteOf :: FIN unless false, the RSV bits set, the opcode', () => {
  const payload = new Uint8Array(0)
  assert.is(firstByteOf({ opcode: OPCODE.TEXT, payload }), FIN_TEXT)
  assert.is(firstByteOf({ fin: false, opcode: OPCODE.TEXT, payload }), 0x01)
  assert.is(firstByteOf({ rsv1: true, opcode: OPCODE.BINARY, payload }), 0xc2)
  assert.is(firstByteOf({ fin: true, rsv1: true, rsv2: true, rsv3: true, opcode: OPCODE.PONG, payload }), 0xfa)
  assert.is(firstByteOf({ opcode: OPCODE.CLOSE, payload }), FIN_CLOSE)
})

test('maskedFrameSize :: the masking key added', () => {
  assert.is(maskedFrameSize(hex('81 05 48 65 6c 6c 6f').length), hex('81 85 37 fa 21 3d 7f 9f 4d 51 58').length)
  assert.is(maskedFrameSize(2), 6)
})

test('frameOpcode :: the low 4 bits of the first byte', () => {
  assert.is(frameOpcode(hex('01 83 00 00 00 00')), OPCODE.TEXT)
  assert.is(frameOpcode(hex('00 8a 05'), 1), OPCODE.PONG)
  assert.is(frameOpcode(hex('c2 05')), OPCODE.BINARY)
})

test('isCloseFrame :: a final close frame at the front, nothing else', () => {
  assert.is(isCloseFrame(hex('88 02 03 e8')), true)
  assert.is(isCloseFrame(hex('88 00')), true)
  assert.is(isCloseFrame(hex('81 01 88')), false)
  assert.is(isCloseFrame(hex('08 00')), false)
  assert.is(isCloseFrame(new Uint8Array(0)), false)
})

test('lengthEnd :: 2, 4 or 10 from the 7-bit length field, whatever the mask bit', () => {
  assert.equal([0x00, 0x7d, 0x7e, 0x7f, 0x80, 0xfd, 0xfe, 0xff].map(lengthEnd), [2, 2, 4, 10, 2, 2, 4, 10])
})

test('payloadOffset :: the whole header, masking key included', () => {
  assert.is(payloadOffset(hex('81 05 48 65 6c 6c 6f')), 2)
  assert.is(payloadOffset(hex('82 7e 01 00')), 4)
  assert.is(payloadOffset(hex('82 7f')), 10)
  assert.is(payloadOffset(hex('81 85 37 fa 21 3d')), 6)
  assert.is(payloadOffset(hex('82 fe 01 00')), 8)
  assert.is(payloadOffset(hex('82 ff')), 14)
  assert.is(payloadOffset(hex('00 00 82 7e'), 2), 4)
})

test('readPayloadLength :: the 7-, 16- and 64-bit forms', () => {
  assert.is(readPayloadLength(hex('81 05'), 0), 5)
  assert.is(readPayloadLength(hex('81 fd'), 0), 125)
  assert.is(readPayloadLength(hex('82 7e 01 00'), 0), 256)
  assert.is(readPayloadLength(hex('82 fe ff ff'), 0), 65535)
  assert.is(readPayloadLength(hex('82 7f 00 00 00 00 00 01 00 00'), 0), 65536)
  assert.is(readPayloadLength(hex('82 7f 00 00 00 01 23 45 67 89'), 0), 0x1_2345_6789)
  assert.is(readPayloadLength(hex('ff ff 82 7e 00 7e'), 2), 126)
})

test('readPayloadLength :: a 64-bit length with its most significant bit set is out of range', () => {
  assert.is(readPayloadLength(hex('82 7f 80 00 00 00 00 00 00 00'), 0), LENGTH_OUT_OF_RANGE)
  assert.is(readPayloadLength(hex('82 7f 7f ff ff ff ff ff ff ff'), 0) > 0, true)
})

test.run()
