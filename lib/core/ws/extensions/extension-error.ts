/**
 * What can go wrong when extensions are negotiated, as tagged values: a header that does
 * not parse (the handshake is refused with 400), the reasons a permessage-deflate offer is
 * declined (the handshake goes on without compression, RFC 7692 §5), and server options
 * that are out of range.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import type { Header } from '../../http/types.js'

/**
 * `Sec-WebSocket-Extensions` does not follow RFC 6455 §9.1. Shaped like a handshake
 * refusal: the status and headers to answer with and a short reason.
 */
export interface InvalidExtensionsHeader {
  readonly _tag: 'InvalidExtensionsHeader'
  readonly status: 400
  readonly headers: readonly Header[]
  readonly reason: string
  /** The offset in the (joined) header value where parsing stopped. */
  readonly offset: number
  /** What was expected there. */
  readonly expected: string
}

/** @example invalidExtensionsHeader(3, 'a token').status // 400 */
export const invalidExtensionsHeader = (offset: number, expected: string): InvalidExtensionsHeader => ({
  _tag: 'InvalidExtensionsHeader',
  status: 400,
  headers: [],
  reason: 'invalid Sec-WebSocket-Extensions header',
  offset,
  expected,
})

/** RFC 7692 §7: "an extension parameter not defined for use in an offer". */
export interface UnknownParameter {
  readonly _tag: 'UnknownParameter'
  readonly name: string
}

/** RFC 7692 §7: "multiple extension parameters with the same name". */
export interface DuplicateParameter {
  readonly _tag: 'DuplicateParameter'
  readonly name: string
}

/** RFC 7692 §7: "an extension parameter with an invalid value" (a missing one included). */
export interface InvalidParameterValue {
  readonly _tag: 'InvalidParameterValue'
  readonly name: string
  /** `undefined` when the parameter needs a value and has none. */
  readonly value: string | undefined
}

/** RFC 7692 §7: "The server doesn't support the offered configuration." */
export interface UnsupportedOffer {
  readonly _tag: 'UnsupportedOffer'
  readonly reason: string
}

/** Why one permessage-deflate offer was declined. */
export type DeclineReason = UnknownParameter | DuplicateParameter | InvalidParameterValue | UnsupportedOffer

/** @example unknownParameter('x').name // 'x' */
export const unknownParameter = (name: string): UnknownParameter => ({ _tag: 'UnknownParameter', name })

/** @example duplicateParameter('server_no_context_takeover')._tag // 'DuplicateParameter' */
export const duplicateParameter = (name: string): DuplicateParameter => ({ _tag: 'DuplicateParameter', name })

/** @example invalidParameterValue('server_max_window_bits', '16').value // '16' */
export const invalidParameterValue = (name: string, value: string | undefined): InvalidParameterValue => ({
  _tag: 'InvalidParameterValue',
  name,
  value,
})

/** @example unsupportedOffer('the server needs client_max_window_bits')._tag // 'UnsupportedOffer' */
export const unsupportedOffer = (reason: string): UnsupportedOffer => ({ _tag: 'UnsupportedOffer', reason })

/** A permessage-deflate server option out of its range. */
export interface InvalidDeflateOption {
  readonly _tag: 'InvalidDeflateOption'
  readonly option: string
  readonly value: unknown
  /** What the option accepts, e.g. 'an integer from 8 to 15'. */
  readonly expected: string
}

/** @example invalidDeflateOption('memLevel', 10, 'an integer from 1 to 9').option // 'memLevel' */
export const invalidDeflateOption = (option: string, value: unknown, expected: string): InvalidDeflateOption => ({
  _tag: 'InvalidDeflateOption',
  option,
  value,
  expected,
})
