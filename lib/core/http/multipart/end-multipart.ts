/**
 * `endMultipart`: the end of the input, checked: a body is complete only once its close
 * delimiter `--boundary--` was read (RFC 2046 §5.1.1); anything else is a truncated body.
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import type { MultipartState } from './decode-multipart.js'
import { truncatedBody, type TruncatedBody } from './multipart-error.js'

/**
 * `right` when the body ended with its close delimiter, else `TruncatedBody` (400).
 *
 * @example
 * endMultipart(stateAfterEnd)    // right(undefined)
 * endMultipart(stateInsideAPart) // left(TruncatedBody)
 */
export const endMultipart = (state: MultipartState): Either<TruncatedBody, void> =>
  state.phase === 'Done' ? right(undefined) : left(truncatedBody())
