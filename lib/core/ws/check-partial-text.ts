/**
 * UTF-8 checks on a text frame that is still arriving, so a connection fails on the read
 * that brings the first invalid byte (RFC 6455 §8.1: "MUST _Fail the WebSocket Connection_"
 * when text is not UTF-8), not once the whole frame, perhaps megabytes later, is in.
 *
 * `decodeFrame` waits for whole frames, and `assembleMessage` validates whole frames; this
 * module looks at the payload bytes before that. `startPartialText` reads the header at the
 * start of the buffered bytes and checks the payload bytes already there; each later read
 * goes through `continuePartialText`, which checks only the new bytes (the bytes of a code
 * point still open travel in the value), so a large frame costs one pass, not one per read.
 * The complete frame is still decoded and validated by `assembleMessage` as usual.
 *
 * Pure and portable: no node:* imports, no Buffer. Never modifies the bytes it is given.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { AssemblyState } from './assemble-message.js'
import { OPCODE } from './frame.js'
import { frameOpcode, MASK_BIT, MASK_KEY_SIZE, payloadOffset, readPayloadLength, RSV1_BIT } from './frame-header.js'
import { JS_MASKER, type Masker } from './mask.js'
import { decodeUtf8Fragment } from './utf8.js'
import { invalidUtf8, type InvalidUtf8 } from './ws-error.js'

/** How far the payload of an incomplete text frame has been checked. */
export interface PartialText {
  readonly _tag: 'PartialText'
  /** Payload bytes still to come before the frame is complete. */
  readonly remaining: number
  /** Payload bytes checked so far (the masking key's phase for the next byte). */
  readonly checked: number
  /** The 4-byte masking key, or `undefined` for an unmasked frame. */
  readonly key: Uint8Array | undefined
  /** The bytes of a code point cut at the end of what was checked. */
  readonly pending: Uint8Array
}

const EMPTY = new Uint8Array(0)

// The key rotated so that its byte 0 masks payload byte `checked`.
const keyAt = (key: Uint8Array, checked: number): Uint8Array => {
  const p = checked & 3
  return p === 0 ? key : Uint8Array.of(key[p]!, key[(p + 1) & 3]!, key[(p + 2) & 3]!, key[(p + 3) & 3]!)
}

/**
 * Checks `chunk`, the next payload bytes of the frame (at most `remaining` of them; the
 * caller gives no bytes past the frame's end), unmasked by `masker` (JavaScript unless given).
 *
 * @example
 * const next = continuePartialText(scan, chunk) // Left(InvalidUtf8) at the first bad byte
 */
export const continuePartialText = (scan: PartialText, chunk: Uint8Array, masker: Masker = JS_MASKER): E.Either<InvalidUtf8, PartialText> => {
  if (chunk.length === 0) return E.right(scan)
  const plain = scan.key === undefined ? chunk : masker.maskCopy(chunk, 0, chunk.length, keyAt(scan.key, scan.checked), 0)
  const progress = decodeUtf8Fragment(scan.pending, plain)
  if (progress === undefined) return E.left(invalidUtf8('text'))
  return E.right({
    _tag: 'PartialText',
    remaining: scan.remaining - chunk.length,
    checked: scan.checked + chunk.length,
    key: scan.key,
    pending: progress.pending,
  })
}

/**
 * When `bytes` start with the complete header of an incomplete frame that carries text (a
 * text frame, or a continuation while a text message is in progress), checks the payload
 * bytes already there and answers how far it got; `undefined` for any other frame, or when
 * the header itself is not complete yet (and for a compressed frame, RSV1 set, whose bytes
 * are not text until inflated). For bytes `decodeFrame` answered `NeedMore` to
 * (which has validated the header's bits and limits). A masked payload is unmasked by `masker`.
 *
 * @example
 * // A masked text frame announcing 100 bytes, of which 3 arrived: ff is never UTF-8.
 * startPartialText(bytes, initialAssembly) // Left(InvalidUtf8), close code 1007
 */
export const startPartialText = (bytes: Uint8Array, state: AssemblyState, masker: Masker = JS_MASKER): E.Either<InvalidUtf8, PartialText> | undefined => {
  if (bytes.length < 2) return undefined
  const opcode = frameOpcode(bytes)
  // A text frame with RSV1 starts a compressed message (RFC 7692 §6): its bytes are DEFLATE
  // data, checked as UTF-8 only once inflated. Its continuations are skipped too, as the
  // state is then `CompressedInProgress`, not `TextInProgress`.
  const text =
    (opcode === OPCODE.TEXT && state._tag === 'Idle' && (bytes[0]! & RSV1_BIT) === 0) ||
    (opcode === OPCODE.CONTINUATION && state._tag === 'TextInProgress')
  if (!text) return undefined
  // RFC 6455 §5.2: a 7-bit length, or 126 + 16 bits, or 127 + 64 bits, then the key if masked.
  const masked = (bytes[1]! & MASK_BIT) !== 0
  const headerLength = payloadOffset(bytes)
  if (bytes.length < headerLength) return undefined
  // decodeFrame has ruled out lengths past 2^53, so the length is exact.
  const length = readPayloadLength(bytes, 0)
  const here = Math.min(bytes.length - headerLength, length)
  const scan: PartialText = {
    _tag: 'PartialText',
    remaining: length,
    checked: 0,
    key: masked ? bytes.slice(headerLength - MASK_KEY_SIZE, headerLength) : undefined,
    pending: state._tag === 'TextInProgress' ? state.pending : EMPTY,
  }
  return continuePartialText(scan, bytes.subarray(headerLength, headerLength + here), masker)
}
