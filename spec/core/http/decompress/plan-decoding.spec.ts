import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { planDecoding } from '../../../../lib/core/http/decompress/plan-decoding.js'
import { httpErrorResponse } from '../../../../lib/core/http/http-error-response.js'
import type { Header } from '../../../../lib/core/http/types.js'

const ALL = ['gzip', 'deflate', 'br'] as const
const ce = (value: string): Header[] => [['Host', 'x'], ['Content-Encoding', value]]

test('planDecoding :: no Content-Encoding, or only identity: the body is left as it is', () => {
  assert.equal(planDecoding([['Host', 'x']], true, ALL), { _tag: 'Leave' })
  assert.equal(planDecoding(ce('identity'), undefined, ALL), { _tag: 'Leave' })
  assert.equal(planDecoding(ce(' Identity , '), true, ALL), { _tag: 'Leave' })
})

test('planDecoding :: a route that opted in decodes what the runtime has (x-gzip is gzip, any case)', () => {
  assert.equal(planDecoding(ce('gzip'), true, ALL), { _tag: 'Decode', codings: ['gzip'] })
  assert.equal(planDecoding(ce('X-GZIP'), true, ALL), { _tag: 'Decode', codings: ['gzip'] })
  assert.equal(planDecoding(ce('br'), ['br'], ALL), { _tag: 'Decode', codings: ['br'] })
  assert.equal(planDecoding(ce('identity, deflate'), true, ALL), { _tag: 'Decode', codings: ['deflate'] })
})

test('planDecoding :: stacked codings are undone from the last applied (RFC 9110 §8.4), two at most', () => {
  assert.equal(planDecoding(ce('gzip, br'), true, ALL), { _tag: 'Decode', codings: ['br', 'gzip'] })
  assert.equal(planDecoding([['Content-Encoding', 'deflate'], ['Content-Encoding', 'gzip']], true, ALL), { _tag: 'Decode', codings: ['gzip', 'deflate'] })
  const deep = planDecoding(ce('gzip, gzip, gzip'), true, ALL)
  assert.ok(deep._tag === 'Refuse' && deep.error._tag === 'UnsupportedContentEncoding' && deep.error.status === 415 && deep.error.coding === 'gzip, gzip, gzip')
})

test('planDecoding :: a route that did not opt in refuses any coding with 415 and Accept-Encoding: identity', () => {
  const plan = planDecoding(ce('gzip'), undefined, ALL)
  assert.ok(plan._tag === 'Refuse')
  assert.equal([plan.error._tag, plan.error.status, plan.error.reason], ['UnsupportedContentEncoding', 415, 'unsupported_content_encoding'])
  const res = httpErrorResponse(plan.error)
  assert.is(res.status, 415)
  assert.equal(res.headers, [['Accept-Encoding', 'identity']])
})

test("planDecoding :: 'raw' takes any coding as sent", () => {
  assert.equal(planDecoding(ce('compress'), 'raw', ALL), { _tag: 'Leave' })
})

test('planDecoding :: an unknown coding, one the route did not list or the runtime lacks: 415 listing what is taken', () => {
  for (const [value, option, accepted] of [
    ['compress', true, 'gzip, deflate, br, identity'],
    ['zstd', true, 'gzip, deflate, br, identity'],
    ['br', ['gzip'], 'gzip, identity'],
    ['gzip, compress', true, 'gzip, deflate, br, identity'],
  ] as const) {
    const plan = planDecoding(ce(value), option, ALL)
    assert.ok(plan._tag === 'Refuse', value)
    assert.equal(httpErrorResponse(plan.error).headers, [['Accept-Encoding', accepted]], value)
  }
})

test.run()
