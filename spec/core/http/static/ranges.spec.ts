/**
 * `parseRange`, `selectRanges`, `ifRangeHolds` and `multipartByteranges`, with RFC 9110 §14's
 * own examples (a 10000-byte representation in §14.1.2) and the abuse cases of §17.15.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Header } from '../../../../lib/core/http/types.js'
import { contentRangeOf } from '../../../../lib/core/http/static/byte-range.js'
import { ifRangeHolds } from '../../../../lib/core/http/static/if-range-holds.js'
import { multipartByteranges } from '../../../../lib/core/http/static/multipart-byteranges.js'
import { parseRange } from '../../../../lib/core/http/static/parse-range.js'
import { selectRanges } from '../../../../lib/core/http/static/select-ranges.js'

const select = (range: string, size = 10000, ...more: Header[]): ReturnType<typeof selectRanges> =>
  selectRanges('GET', [['Range', range], ...more], size, { etag: '"e"', lastModified: 784111777000 })
const single = (first: number, last: number, size = 10000): ReturnType<typeof selectRanges> => ({
  _tag: 'Single',
  status: 206,
  range: { first, last },
  contentRange: `bytes ${first}-${last}/${size}`,
})
const WHOLE = { _tag: 'Whole', status: 200 }

test('parseRange :: the forms of RFC 9110 §14.1.2', () => {
  assert.equal(parseRange('bytes=0-499'), { unit: 'bytes', specs: [{ _tag: 'IntRange', first: 0, last: 499 }] })
  assert.equal(parseRange('bytes=9500-'), { unit: 'bytes', specs: [{ _tag: 'IntRange', first: 9500, last: undefined }] })
  assert.equal(parseRange('bytes=-500'), { unit: 'bytes', specs: [{ _tag: 'SuffixRange', length: 500 }] })
  assert.equal(parseRange('bytes=0-0,-1'), {
    unit: 'bytes',
    specs: [
      { _tag: 'IntRange', first: 0, last: 0 },
      { _tag: 'SuffixRange', length: 1 },
    ],
  })
  assert.equal(parseRange('Bytes=500-600 , 601-999')?.specs.length, 2)
  assert.equal(parseRange('bytes=, 0-1,,\t2-3 ,')?.specs.length, 2, 'empty members and whitespace around commas')
  assert.equal(parseRange('items=0-1')?.unit, 'items')
})

test('parseRange :: invalid fields', () => {
  for (const text of ['', 'bytes', 'bytes=', 'bytes=,', '=0-1', 'bytes=5-1', 'bytes=a-b', 'bytes=0-1-2', 'bytes=--1', 'bytes=-', 'bytes=0 -1', 'bytes=0- 1', 'bytes=1.5-2', 'bytes=+1-2', 'bytes=0-1;x', 'by tes=0-1', 'bytes=0x10-20', 'bytes=-1-']) {
    assert.is(parseRange(text), undefined, JSON.stringify(text))
  }
})

test('selectRanges :: one range: 206 with Content-Range (RFC 9110 §14.1.2 examples)', () => {
  assert.equal(select('bytes=0-499'), single(0, 499))
  assert.equal(select('bytes=500-999'), single(500, 999))
  assert.equal(select('bytes=-500'), single(9500, 9999))
  assert.equal(select('bytes=9500-'), single(9500, 9999))
  assert.equal(select('bytes=9500-20000'), single(9500, 9999), 'last-pos clipped to the size')
  assert.equal(select('bytes=-20000'), single(0, 9999), 'a suffix longer than the file: all of it')
  assert.equal(select('bytes=0-'), single(0, 9999))
  assert.equal(select('bytes=0-99999999999999999999999'), single(0, 9999))
})

test('selectRanges :: several ranges: in the order asked, unless they overlap or nearly touch', () => {
  assert.equal(select('bytes=0-0,-1'), { _tag: 'Multiple', status: 206, ranges: [{ first: 0, last: 0 }, { first: 9999, last: 9999 }] })
  assert.equal(select('bytes=5000-5099,0-99'), { _tag: 'Multiple', status: 206, ranges: [{ first: 5000, last: 5099 }, { first: 0, last: 99 }] })
  // RFC 9110 §14.1.2: "bytes=500-600,601-999" and "bytes=500-700,601-999" are the second 500 bytes.
  assert.equal(select('bytes=500-600,601-999'), single(500, 999))
  assert.equal(select('bytes=500-700,601-999'), single(500, 999))
  assert.equal(select('bytes=0-99,150-199'), single(0, 199), 'a gap smaller than a part head is merged')
  assert.equal(select('bytes=0-99,180-199'), { _tag: 'Multiple', status: 206, ranges: [{ first: 0, last: 99 }, { first: 180, last: 199 }] })
  assert.equal(select('bytes=9000-9099,0-99,50-60'), { _tag: 'Multiple', status: 206, ranges: [{ first: 0, last: 99 }, { first: 9000, last: 9099 }] })
  assert.equal(select('bytes=0-0,20000-'), single(0, 0), 'unsatisfiable members are dropped')
})

test('selectRanges :: nothing satisfiable: 416 with bytes */size', () => {
  const unsatisfiable = { _tag: 'Unsatisfiable', status: 416, contentRange: 'bytes */10000' }
  assert.equal(select('bytes=10000-'), unsatisfiable)
  assert.equal(select('bytes=10000-10001,20000-'), unsatisfiable)
  assert.equal(select('bytes=-0'), unsatisfiable)
})

