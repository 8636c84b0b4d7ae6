/**
 * `headerValue`: the value of a header in a raw `Header` list, by case-insensitive name,
 * repeated lines joined with `, ` (RFC 9110 §5.3). Pure and portable.
 */
import type { Header } from './types.js'

/**
 * The combined value of `name` in `headers`, `undefined` when absent.
 *
 * @example
 * headerValue([['Accept', 'a'], ['accept', 'b']], 'ACCEPT') // 'a, b'
 */
export const headerValue = (headers: readonly Header[], name: string): string | undefined => {
  const lower = name.toLowerCase()
  let out: string | undefined
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i] as Header
    if (h[0].length === lower.length && h[0].toLowerCase() === lower) out = out === undefined ? h[1] : `${out}, ${h[1]}`
  }
  return out
}
