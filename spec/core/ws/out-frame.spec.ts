import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { binaryFrame, closeFrame, pingFrame, pongFrame, textFrame } from '../../../lib/core/ws/out-frame.js'
import { toHex } from './hex.js'

const wire = (frame: Parameters<typeof encodeFrameBytes>[0]): string => toHex(encodeFrameBytes(frame))

test('textFrame :: UTF-8 text in one frame', () => {
  assert.is(wire(textFrame('Hello')), '81 05 48 65 6c 6c 6f')
  assert.is(wire(textFrame('€')), '81 03 e2 82 ac')
})

test('binaryFrame :: the bytes as they are, not copied', () => {
  const bytes = new Uint8Array([1, 2, 3])
  assert.is(binaryFrame(bytes).payload, bytes)
  assert.is(wire(binaryFrame(bytes)), '82 03 01 02 03')
})

test('pingFrame / pongFrame :: empty by default, payload cut to 125 bytes', () => {
  assert.is(wire(pingFrame()), '89 00')
  assert.is(wire(pongFrame()), '8a 00')
  assert.is(wire(pongFrame(new Uint8Array([7]))), '8a 01 07')
  assert.is(pingFrame(new Uint8Array(200)).payload.length, 125)
  assert.is(pongFrame(new Uint8Array(126)).payload.length, 125)
})

test('closeFrame :: code and reason; without a code, an empty close', () => {
  assert.is(wire(closeFrame(1000, 'bye')), '88 05 03 e8 62 79 65')
  assert.is(wire(closeFrame(1002)), '88 02 03 ea')
  assert.is(wire(closeFrame()), '88 00')
  assert.is(wire(closeFrame(1005, 'never sent')), '88 00')
})

test.run()
