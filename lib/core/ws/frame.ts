/**
 * WebSocket frames as values (RFC 6455 §5.2): the opcodes, a decoded `Frame`, the `OutFrame`
 * the encoder takes, and the limits the decoder enforces.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/**
 * The opcodes RFC 6455 §5.2 defines; 3–7 and 11–15 are reserved and rejected (1002).
 *
 * @example
 * OPCODE.TEXT // 1
 */
export const OPCODE = Object.freeze({
  CONTINUATION: 0x0,
  TEXT: 0x1,
  BINARY: 0x2,
  CLOSE: 0x8,
  PING: 0x9,
  PONG: 0xa,
} as const)

/** One of the defined opcodes. */
export type Opcode = (typeof OPCODE)[keyof typeof OPCODE]

/** The largest payload of a control frame (RFC 6455 §5.5). */
export const MAX_CONTROL_PAYLOAD = 125

/**
 * A decoded frame. The payload is always unmasked: a view into the decoder's input when the
 * frame was sent unmasked, a fresh array when it had to be unmasked.
 */
export interface Frame {
  readonly fin: boolean
  readonly rsv1: boolean
  readonly rsv2: boolean
  readonly rsv3: boolean
  readonly opcode: number
  readonly payload: Uint8Array
}

/** A frame to encode: FIN defaults to true, the RSV bits to false. A `Frame` is an `OutFrame`. */
export interface OutFrame {
  readonly fin?: boolean
  readonly rsv1?: boolean
  readonly rsv2?: boolean
  readonly rsv3?: boolean
  readonly opcode: number
  readonly payload: Uint8Array
}

/** What `decodeFrame` enforces. */
export interface FrameLimits {
  /** The largest payload accepted in one frame, checked as soon as the length is read (1009). */
  readonly maxPayload: number
  /**
   * `true` on a server: every frame from a client must be masked (RFC 6455 §5.1), else 1002.
   * `false` accepts masked and unmasked frames alike (a client, or tests).
   */
  readonly requireMask: boolean
  /**
   * RSV1 is allowed on the first frame of a data message, because permessage-deflate was
   * negotiated (RFC 7692 §6). Still 1002 on a control or continuation frame (§6.1), and
   * without this flag (RFC 6455 §5.2).
   */
  readonly allowRsv1?: boolean
}

/** Control frames (close, ping, pong) have the high bit of the opcode set (RFC 6455 §5.5). */
export const isControlOpcode = (opcode: number): boolean => (opcode & 0x8) !== 0
