/**
 * `evaluatePreconditions`: RFC 9110 §13.2.2, the order in which a server evaluates the
 * conditional request fields, for a representation that exists (a file found). Answers
 * `'proceed'`, 304 (Not Modified) or 412 (Precondition Failed). If-Range is not here: it
 * decides whether a Range applies, after these (step 5; see `selectRanges`).
 *
 * Pure and portable: no node:* imports, no clock (the time comes in as an argument).
 */
import type { Header } from '../types.js'
import { entityTagsMatch, parseEntityTags } from './entity-tags.js'
import { fieldLines } from './field-lines.js'
import { parseHttpDate } from './parse-http-date.js'
import type { Validators } from './validators.js'

/** What the preconditions decide: carry on with the request, or answer 304 / 412 now. */
export type PreconditionOutcome = 'proceed' | 304 | 412

// HTTP-dates have one-second precision: compare the modification time as Last-Modified sent it.
const seconds = (ms: number): number => Math.floor(ms / 1000) * 1000

// A date field is a singleton: two field lines, or a value that is not an HTTP-date, are
// ignored (RFC 9110 §13.1.3, §13.1.4: "MUST ignore ... not a valid HTTP-date").
const dateField = (headers: readonly Header[], name: string, nowMs: number | undefined): number | undefined => {
  const values = fieldLines(headers, name)
  return values.length === 1 ? parseHttpDate(values[0] as string, nowMs) : undefined
}

/**
 * Evaluates If-Match, If-Unmodified-Since, If-None-Match and If-Modified-Since in RFC 9110
 * §13.2.2's order:
 *
 * 1. If-Match present: false (no member strongly matches the ETag) → 412.
 * 2. Else If-Unmodified-Since a valid date: modified after it → 412.
 * 3. If-None-Match present: true-for-a-match (weak comparison) → 304 for GET and HEAD, 412
 *    for other methods.
 * 4. Else, for GET and HEAD, If-Modified-Since a valid date: not modified since → 304.
 *
 * An If-Match that does not parse matches nothing (412); an If-None-Match that does not
 * parse matches nothing (proceed): both fail safe. A date condition without a
 * `lastModified` to compare with is ignored. `nowMs` only places two-digit years.
 *
 * @example
 * const v = { etag: '"5-1"', lastModified: 784111777000 }
 * evaluatePreconditions('GET', [['If-None-Match', 'W/"5-1"']], v) // 304
 * evaluatePreconditions('PUT', [['If-Match', '"other"']], v) // 412
 * evaluatePreconditions('GET', [['If-Modified-Since', 'Sun, 06 Nov 1994 08:49:37 GMT']], v) // 304
 */
export const evaluatePreconditions = (method: string, headers: readonly Header[], validators: Validators, nowMs?: number): PreconditionOutcome => {
  const safe = method === 'GET' || method === 'HEAD'
  const ifMatch = fieldLines(headers, 'if-match')
  if (ifMatch.length > 0) {
    const list = parseEntityTags(ifMatch)
    if (list === undefined || !entityTagsMatch(list, validators.etag, 'strong')) return 412
  } else if (validators.lastModified !== undefined) {
    const since = dateField(headers, 'if-unmodified-since', nowMs)
    if (since !== undefined && seconds(validators.lastModified) > since) return 412
  }
  const ifNoneMatch = fieldLines(headers, 'if-none-match')
  if (ifNoneMatch.length > 0) {
    const list = parseEntityTags(ifNoneMatch)
    if (list !== undefined && entityTagsMatch(list, validators.etag, 'weak')) return safe ? 304 : 412
  } else if (safe && validators.lastModified !== undefined) {
    const since = dateField(headers, 'if-modified-since', nowMs)
    if (since !== undefined && seconds(validators.lastModified) <= since) return 304
  }
  return 'proceed'
}
