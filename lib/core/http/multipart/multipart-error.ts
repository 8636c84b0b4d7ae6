/**
 * Every way a `multipart/form-data` body (RFC 7578, RFC 2046 §5.1) can be refused, as a
 * tagged union. Each variant carries the facts (limit, offset) and its consequence: the
 * `status` to answer, a stable `reason` for `{"error": reason}`, and a `message` a person can
 * read. Tags and reasons are stable: never rename them, only add.
 *
 * A part's header section too large is 413, not 431: 431 (RFC 6585 §5) is about the request's
 * own header fields, and a part's headers are content (docs/decisions.md).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

interface Base<Tag extends string, Status extends number, Reason extends string> {
  readonly _tag: Tag
  readonly status: Status
  readonly reason: Reason
  readonly message: string
}

/** The request is not `multipart/form-data` (or has no Content-Type): 415, as for a JSON route. */
export interface NotMultipart extends Base<'NotMultipart', 415, 'not_multipart'> {
  readonly contentType: string
}
/** `multipart/form-data` without a `boundary` parameter (RFC 7578 §4.1: it is required). */
export interface MissingBoundary extends Base<'MissingBoundary', 400, 'missing_boundary'> {}
/** A boundary that is not 1..70 bchars ending in a non-space (RFC 2046 §5.1.1). */
export interface InvalidBoundary extends Base<'InvalidBoundary', 400, 'invalid_boundary'> {
  readonly boundary: string
}
/** A delimiter not followed by `--` or by transport padding and CRLF (RFC 2046 §5.1.1). */
export interface InvalidDelimiter extends Base<'InvalidDelimiter', 400, 'invalid_delimiter'> {}
/** A part's header section (padding, line end, header lines, empty line) exceeds the limit. */
export interface PartHeaderTooLarge extends Base<'PartHeaderTooLarge', 413, 'part_header_too_large'> {
  readonly limit: number
}
/** A part header line that is not `name: value` CRLF (a bare CR or LF, obs-fold, no colon, a bad name). */
export interface MalformedPartHeader extends Base<'MalformedPartHeader', 400, 'malformed_part_header'> {}
/** A part without `Content-Disposition: form-data` and a `name` (RFC 7578 §4.2: both MUST be there). */
export interface MissingPartName extends Base<'MissingPartName', 400, 'missing_part_name'> {}
/** More parts than `maxParts`. */
export interface TooManyParts extends Base<'TooManyParts', 413, 'too_many_parts'> {
  readonly limit: number
}
/** More non-file parts than `maxFields`. */
export interface TooManyFields extends Base<'TooManyFields', 413, 'too_many_fields'> {
  readonly limit: number
}
/** More file parts than `maxFiles`. */
export interface TooManyFiles extends Base<'TooManyFiles', 413, 'too_many_files'> {
  readonly limit: number
}
/** A non-file part longer than `maxFieldBytes`. */
export interface FieldTooLarge extends Base<'FieldTooLarge', 413, 'field_too_large'> {
  readonly name: string
  readonly limit: number
}
/** A file part longer than `maxFileBytes`. */
export interface FileTooLarge extends Base<'FileTooLarge', 413, 'file_too_large'> {
  readonly name: string
  readonly limit: number
}
/** The input ended before the close delimiter `--boundary--`. */
export interface TruncatedBody extends Base<'TruncatedBody', 400, 'truncated_body'> {}

/** Why a multipart body was refused; `status` is what the client gets. */
export type MultipartError =
  | NotMultipart
  | MissingBoundary
  | InvalidBoundary
  | InvalidDelimiter
  | PartHeaderTooLarge
  | MalformedPartHeader
  | MissingPartName
  | TooManyParts
  | TooManyFields
  | TooManyFiles
  | FieldTooLarge
  | FileTooLarge
  | TruncatedBody

/** What `boundaryOf` can refuse. */
export type BoundaryError = NotMultipart | MissingBoundary | InvalidBoundary

/** Lower-case constructors, one per variant. */
export const notMultipart = (contentType: string): NotMultipart => ({
  _tag: 'NotMultipart',
  status: 415,
  reason: 'not_multipart',
  message: contentType === '' ? 'expected a multipart/form-data body, got no Content-Type' : `expected a multipart/form-data body, got ${contentType}`,
  contentType,
})
export const missingBoundary = (): MissingBoundary => ({
  _tag: 'MissingBoundary',
  status: 400,
  reason: 'missing_boundary',
  message: 'the multipart/form-data Content-Type has no boundary parameter',
})
export const invalidBoundary = (boundary: string): InvalidBoundary => ({
  _tag: 'InvalidBoundary',
  status: 400,
  reason: 'invalid_boundary',
  message: 'the multipart boundary must be 1 to 70 characters of RFC 2046 bchars, not ending in a space',
  boundary,
})
export const invalidDelimiter = (): InvalidDelimiter => ({
  _tag: 'InvalidDelimiter',
  status: 400,
  reason: 'invalid_delimiter',
  message: 'a multipart boundary line is followed by something other than "--" or a line end',
})
export const partHeaderTooLarge = (limit: number): PartHeaderTooLarge => ({
  _tag: 'PartHeaderTooLarge',
  status: 413,
  reason: 'part_header_too_large',
  message: `a multipart part's headers exceed ${limit} bytes`,
  limit,
})
export const malformedPartHeader = (): MalformedPartHeader => ({
  _tag: 'MalformedPartHeader',
  status: 400,
  reason: 'malformed_part_header',
  message: 'a multipart part header line is not "name: value" ending in CRLF',
})
export const missingPartName = (): MissingPartName => ({
  _tag: 'MissingPartName',
  status: 400,
  reason: 'missing_part_name',
  message: 'a multipart part has no Content-Disposition: form-data with a name',
})
export const tooManyParts = (limit: number): TooManyParts => ({
  _tag: 'TooManyParts',
  status: 413,
  reason: 'too_many_parts',
  message: `the multipart body has more than ${limit} parts`,
  limit,
})
export const tooManyFields = (limit: number): TooManyFields => ({
  _tag: 'TooManyFields',
  status: 413,
  reason: 'too_many_fields',
  message: `the multipart body has more than ${limit} fields`,
  limit,
})
export const tooManyFiles = (limit: number): TooManyFiles => ({
  _tag: 'TooManyFiles',
  status: 413,
  reason: 'too_many_files',
  message: `the multipart body has more than ${limit} files`,
  limit,
})
export const fieldTooLarge = (name: string, limit: number): FieldTooLarge => ({
  _tag: 'FieldTooLarge',
  status: 413,
  reason: 'field_too_large',
  message: `the multipart field ${JSON.stringify(name)} exceeds ${limit} bytes`,
  name,
  limit,
})
export const fileTooLarge = (name: string, limit: number): FileTooLarge => ({
  _tag: 'FileTooLarge',
  status: 413,
  reason: 'file_too_large',
  message: `the multipart file in ${JSON.stringify(name)} exceeds ${limit} bytes`,
  name,
  limit,
})
export const truncatedBody = (): TruncatedBody => ({
  _tag: 'TruncatedBody',
  status: 400,
  reason: 'truncated_body',
  message: 'the multipart body ended before its close delimiter',
})
