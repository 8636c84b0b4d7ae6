/**
 * `fieldLines`: the values of every field line with a given name, compared without regard
 * to case (RFC 9110 §5.1), in the order they came. The static-file decisions read request
 * headers through it: a list field sent on several lines is one list (RFC 9110 §5.3), a
 * singleton field sent twice is invalid, and each caller decides which applies.
 *
 * Pure and portable: no node:* imports.
 */
import type { Header } from '../types.js'

/**
 * The values of the field lines named `name` (given in lower case).
 *
 * @example
 * fieldLines([['If-None-Match', '"a"'], ['if-none-match', '"b"']], 'if-none-match') // ['"a"', '"b"']
 */
export const fieldLines = (headers: readonly Header[], name: string): readonly string[] => {
  const found: string[] = []
  for (const [key, value] of headers) if (key.length === name.length && key.toLowerCase() === name) found.push(value)
  return found
}
