/**
 * `decodeFrame`: one WebSocket frame from the front of a byte buffer (RFC 6455 §5.2), as an
 * incremental decoder (DESIGN §2). Every rule that can be checked from the first two bytes is
 * checked there; the payload limit is checked as soon as the length is read, before any of
 * the payload is waited for.
 *
 * Pure and portable: no node:* imports, no Buffer. Never throws, never mutates its input.
 */
import * as E from 'fp-ts/lib/Either.js'
import { type DecodeStep, needMore, parsed } from '../decode-step.js'
import { type Frame, type FrameLimits, isControlOpcode, MAX_CONTROL_PAYLOAD } from './frame.js'
import * as header from './frame-header.js'
import { lengthEnd, readPayloadLength } from './frame-header.js'
import { JS_MASKER, type Masker } from './mask.js'
import {
  controlFrameTooLong,
  fragmentedControlFrame,
  frameTooBig,
  lengthOutOfRange,
  misplacedRsv1,
  reservedBits,
  reservedOpcode,
  unmaskedFrame,
  type WsError,
} from './ws-error.js'

// Opcodes RFC 6455 §5.2 defines: 0x0–0x2 and 0x8–0xA (bit i set = opcode i defined).
const DEFINED_OPCODES = 0b0000_0111_0000_0111

// frame-header.ts's bits as this module's own constants: V8 folds a module's own `const`s into
// the code it optimizes, but loads an imported binding at every use, and these are read per frame.
const FIN_BIT = header.FIN_BIT
const OPCODE_BITS = header.OPCODE_BITS
const MASK_BIT = header.MASK_BIT
const LENGTH_BITS = header.LENGTH_BITS
const MASK_KEY_SIZE = header.MASK_KEY_SIZE
const LENGTH_OUT_OF_RANGE = header.LENGTH_OUT_OF_RANGE

const NEED_TWO: E.Either<never, DecodeStep<never>> = E.right(needMore(2))

/**
 * Decodes the frame at the front of `bytes`.
 *
 * - `Right(NeedMore(n))`: wait until `n` bytes are buffered, then call again with all of them.
 *   First `n` covers the header up to the payload length (2, 4 or 10 bytes); once the length
 *   is read, `n` is the whole frame's size, so the caller can concatenate once.
 * - `Right(Parsed(frame, rest))`: the frame, and the bytes after it as a view of `bytes`.
 *   The payload is unmasked into a new array; an unmasked payload is a view of `bytes`.
 * - `Left(WsError)`: a protocol error, with the close code to send.
 *
 * A masked payload is unmasked by `masker` (JavaScript unless given: a server passes its own,
 * `createMasker`, which uses WebAssembly SIMD).
 *
 * @example
 * // RFC 6455 §5.7: a single-frame masked text message "Hello".
 * const bytes = new Uint8Array([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
 * const step = decodeFrame(bytes, { maxPayload: 1024, requireMask: true })
 * // Right(Parsed({ fin: true, opcode: 1, payload: 'Hello' as bytes, ... }, rest: empty))
 */
export const decodeFrame = (bytes: Uint8Array, limits: FrameLimits, masker: Masker = JS_MASKER): E.Either<WsError, DecodeStep<Frame>> => {
  const available = bytes.length
  if (available < 2) return NEED_TWO
  const b0 = bytes[0]!
  const b1 = bytes[1]!

  // §5.2: FIN, RSV1–3, opcode in the first byte; MASK and the 7-bit length in the second.
  const fin = (b0 & FIN_BIT) !== 0
  const rsv = (b0 >>> 4) & 0x7
  const opcode = b0 & OPCODE_BITS
  if (rsv !== 0 && (rsv !== 0x4 || limits.allowRsv1 !== true)) return E.left(reservedBits(rsv))
  if (((DEFINED_OPCODES >>> opcode) & 1) === 0) return E.left(reservedOpcode(opcode))
  // RFC 7692 §6.1: "An endpoint MUST NOT set the "Per-Message Compressed" bit of control
  // frames and non-first fragments of a data message." RSV1 is only left here when allowed;
  // a defined opcode is a continuation (0) or a control frame (8 and up) outside 1 and 2.
  if (rsv !== 0 && (opcode === 0 || opcode > 2)) return E.left(misplacedRsv1(opcode))
  const masked = (b1 & MASK_BIT) !== 0
  if (!masked && limits.requireMask) return E.left(unmaskedFrame())
  const lengthField = b1 & LENGTH_BITS
  if (isControlOpcode(opcode)) {
    // §5.5: control frames are never fragmented and carry at most 125 bytes.
    if (!fin) return E.left(fragmentedControlFrame(opcode))
    if (lengthField > MAX_CONTROL_PAYLOAD) return E.left(controlFrameTooLong(opcode, lengthField))
  }

  // §5.2: 126 means a 16-bit length follows, 127 a 64-bit one (most significant bit 0).
  // Wait for the length alone first: the limit is checked before the mask key is waited for.
  const lengthAt = lengthEnd(b1)
  if (available < lengthAt) return E.right(needMore(lengthAt))
  const headerLength = lengthAt + (masked ? MASK_KEY_SIZE : 0)
  const length = readPayloadLength(bytes, 0)
  if (length === LENGTH_OUT_OF_RANGE) return E.left(lengthOutOfRange())
  // Checked before the mask key and the payload are waited for. Past 2^53 a length is no
  // longer exact, so such a frame is too big for any limit.
  if (length > limits.maxPayload || length > Number.MAX_SAFE_INTEGER) return E.left(frameTooBig(length, limits.maxPayload))

  const end = headerLength + length
  if (available < end) return E.right(needMore(end))
  // §5.3: the masking key is the last 4 bytes of the header.
  const payload = masked ? masker.maskCopy(bytes, headerLength, end, bytes, headerLength - MASK_KEY_SIZE) : bytes.subarray(headerLength, end)
  const frame: Frame = {
    fin,
    rsv1: (rsv & 0x4) !== 0,
    rsv2: (rsv & 0x2) !== 0,
    rsv3: (rsv & 0x1) !== 0,
    opcode,
    payload,
  }
  return E.right(parsed(frame, bytes.subarray(end)))
}
