import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { encodeEvent } from '../../../lib/core/ws/envelope.js'
import { binaryFrame, textFrame } from '../../../lib/core/ws/out-frame.js'
import type { RawMessage } from '../../../lib/core/route/raw-message.js'
import { encodeEventFrame, encodeRawFrame, portableFrames, textArrived, textDispatched } from '../../../lib/engine/delivery/outgoing.js'

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

// A frame writer that says which of its two ways framed a message.
const watched = () => {
  const used: string[] = []
  return {
    used,
    frames: {
      text: (text: string) => (used.push('text'), portableFrames.text(text)),
      binary: (data: Uint8Array) => (used.push('binary'), portableFrames.binary(data)),
    },
  }
}

test('encodeRawFrame :: the message being dispatched is framed from the bytes it arrived in', () => {
  const message = { _tag: 'Text', text: 'h\u00e9' } as const
  const payload = new Uint8Array([0x68, 0xc3, 0xa9])
  const { used, frames } = watched()
  textArrived(message, payload)
  const frame = encodeRawFrame(frames, message)
  textDispatched()
  assert.is(hex(frame), '810368c3a9')
  assert.is(hex(frame), hex(portableFrames.text('h\u00e9')))
  assert.equal(used, ['binary'])
  // A copy: the read buffer the payload came from may be reused.
  payload[0] = 0
  assert.is(frame[2], 0x68)
})

test('encodeRawFrame :: another message, a changed one, or one after its dispatch is encoded from its text', () => {
  const payload = new Uint8Array([0x61])
  const message: { _tag: 'Text'; text: string } = { _tag: 'Text', text: 'a' }
  const { used, frames } = watched()
  textArrived(message, payload)
  assert.is(hex(encodeRawFrame(frames, { _tag: 'Text', text: 'a' })), '810161')
  message.text = 'b' // a handler that changed the message it was given (the types forbid it)
  assert.is(hex(encodeRawFrame(frames, message)), '810162')
  message.text = 'a'
  textDispatched()
  assert.is(hex(encodeRawFrame(frames, message as RawMessage)), '810161')
  assert.equal(used, ['text', 'text', 'text'])
})

test('encodeRawFrame :: a text that arrived inside a larger read is framed from its bytes during its dispatch only', () => {
  const bytes = Uint8Array.of(0x81, 0x03, 0x68, 0xc3, 0xa9, 0xff)
  const message: RawMessage = { _tag: 'Text', text: 'h\u00e9' }
  const { used, frames } = watched()
  textArrived(message, bytes, 2, 5)
  const frame = encodeRawFrame(frames, message)
  textDispatched()
  assert.is(hex(frame), '810368c3a9')
  assert.is(hex(frame), hex(portableFrames.text('h\u00e9')))
  assert.equal(used, ['binary'])
  // A copy: the frame does not share the bytes it was made from.
  assert.is.not(frame.buffer, bytes.buffer)
  // After the dispatch the same message is encoded from its text.
  assert.is(hex(encodeRawFrame(frames, message)), '810368c3a9')
  assert.equal(used, ['binary', 'text'])
})

test('encodeEventFrame :: the envelope as one text frame', () => {
  const frame = encodeEventFrame(portableFrames, 'chat', { text: 'hi' })
  assert.is(hex(frame), hex(encodeFrameBytes(textFrame(encodeEvent({ event: 'chat', data: { text: 'hi' } })))))
})

test.run()
