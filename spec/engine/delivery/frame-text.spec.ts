import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { frameText } from '../../../lib/engine/delivery/frame-text.js'
import { portableFrames } from '../../../lib/engine/delivery/outgoing.js'

test('frameText :: the payload of a server text frame, for 7-, 16- and 64-bit lengths', () => {
  assert.is(frameText(new Uint8Array([0x81, 0x02, 0x68, 0x69])), 'hi')
  const mid = 'é'.repeat(100)
  assert.is(frameText(portableFrames.text(mid)), mid)
  const big = 'x'.repeat(70_000)
  assert.is(frameText(portableFrames.text(big)), big)
})

test('frameText :: anything but one text frame has no text', () => {
  assert.is(frameText(new Uint8Array([0x82, 0x01, 0x00])), undefined)
  assert.is(frameText(new Uint8Array([0x81])), undefined)
  assert.is(frameText(new Uint8Array([0x81, 0x7e, 0x00])), undefined)
  assert.is(frameText(new Uint8Array(0)), undefined)
})

test.run()
