import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeFrame, encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { OPCODE, type OutFrame } from '../../../lib/core/ws/frame.js'
import { concatBytes, hex, toHex, utf8 } from './hex.js'

const KEY = hex('37 fa 21 3d')

const both = (frame: OutFrame, key?: Uint8Array): string => {
  const [header, payload] = encodeFrame(frame, key)
  const joined = concatBytes(header, payload)
  assert.equal(encodeFrameBytes(frame, key), joined, 'encodeFrameBytes is the two chunks joined')
  return toHex(joined)
}

// RFC 6455 §5.7, byte for byte.

test('encodeFrame :: RFC 6455 §5.7 single-frame unmasked text "Hello"', () => {
  assert.is(both({ opcode: OPCODE.TEXT, payload: utf8('Hello') }), '81 05 48 65 6c 6c 6f')
})

test('encodeFrame :: RFC 6455 §5.7 single-frame masked text "Hello"', () => {
  assert.is(both({ opcode: OPCODE.TEXT, payload: utf8('Hello') }, KEY), '81 85 37 fa 21 3d 7f 9f 4d 51 58')
})

test('encodeFrame :: RFC 6455 §5.7 fragmented unmasked text "Hel" + "lo"', () => {
  assert.is(both({ fin: false, opcode: OPCODE.TEXT, payload: utf8('Hel') }), '01 03 48 65 6c')
  assert.is(both({ opcode: OPCODE.CONTINUATION, payload: utf8('lo') }), '80 02 6c 6f')
})

test('encodeFrame :: RFC 6455 §5.7 unmasked ping and masked pong "Hello"', () => {
  assert.is(both({ opcode: OPCODE.PING, payload: utf8('Hello') }), '89 05 48 65 6c 6c 6f')
  assert.is(both({ opcode: OPCODE.PONG, payload: utf8('Hello') }, KEY), '8a 85 37 fa 21 3d 7f 9f 4d 51 58')
})

test('encodeFrame :: RFC 6455 §5.7 256 bytes binary (16-bit length)', () => {
  const [header] = encodeFrame({ opcode: OPCODE.BINARY, payload: new Uint8Array(256) })
  assert.is(toHex(header), '82 7e 01 00')
})

test('encodeFrame :: RFC 6455 §5.7 64 KiB binary (64-bit length)', () => {
  const [header] = encodeFrame({ opcode: OPCODE.BINARY, payload: new Uint8Array(65536) })
  assert.is(toHex(header), '82 7f 00 00 00 00 00 01 00 00')
})

test('encodeFrame :: length boundaries 125, 126, 65535, 65536', () => {
  const head = (n: number, key?: Uint8Array): string => toHex(encodeFrame({ opcode: OPCODE.BINARY, payload: new Uint8Array(n) }, key)[0])
  assert.is(head(125), '82 7d')
  assert.is(head(126), '82 7e 00 7e')
  assert.is(head(65535), '82 7e ff ff')
  assert.is(head(65536), '82 7f 00 00 00 00 00 01 00 00')
  assert.is(head(125, KEY), '82 fd 37 fa 21 3d')
  assert.is(head(65536, KEY), '82 ff 00 00 00 00 00 01 00 00 37 fa 21 3d')
})

test('encodeFrame :: a length past 32 bits is written in full', () => {
  // Only the header is built here: a fake payload with a huge length.
  const payload = { length: 0x1_2345_6789 } as unknown as Uint8Array
  assert.is(toHex(encodeFrame({ opcode: OPCODE.BINARY, payload })[0]), '82 7f 00 00 00 01 23 45 67 89')
})

test('encodeFrame :: FIN and RSV bits as given', () => {
  const head = (frame: Partial<OutFrame>): string => toHex(encodeFrame({ opcode: OPCODE.TEXT, payload: new Uint8Array(0), ...frame })[0])
  assert.is(head({ fin: false }), '01 00')
  assert.is(head({ rsv1: true }), 'c1 00')
  assert.is(head({ rsv2: true }), 'a1 00')
  assert.is(head({ rsv3: true }), '91 00')
})

test('encodeFrame :: RFC 7692 §7.2.3.1 compressed "Hello": RSV1 on the first frame only', () => {
  const deflated = hex('f2 48 cd c9 c9 07 00')
  assert.is(both({ opcode: OPCODE.TEXT, rsv1: true, payload: deflated }), 'c1 07 f2 48 cd c9 c9 07 00')
  assert.is(both({ opcode: OPCODE.TEXT, rsv1: true, fin: false, payload: deflated.subarray(0, 3) }), '41 03 f2 48 cd')
  assert.is(both({ opcode: OPCODE.CONTINUATION, payload: deflated.subarray(3) }), '80 04 c9 c9 07 00')
  assert.is(both({ opcode: OPCODE.BINARY, rsv1: true, payload: deflated }, KEY), 'c2 87 37 fa 21 3d c5 b2 ec f4 fe fd 21')
})

test('encodeFrame :: an unmasked payload goes out as the same array (no copy)', () => {
  const payload = new Uint8Array(70000)
  const [, out] = encodeFrame({ opcode: OPCODE.BINARY, payload })
  assert.is(out, payload)
})

test('encodeFrame :: masking never changes the caller payload', () => {
  const payload = Uint8Array.from({ length: 1000 }, (_, i) => i & 0xff)
  const before = payload.slice()
  const [, out] = encodeFrame({ opcode: OPCODE.BINARY, payload }, KEY)
  assert.equal(payload, before)
  assert.is.not(out, payload)
  assert.equal(out.map((b, i) => b ^ KEY[i & 3]!), before)
})

test('encodeFrameBytes :: masks correctly past the header at every header size', () => {
  for (const n of [5, 64, 100, 126, 1000, 65536]) {
    const payload = Uint8Array.from({ length: n }, (_, i) => (i * 31) & 0xff)
    const bytes = encodeFrameBytes({ opcode: OPCODE.BINARY, payload }, KEY)
    const start = bytes.length - n
    assert.equal(bytes.subarray(start - 4, start), KEY)
    assert.equal(bytes.subarray(start).map((b, i) => b ^ KEY[i & 3]!), payload, `payload of ${n} bytes`)
  }
})

test.run()
