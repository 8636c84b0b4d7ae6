/**
 * Server-to-client frames built in one allocation. The core's `encodeFrameBytes` is the
 * portable reference; here Node's native UTF-8 writer fills the frame in place, since
 * every event, ack and broadcast passes through this function.
 */
import { Buffer } from 'node:buffer'
import type { RawMessage } from '../core/route/raw-message.js'
import { encodeEvent } from '../core/ws/envelope.js'

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

/** An unmasked text frame holding `text`. */
export const encodeText = (text: string): Uint8Array => {
  const length = Buffer.byteLength(text, 'utf8')
  const frame = Buffer.allocUnsafe(headerSize(length) + length)
  const at = header(frame, 0x1, length)
  frame.write(text, at, 'utf8')
  return frame
}

/** An unmasked binary frame holding a copy of `data` (one allocation, one copy). */
export const encodeBinary = (data: Uint8Array): Uint8Array => {
  const frame = Buffer.allocUnsafe(headerSize(data.length) + data.length)
  frame.set(data, header(frame, 0x2, data.length))
  return frame
}

/** A message without envelope as its frame. */
export const encodeRawFrame = (message: RawMessage): Uint8Array =>
  message._tag === 'Text' ? encodeText(message.text) : encodeBinary(message.data)

/** An event `{"event":…,"data":…}` as its text frame (throws on data JSON cannot hold). */
export const encodeEventFrame = (event: string, data: unknown): Uint8Array => encodeText(encodeEvent({ event, data }))
