import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { binaryFrame, textFrame } from '../../lib/core/ws/out-frame.js'
import { nodeFrames } from '../../lib/runtime/node-frames.js'

// Node's fast writer must give exactly the bytes of the core's reference encoder.
for (const size of [0, 1, 125, 126, 65535, 65536, 70000]) {
  test(`nodeFrames.text :: ${size} bytes, as the core encodes them`, () => {
    const text = 'é'.repeat(Math.floor(size / 2)) + 'a'.repeat(size % 2)
    assert.equal(Buffer.from(nodeFrames.text(text)), Buffer.from(encodeFrameBytes(textFrame(text))))
  })
  test(`nodeFrames.binary :: ${size} bytes, as the core encodes them`, () => {
    const data = new Uint8Array(size).map((_, i) => i & 0xff)
    assert.equal(Buffer.from(nodeFrames.binary(data)), Buffer.from(encodeFrameBytes(binaryFrame(data))))
  })
}

test.run()
