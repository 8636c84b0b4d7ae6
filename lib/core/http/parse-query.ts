/**
 * `parseQuery`: an `application/x-www-form-urlencoded` string (a query or a form body) to a
 * record; repeated keys are kept, in order, as an array. Built through `Object.fromEntries`
 * so a key such as `__proto__` is an ordinary own property. Pure and portable.
 */
import { percentDecode } from './percent-decode.js'

/** One decoded value, or every value of a repeated key. */
export type QueryValue = string | readonly string[]

/** Decoded query or form fields. */
export type Query = Readonly<Record<string, QueryValue>>

/**
 * Parses `a=1&b=2&a=3` (no leading `?`); `a` alone gives `''`; empty pairs are skipped.
 *
 * @example
 * parseQuery('tag=x&tag=y&q=a+b') // { tag: ['x', 'y'], q: 'a b' }
 */
export const parseQuery = (raw: string): Query => {
  if (raw === '') return {}
  const fields = new Map<string, string | string[]>()
  for (const pair of raw.split('&')) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    const key = percentDecode(eq < 0 ? pair : pair.slice(0, eq), true)
    const value = eq < 0 ? '' : percentDecode(pair.slice(eq + 1), true)
    const seen = fields.get(key)
    if (seen === undefined) fields.set(key, value)
    else if (typeof seen === 'string') fields.set(key, [seen, value])
    else seen.push(value)
  }
  return Object.fromEntries(fields)
}
