/**
 * `encodeFrame` and `encodeFrameBytes`: a frame value to wire bytes (RFC 6455 §5.2; the
 * header is written by `frame-header.ts`). The server sends unmasked frames; given a masking
 * key (the caller's randomness, RFC 6455 §5.3) the encoder masks, as a client must.
 *
 * The encoder trusts its input: the opcode and, for control frames, a payload of at most 125
 * bytes are the caller's to get right (the builders in `out-frame.ts` do).
 *
 * Pure and portable: no node:* imports, no Buffer. Never mutates the payload it is given.
 */
import type { OutFrame } from './frame.js'
import { firstByteOf, frameHeaderSize, writeFrameHeader } from './frame-header.js'
import { JS_MASKER, type Masker } from './mask.js'

/**
 * The frame as two chunks, header and payload, so a large payload goes out without a copy.
 * Unmasked, the payload chunk is the frame's own array; with a 4-byte `maskKey` it is a new,
 * masked array, masked by `masker` (JavaScript unless given).
 *
 * @example
 * const [header, payload] = encodeFrame({ opcode: OPCODE.TEXT, payload: new TextEncoder().encode('Hello') })
 * // header: 81 05, payload: the same array, 48 65 6c 6c 6f (RFC 6455 §5.7)
 */
export const encodeFrame = (frame: OutFrame, maskKey?: Uint8Array, masker: Masker = JS_MASKER): readonly [header: Uint8Array, payload: Uint8Array] => {
  const length = frame.payload.length
  const header = new Uint8Array(frameHeaderSize(length, maskKey !== undefined))
  writeFrameHeader(header, 0, firstByteOf(frame), length, maskKey)
  const payload = maskKey === undefined ? frame.payload : masker.maskCopy(frame.payload, 0, length, maskKey, 0)
  return [header, payload]
}

/**
 * The frame as one array, header then payload, in a single allocation: the right call for
 * small messages, where one write beats two. A `maskKey` masks with `masker` (JavaScript unless
 * given).
 *
 * @example
 * encodeFrameBytes({ opcode: OPCODE.PING, payload: new TextEncoder().encode('Hello') })
 * // 89 05 48 65 6c 6c 6f (RFC 6455 §5.7)
 */
export const encodeFrameBytes = (frame: OutFrame, maskKey?: Uint8Array, masker: Masker = JS_MASKER): Uint8Array => {
  const length = frame.payload.length
  const headerLength = frameHeaderSize(length, maskKey !== undefined)
  let out: Uint8Array
  if (maskKey === undefined) {
    out = new Uint8Array(headerLength + length)
    out.set(frame.payload, headerLength)
  } else {
    // Masked straight into a fresh array with room left in front for the header: one copy.
    out = masker.maskCopy(frame.payload, 0, length, maskKey, 0, headerLength)
  }
  writeFrameHeader(out, 0, firstByteOf(frame), length, maskKey)
  return out
}
