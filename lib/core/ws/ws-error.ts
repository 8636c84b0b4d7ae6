/**
 * Every WebSocket protocol error the core detects, as a tagged union. Each variant carries
 * the facts (opcode, length, limit) and its consequence: the close code the shell sends
 * (RFC 6455 §7.4.1) and a short ASCII `reason` for the close frame (well under the 123 bytes
 * a close reason may take).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { CLOSE_CODE } from './close-code.js'

type ProtocolError = typeof CLOSE_CODE.PROTOCOL_ERROR
type InvalidPayload = typeof CLOSE_CODE.INVALID_PAYLOAD
type TooBig = typeof CLOSE_CODE.MESSAGE_TOO_BIG

/** A client frame arrived without a mask (RFC 6455 §5.1). */
export interface UnmaskedFrame {
  readonly _tag: 'UnmaskedFrame'
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** RSV1, RSV2 or RSV3 set with no extension negotiated that defines it (RFC 6455 §5.2). */
export interface ReservedBits {
  readonly _tag: 'ReservedBits'
  /** The RSV bits as they were set: 4 = RSV1, 2 = RSV2, 1 = RSV3. */
  readonly bits: number
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** Opcode 3–7 or 11–15 (RFC 6455 §5.2). */
export interface ReservedOpcode {
  readonly _tag: 'ReservedOpcode'
  readonly opcode: number
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** A close, ping or pong frame without FIN (RFC 6455 §5.5). */
export interface FragmentedControlFrame {
  readonly _tag: 'FragmentedControlFrame'
  readonly opcode: number
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** A control frame announcing more than 125 bytes (RFC 6455 §5.5). */
export interface ControlFrameTooLong {
  readonly _tag: 'ControlFrameTooLong'
  readonly opcode: number
  /** The 7-bit length field: 126 or 127 mean an extended length was announced. */
  readonly lengthField: number
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** A 64-bit payload length with its most significant bit set (RFC 6455 §5.2). */
export interface LengthOutOfRange {
  readonly _tag: 'LengthOutOfRange'
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** One frame's payload is larger than `FrameLimits.maxPayload`. */
export interface FrameTooBig {
  readonly _tag: 'FrameTooBig'
  readonly length: number
  readonly limit: number
  readonly closeCode: TooBig
  readonly reason: string
}

/** A message (all its fragments together) is larger than the assembly limit. */
export interface MessageTooBig {
  readonly _tag: 'MessageTooBig'
  /** The size reached when the limit was crossed. */
  readonly size: number
  readonly limit: number
  readonly closeCode: TooBig
  readonly reason: string
}

/** A continuation frame with no fragmented message in progress (RFC 6455 §5.4). */
export interface UnexpectedContinuation {
  readonly _tag: 'UnexpectedContinuation'
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** A new text or binary frame while a fragmented message is still in progress (RFC 6455 §5.4). */
export interface ExpectedContinuation {
  readonly _tag: 'ExpectedContinuation'
  readonly opcode: number
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** Text that is not UTF-8: a text message or a close reason (RFC 6455 §8.1). */
export interface InvalidUtf8 {
  readonly _tag: 'InvalidUtf8'
  readonly where: 'text' | 'close-reason'
  readonly closeCode: InvalidPayload
  readonly reason: string
}

/** A close frame with a code that may not be sent (RFC 6455 §7.4). */
export interface InvalidCloseCode {
  readonly _tag: 'InvalidCloseCode'
  readonly code: number
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** A close frame with a one-byte payload: half a code (RFC 6455 §5.5.1). */
export interface ClosePayloadTooShort {
  readonly _tag: 'ClosePayloadTooShort'
  readonly closeCode: ProtocolError
  readonly reason: string
}

/**
 * RSV1 (permessage-deflate's "Per-Message Compressed" bit) on a control frame or a
 * continuation frame (RFC 7692 §6.1): the bit belongs on the first frame of a data message only.
 */
export interface MisplacedRsv1 {
  readonly _tag: 'MisplacedRsv1'
  readonly opcode: number
  readonly closeCode: ProtocolError
  readonly reason: string
}

/** A compressed message whose payload is not a valid DEFLATE stream (RFC 7692 §7.2.2). */
export interface InvalidCompressedData {
  readonly _tag: 'InvalidCompressedData'
  readonly closeCode: InvalidPayload
  readonly reason: string
}

/** What can go wrong on a WebSocket connection once it is open. */
export type WsError =
  | UnmaskedFrame
  | ReservedBits
  | MisplacedRsv1
  | InvalidCompressedData
  | ReservedOpcode
  | FragmentedControlFrame
  | ControlFrameTooLong
  | LengthOutOfRange
  | FrameTooBig
  | MessageTooBig
  | UnexpectedContinuation
  | ExpectedContinuation
  | InvalidUtf8
  | InvalidCloseCode
  | ClosePayloadTooShort

const PROTOCOL_ERROR: ProtocolError = CLOSE_CODE.PROTOCOL_ERROR
const TOO_BIG: TooBig = CLOSE_CODE.MESSAGE_TOO_BIG

/** @example unmaskedFrame().closeCode // 1002 */
export const unmaskedFrame = (): UnmaskedFrame => ({
  _tag: 'UnmaskedFrame',
  closeCode: PROTOCOL_ERROR,
  reason: 'client frames must be masked',
})

/** @example reservedBits(4).reason // 'reserved bits set: RSV1' */
export const reservedBits = (bits: number): ReservedBits => ({
  _tag: 'ReservedBits',
  bits,
  closeCode: PROTOCOL_ERROR,
  reason: `reserved bits set: ${[bits & 4 ? 'RSV1' : '', bits & 2 ? 'RSV2' : '', bits & 1 ? 'RSV3' : ''].filter(Boolean).join(' ')}`,
})

/** @example misplacedRsv1(9).reason // 'RSV1 on a control frame' */
export const misplacedRsv1 = (opcode: number): MisplacedRsv1 => ({
  _tag: 'MisplacedRsv1',
  opcode,
  closeCode: PROTOCOL_ERROR,
  reason: opcode === 0 ? 'RSV1 on a continuation frame' : 'RSV1 on a control frame',
})

/** @example invalidCompressedData().closeCode // 1007 */
export const invalidCompressedData = (): InvalidCompressedData => ({
  _tag: 'InvalidCompressedData',
  closeCode: CLOSE_CODE.INVALID_PAYLOAD,
  reason: 'invalid compressed data',
})

/** @example reservedOpcode(3).reason // 'reserved opcode 3' */
export const reservedOpcode = (opcode: number): ReservedOpcode => ({
  _tag: 'ReservedOpcode',
  opcode,
  closeCode: PROTOCOL_ERROR,
  reason: `reserved opcode ${opcode}`,
})

/** @example fragmentedControlFrame(9).closeCode // 1002 */
export const fragmentedControlFrame = (opcode: number): FragmentedControlFrame => ({
  _tag: 'FragmentedControlFrame',
  opcode,
  closeCode: PROTOCOL_ERROR,
  reason: 'fragmented control frame',
})

/** @example controlFrameTooLong(9, 126).reason // 'control frame over 125 bytes' */
export const controlFrameTooLong = (opcode: number, lengthField: number): ControlFrameTooLong => ({
  _tag: 'ControlFrameTooLong',
  opcode,
  lengthField,
  closeCode: PROTOCOL_ERROR,
  reason: 'control frame over 125 bytes',
})

/** @example lengthOutOfRange().closeCode // 1002 */
export const lengthOutOfRange = (): LengthOutOfRange => ({
  _tag: 'LengthOutOfRange',
  closeCode: PROTOCOL_ERROR,
  reason: '64-bit length with the top bit set',
})

/** @example frameTooBig(2000, 1024).closeCode // 1009 */
export const frameTooBig = (length: number, limit: number): FrameTooBig => ({
  _tag: 'FrameTooBig',
  length,
  limit,
  closeCode: TOO_BIG,
  reason: 'frame too big',
})

/** @example messageTooBig(2000, 1024).closeCode // 1009 */
export const messageTooBig = (size: number, limit: number): MessageTooBig => ({
  _tag: 'MessageTooBig',
  size,
  limit,
  closeCode: TOO_BIG,
  reason: 'message too big',
})

/** @example unexpectedContinuation().closeCode // 1002 */
export const unexpectedContinuation = (): UnexpectedContinuation => ({
  _tag: 'UnexpectedContinuation',
  closeCode: PROTOCOL_ERROR,
  reason: 'continuation frame without a message to continue',
})

/** @example expectedContinuation(1).closeCode // 1002 */
export const expectedContinuation = (opcode: number): ExpectedContinuation => ({
  _tag: 'ExpectedContinuation',
  opcode,
  closeCode: PROTOCOL_ERROR,
  reason: 'new data frame inside a fragmented message',
})

/** @example invalidUtf8('text').closeCode // 1007 */
export const invalidUtf8 = (where: InvalidUtf8['where']): InvalidUtf8 => ({
  _tag: 'InvalidUtf8',
  where,
  closeCode: CLOSE_CODE.INVALID_PAYLOAD,
  reason: where === 'text' ? 'invalid UTF-8 in text message' : 'invalid UTF-8 in close reason',
})

/** @example invalidCloseCode(1005).reason // 'invalid close code 1005' */
export const invalidCloseCode = (code: number): InvalidCloseCode => ({
  _tag: 'InvalidCloseCode',
  code,
  closeCode: PROTOCOL_ERROR,
  reason: `invalid close code ${code}`,
})

/** @example closePayloadTooShort().closeCode // 1002 */
export const closePayloadTooShort = (): ClosePayloadTooShort => ({
  _tag: 'ClosePayloadTooShort',
  closeCode: PROTOCOL_ERROR,
  reason: 'close payload of one byte',
})
