/**
 * Builders for the frames a server sends: one function per kind, each giving an `OutFrame`
 * that is valid as built (control payloads kept within 125 bytes).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { buildClosePayload } from './close-payload.js'
import { MAX_CONTROL_PAYLOAD, OPCODE, type OutFrame } from './frame.js'

const encoder = new TextEncoder()

/** @example encodeFrameBytes(textFrame('Hello')) // 81 05 48 65 6c 6c 6f */
export const textFrame = (text: string): OutFrame => ({ opcode: OPCODE.TEXT, payload: encoder.encode(text) })

/** The bytes are sent as they are (not copied). @example binaryFrame(new Uint8Array([1, 2])) */
export const binaryFrame = (bytes: Uint8Array): OutFrame => ({ opcode: OPCODE.BINARY, payload: bytes })

const controlPayload = (payload: Uint8Array): Uint8Array =>
  payload.length <= MAX_CONTROL_PAYLOAD ? payload : payload.subarray(0, MAX_CONTROL_PAYLOAD)

/** A ping; a payload past 125 bytes is cut to 125. @example pingFrame() */
export const pingFrame = (payload: Uint8Array = new Uint8Array(0)): OutFrame => ({
  opcode: OPCODE.PING,
  payload: controlPayload(payload),
})

/** A pong, usually echoing a ping's payload (RFC 6455 §5.5.3); cut to 125 bytes. @example pongFrame(ping.payload) */
export const pongFrame = (payload: Uint8Array = new Uint8Array(0)): OutFrame => ({
  opcode: OPCODE.PONG,
  payload: controlPayload(payload),
})

/**
 * A close frame with a code and a reason (cut to fit); a code that may not be sent gives a
 * close frame without a payload (see `buildClosePayload`).
 *
 * @example encodeFrameBytes(closeFrame(1000, 'bye')) // 88 05 03 e8 62 79 65
 */
export const closeFrame = (code?: number, reason = ''): OutFrame => ({
  opcode: OPCODE.CLOSE,
  payload: buildClosePayload(code, reason),
})
