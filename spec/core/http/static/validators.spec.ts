/**
 * `etagOf`, `lastModifiedOf`, `parseHttpDate` and the entity-tag lists, with RFC 9110's own
 * examples (§5.6.7 for the three date formats, §8.8.3.2 for the comparison table).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { entityTagsMatch, parseEntityTags } from '../../../../lib/core/http/static/entity-tags.js'
import { etagOf } from '../../../../lib/core/http/static/etag-of.js'
import { lastModifiedOf } from '../../../../lib/core/http/static/last-modified-of.js'
import { parseHttpDate } from '../../../../lib/core/http/static/parse-http-date.js'

// RFC 9110 §5.6.7's example instant: Sun, 06 Nov 1994 08:49:37 GMT.
const NOV_6_1994 = 784111777000

test('etagOf :: strong, quoted, hexadecimal size and millisecond time', () => {
  assert.is(etagOf(1024, 1700000000000), '"400-18bcfe56800"')
  assert.is(etagOf(0, 0), '"0-0"')
  assert.is(etagOf(5, 1700000000000.987), etagOf(5, 1700000000000), 'the fraction Node reports is dropped')
  assert.is.not(etagOf(5, 1700000000001), etagOf(5, 1700000000000))
  assert.is.not(etagOf(6, 1700000000000), etagOf(5, 1700000000000))
  assert.is(etagOf(Number.NaN, Number.NaN), '"0-0"')
  assert.ok(/^"[0-9a-f-]+"$/.test(etagOf(2 ** 40, -86400000)))
})

test('lastModifiedOf :: IMF-fixdate, never later than now', () => {
  assert.is(lastModifiedOf(NOV_6_1994), 'Sun, 06 Nov 1994 08:49:37 GMT')
  assert.is(lastModifiedOf(NOV_6_1994 + 999), 'Sun, 06 Nov 1994 08:49:37 GMT')
  assert.is(lastModifiedOf(NOV_6_1994 + 3600_000, NOV_6_1994), 'Sun, 06 Nov 1994 08:49:37 GMT')
  assert.is(lastModifiedOf(-1), 'Thu, 01 Jan 1970 00:00:00 GMT')
  assert.is(lastModifiedOf(Number.POSITIVE_INFINITY), 'Thu, 01 Jan 1970 00:00:00 GMT')
  assert.is(lastModifiedOf(1e20), 'Fri, 31 Dec 9999 23:59:59 GMT')
  assert.is(parseHttpDate(lastModifiedOf(1700000000000)), 1700000000000)
})

test('parseHttpDate :: the three formats of RFC 9110 §5.6.7', () => {
  assert.is(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), NOV_6_1994)
  assert.is(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), NOV_6_1994)
  assert.is(parseHttpDate('Sun Nov  6 08:49:37 1994'), NOV_6_1994)
  assert.is(parseHttpDate('Sun Nov 06 08:49:37 1994'), NOV_6_1994)
  assert.is(parseHttpDate('  Sun, 06 Nov 1994 08:49:37 GMT\t'), NOV_6_1994)
  assert.is(parseHttpDate('Mon, 29 Feb 2016 23:59:60 GMT'), Date.UTC(2016, 1, 29, 23, 59, 59))
})

test('parseHttpDate :: two-digit years: at most 50 years ahead of now (RFC 9110 §5.6.7)', () => {
  const in2025 = Date.UTC(2025, 5, 1)
  assert.is(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', in2025), NOV_6_1994)
  assert.is(new Date(parseHttpDate('Friday, 01-Jan-75 00:00:00 GMT', in2025) ?? 0).getUTCFullYear(), 2075)
  assert.is(new Date(parseHttpDate('Saturday, 01-Jan-76 00:00:00 GMT', in2025) ?? 0).getUTCFullYear(), 1976)
  assert.is(new Date(parseHttpDate('Monday, 01-Jan-01 00:00:00 GMT', Date.UTC(2090, 0, 1)) ?? 0).getUTCFullYear(), 2101)
  assert.is(new Date(parseHttpDate('Monday, 01-Jan-69 00:00:00 GMT') ?? 0).getUTCFullYear(), 2069)
  assert.is(new Date(parseHttpDate('Monday, 01-Jan-70 00:00:00 GMT') ?? 0).getUTCFullYear(), 1970)
})

test('parseHttpDate :: anything else is invalid', () => {
  for (const text of [
    '',
    'yesterday',
    '784111777',
    '1994-11-06T08:49:37Z',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 06 Nov 1994 08:49:37 gmt',
    'sun, 06 Nov 1994 08:49:37 GMT',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'Sun, 06 nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 94 08:49:37 GMT',
    'Sun,  06 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 8:49:37 GMT',
    'Sun, 31 Nov 1994 08:49:37 GMT',
    'Sun, 29 Feb 1995 08:49:37 GMT',
    'Sun, 00 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 24:00:00 GMT',
    'Sun, 06 Nov 1994 08:60:37 GMT',
    'Sun, 06 Nov 1994 08:49:61 GMT',
    'Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT',
    'Sun, 06-Nov-94 08:49:37 GMT',
    'Sunday, 06-Nov-1994 08:49:37 GMT',
    'Sun Nov 6 08:49:37 1994',
    'Sun Nov  6 08:49:37 94',
  ]) {
    assert.is(parseHttpDate(text), undefined, JSON.stringify(text))
  }
})

test('parseEntityTags :: lists, weak tags, *, empty members, several lines', () => {
  assert.equal(parseEntityTags(['"xyzzy"']), [{ weak: false, opaque: '"xyzzy"' }])
  assert.equal(parseEntityTags(['"xyzzy", "r2d2xxxx", "c3piozzzz"']), [
    { weak: false, opaque: '"xyzzy"' },
    { weak: false, opaque: '"r2d2xxxx"' },
    { weak: false, opaque: '"c3piozzzz"' },
  ])
  assert.equal(parseEntityTags(['W/"xyzzy"', ' , "a" ,, ']), [
    { weak: true, opaque: '"xyzzy"' },
    { weak: false, opaque: '"a"' },
  ])
  assert.equal(parseEntityTags(['""']), [{ weak: false, opaque: '""' }])
  assert.is(parseEntityTags(['*']), '*')
  assert.is(parseEntityTags([' * ']), '*')
})

test('parseEntityTags :: malformed lists are undefined', () => {
  for (const text of ['', ' ', ',', 'xyzzy', '"unterminated', 'w/"a"', 'W/a', '"a" "b"', '"a"b', '*, "a"', '"a", *', '"a b"', '"a\u0001"', 'W/ "a"']) {
    assert.is(parseEntityTags([text]), undefined, JSON.stringify(text))
  }
})

// RFC 9110 §8.8.3.2: | ETag 1 | ETag 2 | Strong Comparison | Weak Comparison |
test('entityTagsMatch :: the comparison table of RFC 9110 §8.8.3.2', () => {
  const table: readonly (readonly [string, string, boolean, boolean])[] = [
    ['W/"1"', 'W/"1"', false, true],
    ['W/"1"', 'W/"2"', false, false],
    ['W/"1"', '"1"', false, true],
    ['"1"', '"1"', true, true],
  ]
  for (const [a, b, strong, weak] of table) {
    const list = parseEntityTags([a])
    assert.ok(list !== undefined)
    if (list === undefined) return
    assert.is(entityTagsMatch(list, b, 'strong'), strong, `${a} ${b} strong`)
    assert.is(entityTagsMatch(list, b, 'weak'), weak, `${a} ${b} weak`)
  }
  assert.ok(entityTagsMatch('*', undefined, 'strong'))
  assert.not.ok(entityTagsMatch([{ weak: false, opaque: '"1"' }], undefined, 'weak'))
})

test.run()
