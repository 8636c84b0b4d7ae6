import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { encodeEvent } from '../../lib/core/ws/envelope.js'
import { binaryFrame, textFrame } from '../../lib/core/ws/out-frame.js'
import { encodeEventFrame, encodeRawFrame, portableFrames } from '../../lib/engine/outgoing.js'

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

// The portable writer must give exactly the bytes of the core's reference encoder,
// for every length class and every UTF-8 width (1, 2, 3 and 4 bytes, and a lone surrogate).
const texts = ['', 'a', 'é', '€', '😀', 'a\uD800b', '\uDC00', 'x'.repeat(125), 'x'.repeat(126), '€'.repeat(21845), 'é'.repeat(32768), '😀'.repeat(20000)]
for (const text of texts) {
  test(`portableFrames.text :: ${text.length} code units, as the core encodes them`, () => {
    assert.is(hex(portableFrames.text(text)), hex(encodeFrameBytes(textFrame(text))))
  })
}
for (const size of [0, 1, 125, 126, 65535, 65536, 70000]) {
  test(`portableFrames.binary :: ${size} bytes, as the core encodes them`, () => {
    const data = new Uint8Array(size).map((_, i) => i & 0xff)
    assert.is(hex(portableFrames.binary(data)), hex(encodeFrameBytes(binaryFrame(data))))
  })
}

test('encodeRawFrame :: text and binary messages as their frames', () => {
  assert.is(hex(encodeRawFrame(portableFrames, { _tag: 'Text', text: 'hi' })), '81026869')
  assert.is(hex(encodeRawFrame(portableFrames, { _tag: 'Binary', data: new Uint8Array([1, 2]) })), '82020102')
})

test('encodeEventFrame :: the envelope as one text frame', () => {
  const frame = encodeEventFrame(portableFrames, 'chat', { text: 'hi' })
  assert.is(hex(frame), hex(encodeFrameBytes(textFrame(encodeEvent({ event: 'chat', data: { text: 'hi' } })))))
})

test.run()
