/**
 * The WebSocket frame header (RFC 6455 §5.2), written and read in one place: its size for a
 * payload length, the header written into a caller's array, and its fields read back from
 * the bytes. Every encoder (the core's, the engine's portable writer, an adapter's native
 * one), the decoder, and every reader of frame bytes in the engine (compression, delivery,
 * the small-frame path) go through here, so the length rule is written once.
 *
 * Small monomorphic functions over a `Uint8Array` and an offset, for V8 to inline: they sit
 * on the path of every frame sent, and allocate nothing.
 *
 * Pure and portable: no node:* imports, no Buffer. Never mutates anything but the `target`
 * it is given to write to.
 */
import { OPCODE, type OutFrame } from './frame.js'

// RFC 6455 §5.2, the first two bytes:
//
//   0                   1
//   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5
//  +-+-+-+-+-------+-+-------------+
//  |F|R|R|R| opcode|M| Payload len |
//  |I|S|S|S|  (4)  |A|     (7)     |
//  |N|V|V|V|       |S|             |
//  | |1|2|3|       |K|             |
//  +-+-+-+-+-------+-+-------------+

/** FIN, the high bit of the first byte: "Indicates that this is the final fragment in a message." */
export const FIN_BIT = 0x80
/** RSV1, the bit permessage-deflate uses (RFC 7692 §6); RSV2 and RSV3 follow it. */
export const RSV1_BIT = 0x40
/** RSV2. */
export const RSV2_BIT = 0x20
/** RSV3. */
export const RSV3_BIT = 0x10
/** The opcode, the low 4 bits of the first byte. */
export const OPCODE_BITS = 0x0f
/** MASK, the high bit of the second byte: "Defines whether the "Payload data" is masked." */
export const MASK_BIT = 0x80
/** The 7-bit payload length field, the low 7 bits of the second byte. */
export const LENGTH_BITS = 0x7f
/** "Masking-key: 0 or 4 bytes", after the length. */
export const MASK_KEY_SIZE = 4

/** The first byte of a final text frame without RSV bits: every whole text message the server sends. */
export const FIN_TEXT = FIN_BIT | OPCODE.TEXT
/** The first byte of a final binary frame without RSV bits. */
export const FIN_BINARY = FIN_BIT | OPCODE.BINARY
/** The first byte of a close frame (control frames are always final, RFC 6455 §5.5). */
export const FIN_CLOSE = FIN_BIT | OPCODE.CLOSE

// §5.2 "Payload length: 7 bits, 7+16 bits, or 7+64 bits. [...] If 0-125, that is the payload
// length. If 126, the following 2 bytes interpreted as a 16-bit unsigned integer are the
// payload length. If 127, the following 8 bytes interpreted as a 64-bit unsigned integer (the
// most significant bit MUST be 0) are the payload length. Multibyte length quantities are
// expressed in network byte order."
const LENGTH_16 = 126
const LENGTH_64 = 127
const MAX_16 = 0xffff
const TWO_32 = 0x1_0000_0000

/** `readPayloadLength`'s answer for a 64-bit length with its most significant bit set. */
export const LENGTH_OUT_OF_RANGE = -1

/**
 * The first byte of `frame`'s header: FIN (unless `fin` is `false`), the RSV bits it sets, and
 * its opcode (RFC 6455 §5.2).
 *
 * @example
 * firstByteOf({ fin: false, opcode: OPCODE.TEXT, payload: new Uint8Array(0) }) // 0x01
 * firstByteOf({ rsv1: true, opcode: OPCODE.BINARY, payload: new Uint8Array(0) }) // 0xc2
 */
export const firstByteOf = (frame: OutFrame): number =>
  (frame.fin === false ? 0 : FIN_BIT) |
  (frame.rsv1 === true ? RSV1_BIT : 0) |
  (frame.rsv2 === true ? RSV2_BIT : 0) |
  (frame.rsv3 === true ? RSV3_BIT : 0) |
  (frame.opcode & OPCODE_BITS)

/**
 * The header's size for a payload of `length` bytes: 2, 4 or 10 bytes, and 4 more for the
 * masking key when `masked` (RFC 6455 §5.2).
 *
 * @example
 * frameHeaderSize(125, false) // 2
 * frameHeaderSize(126, true) // 8
 * frameHeaderSize(65536, false) // 10
 */
export const frameHeaderSize = (length: number, masked: boolean): number =>
  (length < LENGTH_16 ? 2 : length <= MAX_16 ? 4 : 10) + (masked ? MASK_KEY_SIZE : 0)

/**
 * Writes the header of a frame at `target[at]`: the first byte `first` (FIN, RSV1-3 and the
 * opcode, as `FIN_TEXT`), the payload `length` in the shortest of the three forms, and the
 * masking key when one is given (a client's frame). `target` has room for
 * `frameHeaderSize(length, maskKey !== undefined)` bytes at `at`. Answers where the payload
 * starts. `length` is at most `Number.MAX_SAFE_INTEGER`.
 *
 * @example
 * const frame = new Uint8Array(7)
 * writeFrameHeader(frame, 0, FIN_TEXT, 5) // 2: frame starts 81 05
 */
