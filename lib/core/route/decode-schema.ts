/**
 * `decodeSchema`: data through a `Schema`, as the decoded value or the failing places
 * (`PayloadIssue`, the `details` of an `invalid_payload` error), whichever library the
 * schema comes from. Pure and portable.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Schema } from './schema.js'
import { isStandardSchema, type StandardIssue, type StandardResult } from './standard-schema.js'
import { type PayloadIssue, validationDetails } from './validation-details.js'

/** Either every failing place or the decoded value. */
export type SchemaResult<A> = E.Either<readonly PayloadIssue[], A>

const keyOf = (segment: PropertyKey | { readonly key: PropertyKey }): string =>
  String(typeof segment === 'object' && segment !== null ? segment.key : segment)

// A Standard Schema issue as io-ts's are shown: the dotted path, and the library's message in `expected`.
const issueOf = (issue: StandardIssue): PayloadIssue => ({ path: (issue.path ?? []).map(keyOf).join('.'), expected: issue.message })

const fromStandard = <A>(result: StandardResult<A>): SchemaResult<A> =>
  result.issues === undefined ? E.right(result.value) : E.left(result.issues.map(issueOf))

/**
 * Checks `value` with `schema`. io-ts answers at once; a Standard Schema may answer with a
 * promise (an async refinement), and then so does this. A Standard Schema issue becomes
 * `{ path, expected }` with the library's message as `expected`.
 *
 * @example
 * decodeSchema(t.type({ room: t.string }), {}) // left([{ path: 'room', expected: 'string' }])
 * decodeSchema(z.object({ room: z.string() }), {}) // left([{ path: 'room', expected: 'Invalid input: expected string, received undefined' }])
 */
export const decodeSchema = <A>(schema: Schema<A>, value: unknown): SchemaResult<A> | Promise<SchemaResult<A>> => {
  if (isStandardSchema(schema)) {
    const result = schema['~standard'].validate(value)
    return result instanceof Promise ? result.then(fromStandard) : fromStandard(result)
  }
  const decoded = schema.decode(value)
  return E.isLeft(decoded) ? E.left(validationDetails(decoded.left)) : decoded
}
