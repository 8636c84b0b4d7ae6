/**
 * Every way an HTTP request can be refused by the core, as a tagged union. Each variant
 * carries the facts (offset, limit, value) and its consequence: the `status` to answer
 * and a short `reason` the client gets as `{"error": reason}` (DESIGN §5).
 * Tags and reasons are stable: never rename them, only add.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/** Fields every parse error has. */
interface Base<Tag extends string, Status extends number, Reason extends string> {
  readonly _tag: Tag
  readonly status: Status
  readonly reason: Reason
}

/** A byte that may not appear in the method token (RFC 9110 §9.1: method = token). */
export interface InvalidMethod extends Base<'InvalidMethod', 400, 'invalid_method'> {
  readonly offset: number
}
/** The request line is not `method SP target SP version CRLF` (RFC 9112 §3). */
export interface InvalidRequestLine extends Base<'InvalidRequestLine', 400, 'invalid_request_line'> {
  readonly offset: number
}
/** The request-target has an invalid byte or form (RFC 9112 §3.2). */
export interface InvalidTarget extends Base<'InvalidTarget', 400, 'invalid_target'> {
  readonly offset: number
}
/** A header name or value holds a forbidden byte (RFC 9110 §5.1, §5.5). */
export interface InvalidHeader extends Base<'InvalidHeader', 400, 'invalid_header'> {
  readonly offset: number
}
/** Whitespace between a field name and its colon (RFC 9112 §5.1: MUST reject with 400). */
export interface WhitespaceBeforeColon extends Base<'WhitespaceBeforeColon', 400, 'whitespace_before_colon'> {
  readonly offset: number
}
/** A line folded onto the previous one (RFC 9112 §5.2: obs-fold, rejected). */
export interface ObsFold extends Base<'ObsFold', 400, 'obs_fold'> {
  readonly offset: number
}
/** A CR not followed by LF (RFC 9112 §2.2). */
export interface BareCr extends Base<'BareCr', 400, 'bare_cr'> {
  readonly offset: number
}
/** A LF not preceded by CR; this parser is strict about CRLF (RFC 9112 §2.2). */
export interface BareLf extends Base<'BareLf', 400, 'bare_lf'> {
  readonly offset: number
}
/** Both Content-Length and Transfer-Encoding (RFC 9112 §6.3: request smuggling vector). */
export interface ContentLengthWithTransferEncoding
  extends Base<'ContentLengthWithTransferEncoding', 400, 'content_length_with_transfer_encoding'> {}
/** Several Content-Length values that differ (RFC 9112 §6.3 item 5). */
export interface ConflictingContentLength extends Base<'ConflictingContentLength', 400, 'conflicting_content_length'> {
  readonly values: readonly string[]
}
/** A Content-Length that is not 1*DIGIT (RFC 9110 §8.6). */
export interface InvalidContentLength extends Base<'InvalidContentLength', 400, 'invalid_content_length'> {
  readonly value: string
}
/**
 * A Transfer-Encoding list that is not `#transfer-coding`, or whose final coding is not a
 * plain `chunked`, or that applies chunked twice (RFC 9112 §6.1, §6.3 item 4: 400 and close).
 */
export interface InvalidTransferEncoding extends Base<'InvalidTransferEncoding', 400, 'invalid_transfer_encoding'> {
  readonly value: string
}
/** A chunk-size line or chunk framing that is not RFC 9112 §7.1 grammar. */
export interface InvalidChunk extends Base<'InvalidChunk', 400, 'invalid_chunk'> {
  readonly offset: number
}
/**
 * An HTTP/1.1 request without a Host field (RFC 9112 §3.2: "A server MUST respond with a 400
 * (Bad Request) status code to any HTTP/1.1 request message that lacks a Host header field").
 */
