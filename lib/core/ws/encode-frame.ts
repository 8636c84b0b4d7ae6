/**
 * `encodeFrame` and `encodeFrameBytes`: a frame value to wire bytes (RFC 6455 §5.2). The
 * server sends unmasked frames; given a masking key (the caller's randomness, RFC 6455 §5.3)
 * the encoder masks, as a client must.
 *
 * The encoder trusts its input: the opcode and, for control frames, a payload of at most 125
 * bytes are the caller's to get right (the builders in `out-frame.ts` do).
 *
 * Pure and portable: no node:* imports, no Buffer. Never mutates the payload it is given.
 */
import type { OutFrame } from './frame.js'
import { maskCopy } from './mask.js'

/** The header's length for a payload of `length` bytes (RFC 6455 §5.2). */
const headerLengthFor = (length: number, masked: boolean): number =>
  (length < 126 ? 2 : length < 0x1_0000 ? 4 : 10) + (masked ? 4 : 0)

// Writes the header at the front of `target` (which is at least `headerLengthFor` long).
const writeHeader = (target: Uint8Array, frame: OutFrame, length: number, maskKey: Uint8Array | undefined): void => {
  target[0] =
    (frame.fin === false ? 0 : 0x80) |
    (frame.rsv1 === true ? 0x40 : 0) |
    (frame.rsv2 === true ? 0x20 : 0) |
    (frame.rsv3 === true ? 0x10 : 0) |
    (frame.opcode & 0x0f)
  const maskBit = maskKey === undefined ? 0 : 0x80
  let at: number
  if (length < 126) {
    target[1] = maskBit | length
    at = 2
  } else if (length < 0x1_0000) {
    target[1] = maskBit | 126
    target[2] = length >>> 8
    target[3] = length & 0xff
    at = 4
  } else {
    target[1] = maskBit | 127
    const high = Math.floor(length / 0x1_0000_0000)
    const low = length >>> 0
    target[2] = high >>> 24
    target[3] = (high >>> 16) & 0xff
    target[4] = (high >>> 8) & 0xff
    target[5] = high & 0xff
    target[6] = low >>> 24
    target[7] = (low >>> 16) & 0xff
    target[8] = (low >>> 8) & 0xff
    target[9] = low & 0xff
    at = 10
  }
  if (maskKey !== undefined) {
    target[at] = maskKey[0]!
    target[at + 1] = maskKey[1]!
    target[at + 2] = maskKey[2]!
    target[at + 3] = maskKey[3]!
  }
}

/**
 * The frame as two chunks, header and payload, so a large payload goes out without a copy.
 * Unmasked, the payload chunk is the frame's own array; with a 4-byte `maskKey` it is a new,
 * masked array.
 *
 * @example
 * const [header, payload] = encodeFrame({ opcode: OPCODE.TEXT, payload: new TextEncoder().encode('Hello') })
 * // header: 81 05, payload: the same array, 48 65 6c 6c 6f (RFC 6455 §5.7)
 */
export const encodeFrame = (frame: OutFrame, maskKey?: Uint8Array): readonly [header: Uint8Array, payload: Uint8Array] => {
  const length = frame.payload.length
  const header = new Uint8Array(headerLengthFor(length, maskKey !== undefined))
  writeHeader(header, frame, length, maskKey)
  const payload = maskKey === undefined ? frame.payload : maskCopy(frame.payload, 0, length, maskKey, 0)
  return [header, payload]
}

/**
 * The frame as one array, header then payload, in a single allocation: the right call for
 * small messages, where one write beats two.
 *
 * @example
 * encodeFrameBytes({ opcode: OPCODE.PING, payload: new TextEncoder().encode('Hello') })
 * // 89 05 48 65 6c 6c 6f (RFC 6455 §5.7)
 */
export const encodeFrameBytes = (frame: OutFrame, maskKey?: Uint8Array): Uint8Array => {
  const length = frame.payload.length
  const headerLength = headerLengthFor(length, maskKey !== undefined)
  let out: Uint8Array
  if (maskKey === undefined) {
    out = new Uint8Array(headerLength + length)
    out.set(frame.payload, headerLength)
  } else {
    // Masked straight into a fresh array with room left in front for the header: one copy.
    out = maskCopy(frame.payload, 0, length, maskKey, 0, headerLength)
  }
  writeHeader(out, frame, length, maskKey)
  return out
}
