/**
 * `unmaskSmallFrame`: the fast path of `decodeFrame` + `assembleMessage` for the frame a
 * client sends most: a whole message in one final, masked text or binary frame of at most
 * 125 bytes. It reads such a frame at an offset of a buffer, without a value per frame, and
 * writes it unmasked as the server frame that carries the same payload, so a connection can
 * decode a run of them from one chunk into one output buffer and echo any of them as it lies.
 *
 * Anything else (a longer, fragmented, unmasked, compressed, control or incomplete frame, or
 * one past the limits) is answered "not mine" (`NOT_SMALL`), before anything is judged: the
 * caller hands that frame to the general decoder, which gives its value or its error. So
 * every close code stays the general decoder's; the one judgement left to the caller is
 * UTF-8 (`SMALL_NOT_ASCII`: check the payload, and give the frame to the general decoder when
 * it is not UTF-8, for its 1007).
 *
 * Pure and portable: no node:* imports, no Buffer. Never throws; never writes to `bytes`,
 * only to `out` (which the caller owns).
 */
import * as header from './frame-header.js'

// frame-header.ts's bits as this module's own constants: V8 folds a module's own `const`s into
// the code it optimizes, but loads an imported binding at every use, and these are read per frame.
const FIN_TEXT = header.FIN_TEXT
const FIN_BINARY = header.FIN_BINARY
const MASK_BIT = header.MASK_BIT
const LENGTH_BITS = header.LENGTH_BITS

/** The answer for a frame the fast path does not take. */
export const NOT_SMALL = -1

/** Set in the answer when the payload has a byte past 0x7f (a text payload then needs a UTF-8 check). */
export const SMALL_NOT_ASCII = 0x100

/** The largest payload this path takes: what a 7-bit length holds (RFC 6455 §5.2). */
export const SMALL_MAX = 125

/**
 * The payload length of the frame at `bytes[at]` (the buffer ends at `end`) when
 * `unmaskSmallFrame` takes it, else `NOT_SMALL`: its header alone is read, so a caller can
 * size the output of a run of frames before unmasking them.
 *
 * @example
 * smallFrameLength(Uint8Array.of(0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58), 0, 11, 1024) // 5
 */
export const smallFrameLength = (bytes: Uint8Array, at: number, end: number, maxLength: number): number => {
  if (end - at < 6) return NOT_SMALL
  const b0 = bytes[at]!
  const b1 = bytes[at + 1]!
  if ((b0 !== FIN_TEXT && b0 !== FIN_BINARY) || (b1 & MASK_BIT) === 0) return NOT_SMALL
  const length = b1 & LENGTH_BITS
  return length > SMALL_MAX || length > maxLength || end - at < 6 + length ? NOT_SMALL : length
}

/**
 * Reads the frame at `bytes[at]` (the buffer ends at `end`). When it is a final, masked text
 * (0x81) or binary (0x82) frame with RSV1-3 clear, a 7-bit length of at most `maxLength`
 * (and 125), and all `6 + length` bytes present, writes at `out[outAt]` the unmasked frame
 * `[first byte, length, payload...]` (`2 + length` bytes) and answers the payload length, with
 * `SMALL_NOT_ASCII` added when a payload byte is past 0x7f. Otherwise answers `NOT_SMALL`
 * and `out` may hold scratch bytes at `outAt`. `out` needs room at `outAt` for 127 bytes or
 * for `end - at - 4`, whichever is fewer (a server frame is 4 bytes shorter: no key).
 *
 * The frame consumes `6 + length` bytes of `bytes`; the payload is at `out[outAt + 2]`.
 *
 * @example
 * // RFC 6455 §5.7: a single-frame masked text message "Hello".
 * const bytes = Uint8Array.of(0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58)
 * const out = new Uint8Array(7)
 * unmaskSmallFrame(bytes, 0, bytes.length, 1024, out, 0) // 5: out is 81 05 48 65 6c 6c 6f
 */
export const unmaskSmallFrame = (bytes: Uint8Array, at: number, end: number, maxLength: number, out: Uint8Array, outAt: number): number => {
  const length = smallFrameLength(bytes, at, end, maxLength)
  if (length === NOT_SMALL) return NOT_SMALL
  const b0 = bytes[at]!
  // §5.3: the key is the 4 bytes before the payload; payload byte i is XORed with key byte i mod 4.
  const k0 = bytes[at + 2]!
  const k1 = bytes[at + 3]!
  const k2 = bytes[at + 4]!
  const k3 = bytes[at + 5]!
  out[outAt] = b0
  out[outAt + 1] = length
  const from = at + 6
  const to = outAt + 2
  let seen = 0
  let i = 0
  for (; i + 4 <= length; i += 4) {
    const c0 = bytes[from + i]! ^ k0
    const c1 = bytes[from + i + 1]! ^ k1
    const c2 = bytes[from + i + 2]! ^ k2
    const c3 = bytes[from + i + 3]! ^ k3
    out[to + i] = c0
    out[to + i + 1] = c1
    out[to + i + 2] = c2
    out[to + i + 3] = c3
    seen |= c0 | c1 | c2 | c3
  }
  for (; i < length; i++) {
    const phase = i & 3
    const c = bytes[from + i]! ^ (phase === 0 ? k0 : phase === 1 ? k1 : k2)
    out[to + i] = c
    seen |= c
  }
  return (seen & 0x80) === 0 ? length : length | SMALL_NOT_ASCII
}