export interface MissingHost extends Base<'MissingHost', 400, 'missing_host'> {}
/** More than one Host field line, in any version (RFC 9112 §3.2: 400). */
export interface DuplicateHost extends Base<'DuplicateHost', 400, 'duplicate_host'> {
  readonly count: number
}
/** A Host value that is not `uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2.2; RFC 9112 §3.2: 400). */
export interface InvalidHost extends Base<'InvalidHost', 400, 'invalid_host'> {
  readonly value: string
}
/** More empty lines (CRLF) before a request line than the parser ignores (RFC 9112 §2.2). */
export interface TooManyEmptyLines extends Base<'TooManyEmptyLines', 400, 'too_many_empty_lines'> {
  readonly limit: number
}
/** A JSON body the route read is not valid JSON (or not UTF-8). */
export interface InvalidJson extends Base<'InvalidJson', 400, 'invalid_json'> {}
/**
 * A route that reads JSON got a body of another media type, or of none (RFC 9110 §15.5.16:
 * 415 "the content is in a format not supported by this method on the target resource").
 * `contentType` is the media type received, lower-cased and without parameters; `''` when
 * the request had no Content-Type.
 */
export interface UnsupportedMediaType extends Base<'UnsupportedMediaType', 415, 'unsupported_media_type'> {
  readonly contentType: string
}
/** The body (declared or decoded) exceeds `maxBody`. */
export interface BodyTooLarge extends Base<'BodyTooLarge', 413, 'body_too_large'> {
  readonly limit: number
}
/** A streamed request body stopped before its end: the client went away or went quiet (`limits.streamIdleMs`). */
export interface BodyIncomplete extends Base<'BodyIncomplete', 400, 'body_incomplete'> {
  /** Data bytes received before it stopped. */
  readonly received: number
}
/**
 * A request body in a content coding the route does not decode (RFC 9110 §8.4, §15.5.16: 415):
 * one the server has no decoder for, stacked deeper than it unwraps, or any coding at all on a
 * route that did not opt in (`decompress`). `accepted` is what the answer's `Accept-Encoding`
 * lists (RFC 9110 §12.5.3: what the resource would take); `coding` the one refused.
 */
export interface UnsupportedContentEncoding extends Base<'UnsupportedContentEncoding', 415, 'unsupported_content_encoding'> {
  readonly coding: string
  readonly accepted: readonly string[]
}
/** A request body that does not decode in its announced content coding: corrupt, truncated, or not that format. */
export interface UndecodableBody extends Base<'UndecodableBody', 400, 'undecodable_body'> {
  readonly coding: string
}
/** The request line exceeds `maxRequestLine`. */
export interface RequestLineTooLong extends Base<'RequestLineTooLong', 414, 'request_line_too_long'> {
  readonly limit: number
}
/** The head (or the trailer section) exceeds `maxHeaderBytes`, or has more than `maxHeaders` fields. */
export interface HeadersTooLarge extends Base<'HeadersTooLarge', 431, 'headers_too_large'> {
  readonly limit: number
}
/** A transfer coding other than chunked before a final `chunked` (RFC 9112 §6.1: 501). */
export interface UnsupportedTransferCoding extends Base<'UnsupportedTransferCoding', 501, 'unsupported_transfer_coding'> {
  readonly coding: string
}
/** An HTTP version other than 1.0 and 1.1 (RFC 9110 §15.6.6: 505). */
export interface UnsupportedVersion extends Base<'UnsupportedVersion', 505, 'unsupported_version'> {
  readonly version: string
}

/** Why a request was refused; `status` is what the client gets, `reason` the `{"error"}` text. */
export type HttpError =
  | InvalidMethod
  | InvalidRequestLine
  | InvalidTarget
  | InvalidHeader
  | WhitespaceBeforeColon
  | ObsFold
  | BareCr
  | BareLf
  | ContentLengthWithTransferEncoding
  | ConflictingContentLength
  | InvalidContentLength
  | InvalidTransferEncoding
  | InvalidChunk
  | MissingHost
  | DuplicateHost
  | InvalidHost
  | TooManyEmptyLines
  | InvalidJson
  | UnsupportedMediaType
  | BodyTooLarge
  | BodyIncomplete
  | UnsupportedContentEncoding
  | UndecodableBody
  | RequestLineTooLong
  | HeadersTooLarge
  | UnsupportedTransferCoding
  | UnsupportedVersion

