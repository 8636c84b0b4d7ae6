/**
 * `validationDetails`: io-ts validation errors as data for an `invalid_payload` event —
 * the path that failed and the type expected there. Pure and portable.
 */
import type * as t from 'io-ts'

/** One failing place in the data: `path` is dotted keys from the root (`''` for the root). */
export interface PayloadIssue {
  readonly path: string
  readonly expected: string
}

/**
 * Every failing path once, in io-ts order.
 *
 * @example
 * validationDetails(errorsOf(t.type({ room: t.string }).decode({}))) // [{ path: 'room', expected: 'string' }]
 */
export const validationDetails = (errors: t.Errors): readonly PayloadIssue[] => {
  const seen = new Set<string>()
  const issues: PayloadIssue[] = []
  for (const error of errors) {
    const path = error.context
      .map((entry) => entry.key)
      .filter((key) => key !== '')
      .join('.')
    const expected = error.context[error.context.length - 1]?.type.name ?? 'unknown'
    const key = `${path}\u0000${expected}`
    if (seen.has(key)) continue
    seen.add(key)
    issues.push({ path, expected })
  }
  return issues
}
