import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { jsonPayload } from '../../../bench/load/json-payload.js'
import { maskedFrame, OPCODE, scanFrames } from '../../../bench/load/ws-frames.js'

const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16))
const KEY = hex('37fa213d')

test('maskedFrame :: RFC 6455 §5.7 masked "Hello" example', () => {
  assert.equal(Array.from(maskedFrame(OPCODE.text, new TextEncoder().encode('Hello'), KEY)), Array.from(hex('818537fa213d7f9f4d5158')))
})

test('maskedFrame :: 16-bit length from 126 bytes', () => {
  const f = maskedFrame(OPCODE.binary, new Uint8Array(300), KEY)
  assert.equal(Array.from(f.subarray(0, 4)), [0x82, 0x80 | 126, 0x01, 0x2c])
  assert.is(f.length, 4 + 4 + 300)
})

test('maskedFrame :: 64-bit length from 65536 bytes', () => {
  const f = maskedFrame(OPCODE.binary, new Uint8Array(65536), KEY)
  assert.equal(Array.from(f.subarray(0, 10)), [0x82, 0x80 | 127, 0, 0, 0, 0, 0, 1, 0, 0])
})

test('scanFrames :: counts whole server frames and leaves a partial one', () => {
  // "Hello" unmasked (RFC 6455 §5.7), twice, then the first 3 bytes of a third.
  const bytes = hex('810548656c6c6f' + '810548656c6c6f' + '810548')
  const scan = scanFrames(bytes)
  assert.equal(scan, { messages: 2, consumed: 14, closed: false })
})

test('scanFrames :: 16- and 64-bit lengths, need-more on a short extended length', () => {
  const mid = new Uint8Array(4 + 200)
  mid.set([0x82, 126, 0, 200])
  assert.equal(scanFrames(mid), { messages: 1, consumed: 204, closed: false })
  assert.equal(scanFrames(mid.subarray(0, 3)), { messages: 0, consumed: 0, closed: false })
  const big = new Uint8Array(10 + 70000)
  big.set([0x82, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70])
  assert.equal(scanFrames(big), { messages: 1, consumed: 70010, closed: false })
  assert.equal(scanFrames(big.subarray(0, 9)).consumed, 0)
})

test('scanFrames :: ignores ping/pong and non-final fragments, notes close, skips a mask', () => {
  const bytes = hex('8900' + '8a00' + '0103616263' + '800164' + '8802' + '03e8')
  const seen: number[] = []
  const scan = scanFrames(bytes, (op) => seen.push(op))
  assert.equal(scan, { messages: 1, consumed: bytes.length, closed: true })
  assert.equal(seen, [0])
  const masked = maskedFrame(OPCODE.text, new TextEncoder().encode('Hi'), KEY)
  assert.equal(scanFrames(masked), { messages: 1, consumed: masked.length, closed: false })
})

test('scanFrames :: hands the payload view of a data frame', () => {
  let text = ''
  scanFrames(hex('810548656c6c6f'), (_op, p) => (text = new TextDecoder().decode(p)))
  assert.is(text, 'Hello')
})

test('maskedFrame :: RSV1 for a compressed message, RFC 7692 §7.2.3.1 "Hello" masked', () => {
  const f = maskedFrame(OPCODE.text, hex('f248cdc9c90700'), KEY, true)
  assert.equal(Array.from(f.subarray(0, 6)), [0xc1, 0x87, 0x37, 0xfa, 0x21, 0x3d])
  assert.is(scanFrames(hex('c107f248cdc9c90700')).messages, 1)
})

test('jsonPayload :: valid JSON of at least the size asked, and not much more', () => {
  for (const size of [100, 4096, 65536]) {
    const text = jsonPayload(size)
    assert.ok(text.length >= size && text.length < size + 200, `${size}: ${text.length}`)
    assert.is((JSON.parse(text) as { event: string }).event, 'roster')
  }
})

test.run()