/** Lower-case constructors, one per variant. */
export const invalidMethod = (offset: number): InvalidMethod => ({ _tag: 'InvalidMethod', status: 400, reason: 'invalid_method', offset })
export const invalidRequestLine = (offset: number): InvalidRequestLine => ({
  _tag: 'InvalidRequestLine',
  status: 400,
  reason: 'invalid_request_line',
  offset,
})
export const invalidTarget = (offset: number): InvalidTarget => ({ _tag: 'InvalidTarget', status: 400, reason: 'invalid_target', offset })
export const invalidHeader = (offset: number): InvalidHeader => ({ _tag: 'InvalidHeader', status: 400, reason: 'invalid_header', offset })
export const whitespaceBeforeColon = (offset: number): WhitespaceBeforeColon => ({
  _tag: 'WhitespaceBeforeColon',
  status: 400,
  reason: 'whitespace_before_colon',
  offset,
})
export const obsFold = (offset: number): ObsFold => ({ _tag: 'ObsFold', status: 400, reason: 'obs_fold', offset })
export const bareCr = (offset: number): BareCr => ({ _tag: 'BareCr', status: 400, reason: 'bare_cr', offset })
export const bareLf = (offset: number): BareLf => ({ _tag: 'BareLf', status: 400, reason: 'bare_lf', offset })
export const contentLengthWithTransferEncoding = (): ContentLengthWithTransferEncoding => ({
  _tag: 'ContentLengthWithTransferEncoding',
  status: 400,
  reason: 'content_length_with_transfer_encoding',
})
export const conflictingContentLength = (values: readonly string[]): ConflictingContentLength => ({
  _tag: 'ConflictingContentLength',
  status: 400,
  reason: 'conflicting_content_length',
  values,
})
export const invalidContentLength = (value: string): InvalidContentLength => ({
  _tag: 'InvalidContentLength',
  status: 400,
  reason: 'invalid_content_length',
  value,
})
export const invalidTransferEncoding = (value: string): InvalidTransferEncoding => ({
  _tag: 'InvalidTransferEncoding',
  status: 400,
  reason: 'invalid_transfer_encoding',
  value,
})
export const invalidChunk = (offset: number): InvalidChunk => ({ _tag: 'InvalidChunk', status: 400, reason: 'invalid_chunk', offset })
export const missingHost = (): MissingHost => ({ _tag: 'MissingHost', status: 400, reason: 'missing_host' })
export const duplicateHost = (count: number): DuplicateHost => ({ _tag: 'DuplicateHost', status: 400, reason: 'duplicate_host', count })
export const invalidHost = (value: string): InvalidHost => ({ _tag: 'InvalidHost', status: 400, reason: 'invalid_host', value })
export const tooManyEmptyLines = (limit: number): TooManyEmptyLines => ({
  _tag: 'TooManyEmptyLines',
  status: 400,
  reason: 'too_many_empty_lines',
  limit,
})
export const invalidJson = (): InvalidJson => ({ _tag: 'InvalidJson', status: 400, reason: 'invalid_json' })
export const unsupportedMediaType = (contentType: string): UnsupportedMediaType => ({
  _tag: 'UnsupportedMediaType',
  status: 415,
  reason: 'unsupported_media_type',
  contentType,
})
export const bodyTooLarge = (limit: number): BodyTooLarge => ({ _tag: 'BodyTooLarge', status: 413, reason: 'body_too_large', limit })
export const bodyIncomplete = (received: number): BodyIncomplete => ({ _tag: 'BodyIncomplete', status: 400, reason: 'body_incomplete', received })
export const unsupportedContentEncoding = (coding: string, accepted: readonly string[]): UnsupportedContentEncoding => ({
  _tag: 'UnsupportedContentEncoding',
  status: 415,
  reason: 'unsupported_content_encoding',
  coding,
  accepted,
})
export const undecodableBody = (coding: string): UndecodableBody => ({ _tag: 'UndecodableBody', status: 400, reason: 'undecodable_body', coding })
export const requestLineTooLong = (limit: number): RequestLineTooLong => ({
  _tag: 'RequestLineTooLong',
  status: 414,
  reason: 'request_line_too_long',
  limit,
})
export const headersTooLarge = (limit: number): HeadersTooLarge => ({
  _tag: 'HeadersTooLarge',
  status: 431,
  reason: 'headers_too_large',
  limit,
})
export const unsupportedTransferCoding = (coding: string): UnsupportedTransferCoding => ({
  _tag: 'UnsupportedTransferCoding',
  status: 501,
  reason: 'unsupported_transfer_coding',
  coding,
})
export const unsupportedVersion = (version: string): UnsupportedVersion => ({
  _tag: 'UnsupportedVersion',
  status: 505,
  reason: 'unsupported_version',
  version,
})
