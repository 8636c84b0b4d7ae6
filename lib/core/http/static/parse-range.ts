/**
 * `parseRange`: the Range field value (RFC 9110 §14.2) as a unit and a list of
 * range-specs, or `undefined` when it is not valid (the caller then ignores the field and
 * answers 200, as RFC 9110 §14.2 lets a server do). Pure and portable: no node:* imports.
 *
 *   Range        = ranges-specifier
 *   ranges-specifier = range-unit "=" range-set
 *   range-set    = 1#range-spec
 *   range-spec   = int-range / suffix-range / other-range
 *   int-range    = first-pos "-" [ last-pos ]
 *   suffix-range = "-" suffix-length
 */

/** One range-spec of a byte range-set: `first-last`, `first-` (last undefined) or `-suffix`. */
export type RangeSpec =
  | { readonly _tag: 'IntRange'; readonly first: number; readonly last: number | undefined }
  | { readonly _tag: 'SuffixRange'; readonly length: number }

/** A parsed Range: its unit in lower case (`bytes`) and the range-specs in the order sent. */
export interface RangeRequest {
  readonly unit: string
  readonly specs: readonly RangeSpec[]
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const INT_RANGE = /^(\d+)-(\d*)$/
const SUFFIX_RANGE = /^-(\d+)$/

// 1*DIGIT as a number; more digits than a double holds exactly give a number that is still
// ordered right (a huge first-pos is unsatisfiable, a huge last-pos is clipped to the size).
const digits = (text: string): number => Number(text)

/**
 * Parses `bytes=0-99, 200-, -50`. Whitespace is allowed around the list's commas (and empty
 * members skipped, RFC 9110 §5.6.1.2), nowhere else; a `last-pos` below its `first-pos`,
 * another unit's `other-range`, or an empty set make the field invalid. The unit is
 * case-insensitive (RFC 9110 §14.1).
 *
 * @example
 * parseRange('bytes=0-99, -50')
 * // { unit: 'bytes', specs: [{ _tag: 'IntRange', first: 0, last: 99 }, { _tag: 'SuffixRange', length: 50 }] }
 * parseRange('bytes=5-1') // undefined
 */
export const parseRange = (value: string): RangeRequest | undefined => {
  const text = value.trim()
  const eq = text.indexOf('=')
  if (eq <= 0) return undefined
  const unit = text.slice(0, eq)
  if (!TOKEN.test(unit)) return undefined
  const specs: RangeSpec[] = []
  for (const member of text.slice(eq + 1).split(',')) {
    const spec = member.replace(/^[ \t]+|[ \t]+$/g, '')
    if (spec === '') continue
    const int = INT_RANGE.exec(spec)
    if (int !== null) {
      const first = digits(int[1] as string)
      const last = int[2] === '' ? undefined : digits(int[2] as string)
      if (last !== undefined && last < first) return undefined
      specs.push({ _tag: 'IntRange', first, last })
      continue
    }
    const suffix = SUFFIX_RANGE.exec(spec)
    if (suffix === null) return undefined
    specs.push({ _tag: 'SuffixRange', length: digits(suffix[1] as string) })
  }
  return specs.length === 0 ? undefined : { unit: unit.toLowerCase(), specs }
}