export const writeFrameHeader = (target: Uint8Array, at: number, first: number, length: number, maskKey?: Uint8Array): number => {
  target[at] = first
  const maskBit = maskKey === undefined ? 0 : MASK_BIT
  let end: number
  if (length < LENGTH_16) {
    target[at + 1] = maskBit | length
    end = at + 2
  } else if (length <= MAX_16) {
    // §5.2: the 16-bit length in network byte order.
    target[at + 1] = maskBit | LENGTH_16
    target[at + 2] = length >>> 8
    target[at + 3] = length & 0xff
    end = at + 4
  } else {
    // §5.2: the 64-bit length in network byte order, as two 32-bit halves (a number is exact
    // up to 2^53, so the high half is below 2^21 and its top bit, which must be 0, is).
    target[at + 1] = maskBit | LENGTH_64
    const high = Math.floor(length / TWO_32)
    const low = length >>> 0
    target[at + 2] = high >>> 24
    target[at + 3] = (high >>> 16) & 0xff
    target[at + 4] = (high >>> 8) & 0xff
    target[at + 5] = high & 0xff
    target[at + 6] = low >>> 24
    target[at + 7] = (low >>> 16) & 0xff
    target[at + 8] = (low >>> 8) & 0xff
    target[at + 9] = low & 0xff
    end = at + 10
  }
  if (maskKey === undefined) return end
  // §5.3: the masking key is the last 4 bytes of the header.
  target[end] = maskKey[0]!
  target[end + 1] = maskKey[1]!
  target[end + 2] = maskKey[2]!
  target[end + 3] = maskKey[3]!
  return end + MASK_KEY_SIZE
}

/**
 * The size of a masked frame whose unmasked form is `unmaskedSize` bytes: the same header and
 * payload, and the 4-byte masking key (RFC 6455 §5.3).
 *
 * @example
 * maskedFrameSize(7) // 11: 81 05 + "Hello" from a client is 81 85, the key, and 5 bytes
 */
export const maskedFrameSize = (unmaskedSize: number): number => unmaskedSize + MASK_KEY_SIZE

/**
 * The opcode of the frame at `frame[at]` (RFC 6455 §5.2: the low 4 bits of the first byte).
 *
 * @example
 * frameOpcode(Uint8Array.of(0x88, 0x00)) // 8 (OPCODE.CLOSE)
 */
export const frameOpcode = (frame: Uint8Array, at = 0): number => frame[at]! & OPCODE_BITS

/**
 * Whether `bytes` begin with a close frame (a server writes one alone, never after data in
 * the same array; RFC 6455 §5.5.1).
 *
 * @example
 * isCloseFrame(Uint8Array.of(0x88, 0x02, 0x03, 0xe8)) // true
 */
export const isCloseFrame = (bytes: Uint8Array): boolean => bytes[0] === FIN_CLOSE

/**
 * The header's size up to the end of the payload length, from its second byte (the masking
 * key, if any, follows): 2, 4 or 10 (RFC 6455 §5.2).
 *
 * @example
 * lengthEnd(0x7e) // 4: a 16-bit length follows
 */
export const lengthEnd = (secondByte: number): number => {
  const field = secondByte & LENGTH_BITS
  return field < LENGTH_16 ? 2 : field === LENGTH_16 ? 4 : 10
}

/**
 * Where the payload of the frame at `frame[at]` starts, relative to `at`: the header's whole
 * size, read from its second byte (2, 4 or 10, and 4 more when masked). The bytes of the
 * extended length need not be there yet.
 *
 * @example
 * payloadOffset(Uint8Array.of(0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f)) // 2
 * payloadOffset(Uint8Array.of(0x82, 0x7e, 0x01, 0x00)) // 4: a 256-byte payload follows
 * payloadOffset(Uint8Array.of(0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d)) // 6
 */
export const payloadOffset = (frame: Uint8Array, at = 0): number => {
  const second = frame[at + 1]!
  return lengthEnd(second) + ((second & MASK_BIT) === 0 ? 0 : MASK_KEY_SIZE)
}

/**
 * The payload length announced by the header at `bytes[at]`, whose first `lengthEnd` bytes
 * are there; `LENGTH_OUT_OF_RANGE` when a 64-bit length has its most significant bit set
 * (RFC 6455 §5.2 "MUST be 0"). A 64-bit length past 2^53 comes back rounded, as any number
 * that large.
 *
 * @example
 * readPayloadLength(Uint8Array.of(0x82, 0x7e, 0x01, 0x00), 0) // 256
 */
export const readPayloadLength = (bytes: Uint8Array, at: number): number => {
  const field = bytes[at + 1]! & LENGTH_BITS
  if (field < LENGTH_16) return field
  if (field === LENGTH_16) return (bytes[at + 2]! << 8) | bytes[at + 3]!
  const high = ((bytes[at + 2]! << 24) | (bytes[at + 3]! << 16) | (bytes[at + 4]! << 8) | bytes[at + 5]!) >>> 0
  if (high > 0x7fffffff) return LENGTH_OUT_OF_RANGE
  const low = ((bytes[at + 6]! << 24) | (bytes[at + 7]! << 16) | (bytes[at + 8]! << 8) | bytes[at + 9]!) >>> 0
  return high * TWO_32 + low
}