test('selectRanges :: ignored (200): other methods, invalid or foreign units, empty files, two Range lines', () => {
  assert.equal(selectRanges('HEAD', [['Range', 'bytes=0-1']], 100, {}), WHOLE)
  assert.equal(selectRanges('POST', [['Range', 'bytes=0-1']], 100, {}), WHOLE)
  assert.equal(selectRanges('GET', [], 100, {}), WHOLE)
  assert.equal(select('bytes=5-1'), WHOLE)
  assert.equal(select('items=0-1'), WHOLE)
  assert.equal(select('bytes=0-1', 0), WHOLE)
  assert.equal(select('bytes=-5', 0), WHOLE)
  assert.equal(selectRanges('GET', [['Range', 'bytes=0-1'], ['Range', 'bytes=2-3']], 100, {}), WHOLE)
})

test('selectRanges :: abuse (RFC 9110 §17.15): more than maxRanges is ignored; overlaps are merged', () => {
  const many = `bytes=${Array.from({ length: 17 }, (_, i) => `${i * 200}-${i * 200 + 10}`).join(',')}`
  assert.equal(select(many), WHOLE)
  const sixteen = `bytes=${Array.from({ length: 16 }, (_, i) => `${i * 200}-${i * 200 + 10}`).join(',')}`
  assert.is(select(sixteen)._tag, 'Multiple')
  assert.equal(select(`bytes=${Array(16).fill('0-').join(',')}`), single(0, 9999), 'sixteen whole files are one')
  assert.equal(select(`bytes=${Array.from({ length: 16 }, (_, i) => `${i}-${i + 100}`).join(',')}`), single(0, 115))
  assert.equal(selectRanges('GET', [['Range', 'bytes=0-1,4-5']], 100, {}, { maxRanges: 1 }), WHOLE)
  assert.equal(selectRanges('GET', [['Range', 'bytes=0-1,4-5']], 100, {}, { coalesceGap: 0 }), {
    _tag: 'Multiple',
    status: 206,
    ranges: [
      { first: 0, last: 1 },
      { first: 4, last: 5 },
    ],
  })
})

test('ifRangeHolds :: a strong ETag or the exact date (RFC 9110 §13.1.5)', () => {
  const v = { etag: '"e"', lastModified: 784111777900 }
  assert.ok(ifRangeHolds('"e"', v))
  assert.not.ok(ifRangeHolds('"f"', v))
  assert.not.ok(ifRangeHolds('W/"e"', v), 'weak tags never match')
  assert.not.ok(ifRangeHolds('"e"', { etag: 'W/"e"' }))
  assert.ok(ifRangeHolds('Sun, 06 Nov 1994 08:49:37 GMT', v))
  assert.not.ok(ifRangeHolds('Sun, 06 Nov 1994 08:49:38 GMT', v), 'a later date is not an exact match')
  assert.not.ok(ifRangeHolds('Sun, 06 Nov 1994 08:49:37 GMT', { etag: '"e"' }))
  assert.not.ok(ifRangeHolds('"e", "f"', v))
  assert.not.ok(ifRangeHolds('*', v))
  assert.not.ok(ifRangeHolds('garbage', v))
})

test('selectRanges :: If-Range decides whether the Range applies', () => {
  assert.equal(select('bytes=0-9', 10000, ['If-Range', '"e"']), single(0, 9))
  assert.equal(select('bytes=0-9', 10000, ['If-Range', '"stale"']), WHOLE)
  assert.equal(select('bytes=0-9', 10000, ['If-Range', 'Sun, 06 Nov 1994 08:49:37 GMT']), single(0, 9))
  assert.equal(select('bytes=0-9', 10000, ['If-Range', 'Sun, 06 Nov 1994 08:49:36 GMT']), WHOLE)
  assert.equal(select('bytes=0-9', 10000, ['If-Range', '"e"'], ['If-Range', '"e"']), WHOLE)
  assert.equal(select('bytes=20000-', 10000, ['If-Range', '"stale"']), WHOLE, 'a stale If-Range gets the whole file, never 416')
})

test('contentRangeOf :: a part and the 416 form (RFC 9110 §14.4)', () => {
  assert.is(contentRangeOf({ first: 42, last: 1233 }, 1234), 'bytes 42-1233/1234')
  assert.is(contentRangeOf(undefined, 1234), 'bytes */1234')
})

test('multipartByteranges :: the body of RFC 9110 §14.6, byte for byte', () => {
  const body = multipartByteranges(
    [
      { first: 500, last: 999 },
      { first: 7000, last: 7999 },
    ],
    8000,
    'application/pdf',
    'THIS_STRING_SEPARATES',
  )
  assert.ok(body !== undefined)
  if (body === undefined) return
  assert.is(body.contentType, 'multipart/byteranges; boundary=THIS_STRING_SEPARATES')
  assert.is(body.parts[0]?.head, '--THIS_STRING_SEPARATES\r\nContent-Type: application/pdf\r\nContent-Range: bytes 500-999/8000\r\n\r\n')
  assert.is(body.parts[1]?.head, '\r\n--THIS_STRING_SEPARATES\r\nContent-Type: application/pdf\r\nContent-Range: bytes 7000-7999/8000\r\n\r\n')
  assert.is(body.tail, '\r\n--THIS_STRING_SEPARATES--\r\n')
  const file = 'x'.repeat(8000)
  const whole = body.parts.map((p) => p.head + file.slice(p.range.first, p.range.last + 1)).join('') + body.tail
  assert.is(body.length, whole.length)
})

test('multipartByteranges :: a boundary outside RFC 2046 is refused', () => {
  for (const boundary of ['', 'a b', 'a\r\nb', 'x'.repeat(71), 'a"b', 'a;b']) {
    assert.is(multipartByteranges([{ first: 0, last: 0 }], 1, 'text/plain', boundary), undefined, JSON.stringify(boundary))
  }
  assert.ok(multipartByteranges([{ first: 0, last: 0 }], 1, 'text/plain', 'x'.repeat(70)) !== undefined)
})

test.run()
