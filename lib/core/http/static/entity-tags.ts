/**
 * `parseEntityTags`: the field value of If-Match or If-None-Match (RFC 9110 §13.1.1,
 * §13.1.2) as `*` or a list of entity-tags, and `entityTagsMatch`, their comparison
 * (RFC 9110 §8.8.3.2). Pure and portable: no node:* imports.
 *
 *   If-Match     = "*" / #entity-tag
 *   entity-tag   = [ weak ] opaque-tag
 *   weak         = %s"W/"
 *   opaque-tag   = DQUOTE *etagc DQUOTE
 *   etagc        = %x21 / %x23-7E / obs-text
 */

/** One entity-tag: `opaque` keeps its quotes (`"abc"`); `weak` when it came as `W/"abc"`. */
export interface EntityTag {
  readonly weak: boolean
  readonly opaque: string
}

/** A parsed If-Match / If-None-Match: `*` (any current representation) or a list of tags. */
export type EntityTagList = '*' | readonly EntityTag[]

const isEtagc = (c: number): boolean => c === 0x21 || (c >= 0x23 && c <= 0x7e) || (c >= 0x80 && c <= 0xff)
const isOws = (c: number): boolean => c === 0x20 || c === 0x09

/**
 * The entity-tags of one or more field values (several field lines are one list, RFC 9110
 * §5.3), or `undefined` when a member is not an entity-tag or `*` is not alone. Empty list
 * members are skipped (RFC 9110 §5.6.1.2). One entity-tag, `W/"x"` or `"x"`, may be parsed
 * on its own the same way.
 *
 * @example
 * parseEntityTags(['"a", W/"b"']) // [{ weak: false, opaque: '"a"' }, { weak: true, opaque: '"b"' }]
 * parseEntityTags(['*']) // '*'
 * parseEntityTags(['abc']) // undefined (not quoted)
 */
export const parseEntityTags = (values: readonly string[]): EntityTagList | undefined => {
  const text = values.join(', ')
  if (text.trim() === '*') return '*'
  const tags: EntityTag[] = []
  let i = 0
  const n = text.length
  for (;;) {
    while (i < n && (isOws(text.charCodeAt(i)) || text.charCodeAt(i) === 0x2c)) i++
    if (i >= n) break
    const weak = text.startsWith('W/', i)
    if (weak) i += 2
    if (text.charCodeAt(i) !== 0x22) return undefined
    const start = i
    i++
    while (i < n && isEtagc(text.charCodeAt(i))) i++
    if (text.charCodeAt(i) !== 0x22) return undefined
    i++
    tags.push({ weak, opaque: text.slice(start, i) })
    while (i < n && isOws(text.charCodeAt(i))) i++
    if (i < n && text.charCodeAt(i) !== 0x2c) return undefined
  }
  return tags.length === 0 ? undefined : tags
}

/**
 * Whether a list holds the current entity-tag. Strong comparison (If-Match, If-Range): both
 * tags strong and their opaque parts equal. Weak comparison (If-None-Match): opaque parts
 * equal, weak or not. `*` matches when there is a current representation. RFC 9110 §8.8.3.2.
 *
 * @example
 * entityTagsMatch([{ weak: true, opaque: '"a"' }], '"a"', 'weak') // true
 * entityTagsMatch([{ weak: true, opaque: '"a"' }], '"a"', 'strong') // false
 */
export const entityTagsMatch = (list: EntityTagList, current: string | undefined, comparison: 'strong' | 'weak'): boolean => {
  if (list === '*') return true
  if (current === undefined) return false
  const parsed = parseEntityTags([current])
  if (parsed === undefined || parsed === '*' || parsed.length !== 1) return false
  const own = parsed[0] as EntityTag
  if (comparison === 'strong' && own.weak) return false
  return list.some((tag) => tag.opaque === own.opaque && (comparison === 'weak' || !tag.weak))
}
