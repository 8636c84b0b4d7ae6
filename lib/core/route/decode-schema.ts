/**
 * `decodeSchema`: data through a `Schema`, as the decoded value or the failing places
 * (`PayloadIssue`, the `details` of an `invalid_payload` error). Pure and portable.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Schema } from './schema.js'
import { type PayloadIssue, validationDetails } from './validation-details.js'

/** Either every failing place or the decoded value. */
export type SchemaResult<A> = E.Either<readonly PayloadIssue[], A>

/**
 * Checks `value` with `schema`.
 *
 * @example
 * decodeSchema(t.type({ room: t.string }), {}) // left([{ path: 'room', expected: 'string' }])
 */
export const decodeSchema = <A>(schema: Schema<A>, value: unknown): SchemaResult<A> => {
  const decoded = schema.decode(value)
  return E.isLeft(decoded) ? E.left(validationDetails(decoded.left)) : decoded
}
