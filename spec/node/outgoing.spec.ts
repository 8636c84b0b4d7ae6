import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { binaryFrame, textFrame } from '../../lib/core/ws/out-frame.js'
import { encodeBinary, encodeText } from '../../lib/node/outgoing.js'

// The shell's fast encoders must give exactly the bytes of the core's reference encoder.
for (const size of [0, 1, 125, 126, 65535, 65536, 70000]) {
  test(`encodeText :: ${size} bytes, as the core encodes them`, () => {
    const text = 'é'.repeat(Math.floor(size / 2)) + 'a'.repeat(size % 2)
    assert.equal(Buffer.from(encodeText(text)), Buffer.from(encodeFrameBytes(textFrame(text))))
  })
  test(`encodeBinary :: ${size} bytes, as the core encodes them`, () => {
    const data = new Uint8Array(size).map((_, i) => i & 0xff)
    assert.equal(Buffer.from(encodeBinary(data)), Buffer.from(encodeFrameBytes(binaryFrame(data))))
  })
}

test.run()
