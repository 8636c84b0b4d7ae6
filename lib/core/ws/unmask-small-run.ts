/**
 * `unmaskSmallRun`: the run of small whole frames at an offset of a chunk (the frames
 * `unmaskSmallFrame` takes, one after the other), unmasked at once into one output buffer
 * as the server frames that carry the same payloads; and, when every payload of the run is
 * ASCII, the whole run read as one string (`readSmallRun`), so that a connection makes the
 * text of each message as a substring of it instead of calling the runtime's decoder once
 * per message (which costs more than the rest of a small echo's decoding).
 *
 * The output of a run: `[first byte, length, payload...]` per frame, back to back, so frame
 * `k` starts where frame `k - 1`'s payload ends, and a payload's offset in `out` is its
 * offset in the string `readSmallRun` answers.
 *
 * Pure and portable: no node:* imports, no Buffer. Never throws; never writes to `bytes`.
 */
import * as header from './frame-header.js'
import { NOT_SMALL, SMALL_NOT_ASCII, smallFrameLength } from './unmask-small-frame.js'

// frame-header.ts's bits as this module's own constants: V8 folds a module's own `const`s into
// the code it optimizes, but loads an imported binding at every use, and these are read per frame.
const FIN_BIT = header.FIN_BIT
const FIN_BINARY = header.FIN_BINARY
const LENGTH_BITS = header.LENGTH_BITS

/**
 * The size of the frame at `out[at]` of a run: `[first byte, length, payload...]`, a server
 * frame with a 7-bit length (RFC 6455 §5.2).
 *
 * @example
 * runFrameSize(Uint8Array.of(0x81, 0x01, 0x61, 0x81, 0x02, 0x62, 0x63), 3) // 4
 */
export const runFrameSize = (out: Uint8Array, at: number): number => 2 + out[at + 1]!

/**
 * Whether the frame at `out[at]` of a run is binary (a run holds final text and binary
 * frames only). Apart from `frameOpcode` so that its reads see only the run's arrays.
 *
 * @example
 * isBinaryRunFrame(Uint8Array.of(0x82, 0x01, 0x00), 0) // true
 */
export const isBinaryRunFrame = (out: Uint8Array, at: number): boolean => out[at] === FIN_BINARY

/**
 * The bytes of the server frames for the run of small frames from `bytes[at]` (the buffer
 * ends at `end`): each frame `smallFrameLength` takes, while the total stays within `limit`.
 * 0 when the frame at `at` is not one (or does not fit).
 *
 * @example
 * // Two masked texts "a" and "bc" (6 + 1 and 6 + 2 bytes): server frames of 3 and 4 bytes.
 * const bytes = Uint8Array.of(0x81, 0x81, 0, 0, 0, 0, 0x61, 0x81, 0x82, 0, 0, 0, 0, 0x62, 0x63)
 * smallRunSize(bytes, 0, bytes.length, 125, 4095) // 7
 */
export const smallRunSize = (bytes: Uint8Array, at: number, end: number, maxLength: number, limit: number): number => {
  let size = 0
  for (let next = at; ; ) {
    const length = smallFrameLength(bytes, next, end, maxLength)
    if (length === NOT_SMALL || size + 2 + length > limit) return size
    size += 2 + length
    next += 6 + length
  }
}

/**
 * Unmasks the run of small frames from `bytes[at]` into `out[0, size)`, where `size` is what
 * `smallRunSize` answered for the same bytes and offset (at most `out.length`): the frames are
 * not checked again. Answers `SMALL_NOT_ASCII` when a payload of the run has a byte past
 * 0x7f, else 0. The run consumes `size + 4 * frames` bytes of `bytes` (a server frame has no key).
 *
 * @example
 * const bytes = Uint8Array.of(0x81, 0x81, 0, 0, 0, 0, 0x61, 0x81, 0x82, 0, 0, 0, 0, 0x62, 0x63)
 * const out = new Uint8Array(7)
 * unmaskSmallRun(bytes, 0, out, 7) // 0: out is 81 01 61 81 02 62 63
 */
export const unmaskSmallRun = (bytes: Uint8Array, at: number, out: Uint8Array, size: number): number => {
  // smallRunSize took every frame of the run (final, masked, a 7-bit length within the
  // limit, every byte there), so each is unmasked here without judging it again.
  let seen = 0
  let from = at
  for (let outAt = 0; outAt < size; ) {
    // RFC 6455 §5.2: the first byte as it is (FIN, opcode), the length without the mask bit.
    const length = bytes[from + 1]! & LENGTH_BITS
    out[outAt] = bytes[from]!
    out[outAt + 1] = length
    // §5.3: the key is the 4 bytes before the payload; payload byte i is XORed with key byte i mod 4.
    const k0 = bytes[from + 2]!
    const k1 = bytes[from + 3]!
    const k2 = bytes[from + 4]!
    const k3 = bytes[from + 5]!
    let p = from + 6
    let o = outAt + 2
    for (const whole = o + (length & ~3); o < whole; o += 4, p += 4) {
      const c0 = bytes[p]! ^ k0
      const c1 = bytes[p + 1]! ^ k1
      const c2 = bytes[p + 2]! ^ k2
      const c3 = bytes[p + 3]! ^ k3
      out[o] = c0
      out[o + 1] = c1
      out[o + 2] = c2
      out[o + 3] = c3
      seen |= c0 | c1 | c2 | c3
    }
    const last = outAt + 2 + length
    for (let phase = 0; o < last; o++, p++, phase++) {
      const c = bytes[p]! ^ (phase === 0 ? k0 : phase === 1 ? k1 : k2)
      out[o] = c
      seen |= c
    }
    outAt = last
    from = p
  }
  return (seen & 0x80) === 0 ? 0 : SMALL_NOT_ASCII
}

/**
 * The run `out[0, size)` of frames unmasked by `unmaskSmallRun`, every payload ASCII, read as
 * one string by `decodeAscii` (any reader of ASCII text): character `i` is byte `i`, so a
 * payload `out[from, to)` is the string's `substring(from, to)`. The first byte of every frame
 * is read without its FIN bit (0x01 text, 0x02 binary: ASCII too) and restored afterwards, so
 * `decodeAscii` only ever sees ASCII and `out` is as it was.
 *
 * @example
 * const out = Uint8Array.of(0x81, 0x01, 0x61, 0x81, 0x02, 0x62, 0x63)
 * readSmallRun(out, 7, (b, from, to) => String.fromCharCode(...b.subarray(from, to))).substring(5, 7) // 'bc'
 */
export const readSmallRun = (out: Uint8Array, size: number, decodeAscii: (bytes: Uint8Array, from: number, to: number) => string): string => {
  // RFC 6455 §5.2: the first byte's high bit is FIN, set in every frame of a run.
  for (let at = 0; at < size; at += runFrameSize(out, at)) out[at] = out[at]! & ~FIN_BIT
  const text = decodeAscii(out, 0, size)
  for (let at = 0; at < size; at += runFrameSize(out, at)) out[at] = out[at]! | FIN_BIT
  return text
}

/**
 * Whether `bytes[from, to)` is ASCII (no byte past 0x7f).
 *
 * @example
 * isAsciiRange(Uint8Array.of(0x68, 0xc3, 0xa9), 0, 1) // true
 */
export const isAsciiRange = (bytes: Uint8Array, from: number, to: number): boolean => {
  let seen = 0
  for (let i = from; i < to; i++) seen |= bytes[i]!
  return seen < 0x80
}
