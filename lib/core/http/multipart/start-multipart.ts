/**
 * `startMultipart`: the state a `multipart/form-data` body starts from, for a boundary (as
 * `boundaryOf` gives it) and limits: the delimiter and its search table are built here, once
 * per body, and travel in the state.
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import { isValidBoundary } from './boundary-of.js'
import type { MultipartState } from './decode-multipart.js'
import { compileDelimiter } from './delimiter.js'
import { invalidBoundary, type InvalidBoundary } from './multipart-error.js'
import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from './multipart-limits.js'

// The CRLF a body is read as if it began with, so that a first boundary at offset 0 is a delimiter.
const LEADING_CRLF = new Uint8Array([0x0d, 0x0a])

/**
 * The initial state, or `InvalidBoundary` when the boundary breaks RFC 2046 §5.1.1.
 *
 * @example
 * startMultipart('xyz') // right(state in phase 'Preamble')
 * startMultipart('')    // left(InvalidBoundary)
 */
export const startMultipart = (boundary: string, limits: MultipartLimits = DEFAULT_MULTIPART_LIMITS): Either<InvalidBoundary, MultipartState> =>
  isValidBoundary(boundary)
    ? right({
        phase: 'Preamble',
        delimiter: compileDelimiter(boundary),
        limits,
        carry: LEADING_CRLF,
        headerBytes: 0,
        parts: 0,
        fields: 0,
        files: 0,
        part: undefined,
        size: 0,
      })
    : left(invalidBoundary(boundary))
