/**
 * `ifRangeHolds`: the If-Range condition (RFC 9110 §13.1.5): whether a Range applies, given
 * the representation's validators. Pure and portable: no node:* imports.
 */
import { entityTagsMatch, parseEntityTags } from './entity-tags.js'
import { parseHttpDate } from './parse-http-date.js'
import type { Validators } from './validators.js'

/**
 * True when the If-Range value is an entity-tag that strongly matches the ETag (a weak tag
 * never does), or an HTTP-date exactly equal to the modification time (at one-second
 * precision). False for anything else, an unparsable value included: the Range is then
 * ignored and the whole representation sent (200), which is always safe.
 *
 * @example
 * ifRangeHolds('"5-1"', { etag: '"5-1"' }) // true
 * ifRangeHolds('W/"5-1"', { etag: '"5-1"' }) // false
 * ifRangeHolds('Sun, 06 Nov 1994 08:49:37 GMT', { lastModified: 784111777123 }) // true
 */
export const ifRangeHolds = (value: string, validators: Validators, nowMs?: number): boolean => {
  const text = value.trim()
  if (text.startsWith('"') || text.startsWith('W/')) {
    const list = parseEntityTags([text])
    return list !== undefined && list !== '*' && list.length === 1 && entityTagsMatch(list, validators.etag, 'strong')
  }
  const date = parseHttpDate(text, nowMs)
  return date !== undefined && validators.lastModified !== undefined && Math.floor(validators.lastModified / 1000) * 1000 === date
}
