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
  // An indexed loop, no destructuring, and no array unless a line matches: called five times
  // per static answer, the iterator-and-destructure form was its largest cost on Bun
  // (session 13, docs/decisions.md "Bun per-request cost").
  let found: string[] | undefined
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as Header
    const key = h[0]
    if (key.length === name.length && (key === name || key.toLowerCase() === name)) (found ??= []).push(h[1])
  }
  return found ?? NONE
}

const NONE: readonly string[] = Object.freeze([])
