/**
 * Server-to-client frames for Node, in one allocation from Node's pooled Buffer, filled by
 * its native UTF-8 writer: every event, ack and broadcast passes through here. Gives the
 * same bytes as the engine's portable writer and the core's `encodeFrameBytes`. Part of the shared runtime layer (lib/runtime/):
 * Node's and Bun's adapters use it (Bun has Node's Buffer); imports the engine's types and
 * `node:*`, never an adapter.
 */
import { Buffer } from 'node:buffer'
import type { FrameWriter } from '../engine/platform.js'

// RFC 6455 §5.2: FIN + opcode, then a 7-bit length, or 126 + 16-bit, or 127 + 64-bit.
const header = (frame: Buffer, opcode: number, length: number): number => {
  frame[0] = 0x80 | opcode
  if (length < 126) {
    frame[1] = length
    return 2
  }
  if (length < 0x10000) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
    return 4
  }
  frame[1] = 127
  frame.writeUInt32BE(Math.floor(length / 0x1_0000_0000), 2)
  frame.writeUInt32BE(length >>> 0, 6)
  return 10
}

const headerSize = (length: number): number => (length < 126 ? 2 : length < 0x10000 ? 4 : 10)

/** Node's frame writer. */
export const nodeFrames: FrameWriter = {
  text(text) {
    const length = Buffer.byteLength(text, 'utf8')
    const frame = Buffer.allocUnsafe(headerSize(length) + length)
    frame.write(text, header(frame, 0x1, length), 'utf8')
    return frame
  },
  binary(data) {
    const frame = Buffer.allocUnsafe(headerSize(data.length) + data.length)
    frame.set(data, header(frame, 0x2, data.length))
    return frame
  },
}
