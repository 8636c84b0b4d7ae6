/**
 * The static-file decisions as properties: no parser throws on any string; ranges never
 * leave the representation and never overlap; the path resolver never yields a segment that
 * could leave the root; the preconditions follow RFC 9110 §13.2.2's precedence whatever the
 * other fields say.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import type { Header } from '../../../../lib/core/http/types.js'
import { contentTypeOf } from '../../../../lib/core/http/static/content-type-of.js'
import { parseEntityTags } from '../../../../lib/core/http/static/entity-tags.js'
import { evaluatePreconditions } from '../../../../lib/core/http/static/evaluate-preconditions.js'
import { ifRangeHolds } from '../../../../lib/core/http/static/if-range-holds.js'
import { isCompressible } from '../../../../lib/core/http/static/is-compressible.js'
import { lastModifiedOf } from '../../../../lib/core/http/static/last-modified-of.js'
import { parseHttpDate } from '../../../../lib/core/http/static/parse-http-date.js'
import { parseRange } from '../../../../lib/core/http/static/parse-range.js'
import { pickEncoding } from '../../../../lib/core/http/static/pick-encoding.js'
import { resolveStaticPath } from '../../../../lib/core/http/static/resolve-static-path.js'
import { selectRanges } from '../../../../lib/core/http/static/select-ranges.js'

// Strings likely to hit the grammars: their own characters, plus anything.
const grammarish = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom(...'bytes=-0123456789, \t;qQ*"W/.%2eEfF\\:\u0000'.split('')), maxLength: 40 }),
)

test('parsers :: never throw on any string', () => {
  fc.assert(
    fc.property(grammarish, (text) => {
      parseRange(text)
      parseHttpDate(text, 0)
      parseEntityTags([text])
      ifRangeHolds(text, { etag: '"a"', lastModified: 0 })
      pickEncoding(text, ['br', 'gzip', 'identity'])
      resolveStaticPath(text)
      resolveStaticPath(text, { windowsNames: true, dotfiles: 'allow', index: false })
      contentTypeOf(text)
      isCompressible(text)
      evaluatePreconditions('GET', [['If-Match', text], ['If-None-Match', text], ['If-Modified-Since', text], ['If-Unmodified-Since', text]], {})
      return true
    }),
  )
})

const rangeSpec = fc.oneof(
  fc.tuple(fc.nat(300), fc.option(fc.nat(300), { nil: undefined })).map(([a, b]) => (b === undefined ? `${a}-` : `${Math.min(a, b)}-${Math.max(a, b)}`)),
  fc.nat(300).map((n) => `-${n}`),
)
const rangeField = fc.array(rangeSpec, { minLength: 1, maxLength: 20 }).map((specs) => `bytes=${specs.join(',')}`)

test('selectRanges :: every range is inside the representation, ranges never overlap, at most maxRanges', () => {
  fc.assert(
    fc.property(rangeField, fc.nat(400), fc.nat(100), (field, size, gap) => {
      const r = selectRanges('GET', [['Range', field]], size, {}, { maxRanges: 16, coalesceGap: gap })
      if (r._tag === 'Whole' || r._tag === 'Unsatisfiable') return true
      const ranges = r._tag === 'Single' ? [r.range] : r.ranges
      const inside = ranges.every((x) => x.first >= 0 && x.first <= x.last && x.last < size)
      const sorted = [...ranges].sort((a, b) => a.first - b.first)
      const apart = sorted.every((x, i) => i === 0 || x.first - (sorted[i - 1]?.last ?? 0) - 1 >= gap)
      return inside && apart && ranges.length <= 16 && (r._tag === 'Multiple') === ranges.length > 1
    }),
  )
})

test('selectRanges :: 416 exactly when no range-spec is satisfiable; the sent bytes never exceed the size', () => {
  fc.assert(
    fc.property(fc.array(rangeSpec, { minLength: 1, maxLength: 16 }), fc.integer({ min: 1, max: 400 }), (specs, size) => {
      const r = selectRanges('GET', [['Range', `bytes=${specs.join(',')}`]], size, {})
      const satisfiable = specs.some((s) => (s.startsWith('-') ? Number(s.slice(1)) > 0 : Number(s.split('-')[0]) < size))
      if (!satisfiable) return r._tag === 'Unsatisfiable' && r.contentRange === `bytes */${size}`
      if (r._tag === 'Unsatisfiable' || r._tag === 'Whole') return false
      const ranges = r._tag === 'Single' ? [r.range] : r.ranges
      return ranges.reduce((n, x) => n + x.last - x.first + 1, 0) <= size
    }),
  )
})

test('resolveStaticPath :: a resolved path never holds .., a separator, NUL or an empty segment', () => {
  const segment = fc.oneof(fc.constantFrom('..', '.', '', '%2e%2e', '%2E.', '%2f', '%5c', '\\', '%00', '%252e%252e', '%c0%ae', 'a', '.git', 'x.txt', 'CON'), fc.string({ maxLength: 6 }))
  fc.assert(
    fc.property(fc.array(segment, { maxLength: 8 }), fc.boolean(), (segments, windowsNames) => {
      const r = resolveStaticPath(`/${segments.join('/')}`, { dotfiles: 'allow', windowsNames })
      if (E.isLeft(r)) return [400, 403, 404].includes(r.left.status)
      return (
        r.right.segments.length > 0 &&
        r.right.segments.every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('/') && !s.includes('\\') && !s.includes('\u0000')) &&
        r.right.path === r.right.segments.join('/')
      )
    }),
  )
})

// The four conditional fields, each absent, matching or not.
const DATE_AT = lastModifiedOf(784111777000)
const DATE_BEFORE = lastModifiedOf(784111776000)
const v = { etag: '"e"', lastModified: 784111777000 }
const field = (name: string, values: readonly string[]): fc.Arbitrary<Header | undefined> =>
  fc.option(fc.constantFrom(...values).map((value): Header => [name, value]), { nil: undefined })
const conditions = fc.record({
  ifMatch: field('If-Match', ['"e"', '"x"', '*', 'W/"e"']),
  ifUnmodifiedSince: field('If-Unmodified-Since', [DATE_AT, DATE_BEFORE, 'junk']),
  ifNoneMatch: field('If-None-Match', ['"e"', '"x"', '*', 'W/"e"']),
  ifModifiedSince: field('If-Modified-Since', [DATE_AT, DATE_BEFORE, 'junk']),
})
const methods = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE')

test('evaluatePreconditions :: follows the precedence of RFC 9110 §13.2.2', () => {
  fc.assert(
    fc.property(methods, conditions, (method, c) => {
      const headers = [c.ifMatch, c.ifUnmodifiedSince, c.ifNoneMatch, c.ifModifiedSince].filter((h): h is Header => h !== undefined)
      const got = evaluatePreconditions(method, headers, v)
      const safe = method === 'GET' || method === 'HEAD'
      // Step 1 and 2.
      if (c.ifMatch !== undefined) {
        if (!['"e"', '*'].includes(c.ifMatch[1])) return got === 412
      } else if (c.ifUnmodifiedSince?.[1] === DATE_BEFORE) return got === 412
      // Step 3.
      if (c.ifNoneMatch !== undefined) {
        if (['"e"', '*', 'W/"e"'].includes(c.ifNoneMatch[1])) return got === (safe ? 304 : 412)
        return got === 'proceed'
      }
      // Step 4.
      if (safe && c.ifModifiedSince?.[1] === DATE_AT) return got === 304
      return got === 'proceed'
    }),
  )
})

test('evaluatePreconditions :: never 304 for a method other than GET and HEAD', () => {
  fc.assert(fc.property(fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH'), conditions, (method, c) => {
    const headers = [c.ifMatch, c.ifUnmodifiedSince, c.ifNoneMatch, c.ifModifiedSince].filter((h): h is Header => h !== undefined)
    return evaluatePreconditions(method, headers, v) !== 304
  }))
})

test('lastModifiedOf and parseHttpDate :: round trip at one-second precision', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 253402300799000 }), (ms) => parseHttpDate(lastModifiedOf(ms)) === Math.floor(ms / 1000) * 1000),
  )
})

test('pickEncoding :: always one of the available codings; a coding with q=0 is never picked when acceptable', () => {
  const coding = fc.constantFrom('br', 'gzip', 'zstd', 'identity', '*', 'deflate')
  const q = fc.option(fc.constantFrom('0', '0.5', '1', '0.001', '0.999'), { nil: undefined })
  const member = fc.tuple(coding, q).map(([c, w]) => (w === undefined ? c : `${c};q=${w}`))
  fc.assert(
    fc.property(fc.array(member, { maxLength: 6 }), fc.subarray(['zstd', 'br', 'gzip', 'identity'], { minLength: 1 }), (members, available) => {
      const field = members.join(', ')
      const r = pickEncoding(field, available)
      if (!available.includes(r.coding)) return false
      if (r.acceptable && members.includes(`${r.coding};q=0`) && !members.some((m) => m === r.coding || (m.startsWith(`${r.coding};`) && m !== `${r.coding};q=0`))) return false
      return r.vary === available.some((a) => a !== 'identity')
    }),
  )
})

test.run()
