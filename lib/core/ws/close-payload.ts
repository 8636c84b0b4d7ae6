/**
 * Close frame payloads (RFC 6455 §5.5.1): an optional 2-byte status code, then an optional
 * UTF-8 reason. Parsing validates both; building keeps within the 125 bytes of a control
 * frame.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import { isValidCloseCode } from './close-code.js'
import { MAX_CONTROL_PAYLOAD } from './frame.js'
import { decodeUtf8, incompleteTailStart } from './utf8.js'
import { type ClosePayloadTooShort, closePayloadTooShort, type InvalidCloseCode, invalidCloseCode, type InvalidUtf8, invalidUtf8 } from './ws-error.js'

/** A parsed close payload: no code when the payload was empty (the peer's 1005). */
export interface CloseInfo {
  readonly code: number | undefined
  readonly reason: string
}

/** What a close payload can be wrong with. */
export type ClosePayloadError = ClosePayloadTooShort | InvalidCloseCode | InvalidUtf8

const NO_CODE: CloseInfo = Object.freeze({ code: undefined, reason: '' })

/**
 * Reads a close frame's payload: empty (no code), or a valid code (1000–1003, 1007–1014,
 * 3000–4999) and a UTF-8 reason. One byte, any other code (1002) or a reason that is not
 * UTF-8 (1007) is an error.
 *
 * @example
 * parseClosePayload(new Uint8Array([0x03, 0xe8, 0x62, 0x79, 0x65])) // Right({ code: 1000, reason: 'bye' })
 * parseClosePayload(new Uint8Array([0x03])) // Left(ClosePayloadTooShort), close code 1002
 */
export const parseClosePayload = (payload: Uint8Array): E.Either<ClosePayloadError, CloseInfo> => {
  if (payload.length === 0) return E.right(NO_CODE)
  if (payload.length === 1) return E.left(closePayloadTooShort())
  const code = (payload[0]! << 8) | payload[1]!
  if (!isValidCloseCode(code)) return E.left(invalidCloseCode(code))
  const reason = decodeUtf8(payload.subarray(2))
  return reason === undefined ? E.left(invalidUtf8('close-reason')) : E.right({ code, reason })
}

const encoder = new TextEncoder()

/**
 * A close payload: the code, then the reason cut to the 123 bytes that fit, at a code point
 * boundary. A code that may not be sent (`undefined`, 1005, 1006, ...) gives the empty payload,
 * which is how "no status" travels.
 *
 * @example
 * buildClosePayload(1000, 'bye') // 03 e8 62 79 65
 * buildClosePayload(undefined) // empty
 */
export const buildClosePayload = (code: number | undefined, reason = ''): Uint8Array => {
  if (code === undefined || !isValidCloseCode(code)) return new Uint8Array(0)
  const text = encoder.encode(reason)
  const room = MAX_CONTROL_PAYLOAD - 2
  const fitted = text.length <= room ? text : text.subarray(0, incompleteTailStart(text.subarray(0, room)))
  const payload = new Uint8Array(2 + fitted.length)
  payload[0] = code >>> 8
  payload[1] = code & 0xff
  payload.set(fitted, 2)
  return payload
}
