/**
 * `pickEncoding`: Accept-Encoding negotiation with RFC 9110 §12.5.3's examples and rules.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { pickEncoding } from '../../../../lib/core/http/static/pick-encoding.js'

const ALL = ['br', 'gzip', 'identity'] as const
const pick = (accept: string | undefined, available: readonly string[] = ALL): string => pickEncoding(accept, available).coding

test('pickEncoding :: the examples of RFC 9110 §12.5.3', () => {
  assert.is(pick('compress, gzip'), 'gzip')
  assert.is(pick(''), 'identity')
  assert.is(pick('*'), 'br')
  assert.is(pick('compress;q=0.5, gzip;q=1.0'), 'gzip')
  assert.is(pick('gzip;q=1.0, identity; q=0.5, *;q=0'), 'gzip')
})

test('pickEncoding :: q-values, ties broken by the server order, case and x-gzip', () => {
  assert.is(pick('gzip, deflate, br'), 'br')
  assert.is(pick('gzip, deflate, br, zstd'), 'br')
  assert.is(pick('gzip, br, zstd', ['zstd', 'br', 'gzip', 'identity']), 'zstd')
  assert.is(pick('br;q=0.5, gzip'), 'gzip')
  assert.is(pick('br;q=0.001, gzip;q=0'), 'br')
  assert.is(pick('GZIP'), 'gzip')
  assert.is(pick('x-gzip'), 'gzip')
  assert.is(pick('br;Q=0.9,gzip;q=0.8'), 'br')
  assert.is(pick('gzip;q=0.2, gzip;q=0.9, br;q=0.5'), 'gzip', 'a coding named twice keeps its best weight')
  assert.is(pick('deflate'), 'identity', 'nothing available named: identity')
})

test('pickEncoding :: identity: acceptable unless refused, ranked below named codings', () => {
  assert.equal(pickEncoding('gzip;q=0.1', ALL), { coding: 'gzip', vary: true, acceptable: true })
  assert.is(pick('identity'), 'identity')
  assert.is(pick('identity, gzip;q=0.5'), 'identity')
  assert.is(pick('*;q=0.5, gzip;q=0.4'), 'br', '* covers br and identity alike; the server order breaks the tie')
  assert.is(pick('*;q=0.5, br;q=0, gzip;q=0.4'), 'identity')
  assert.equal(pickEncoding('identity;q=0', ['identity']), { coding: 'identity', vary: false, acceptable: false })
  assert.equal(pickEncoding('*;q=0', ALL), { coding: 'identity', vary: true, acceptable: false })
  assert.equal(pickEncoding('*;q=0, identity', ALL), { coding: 'identity', vary: true, acceptable: true })
  assert.equal(pickEncoding('br;q=0, identity;q=0', ['br', 'identity']), { coding: 'identity', vary: true, acceptable: false })
  assert.equal(pickEncoding('identity;q=0', ['br']), { coding: 'br', vary: true, acceptable: false })
})

test('pickEncoding :: no field: identity; Vary whenever more than identity is available', () => {
  assert.equal(pickEncoding(undefined, ALL), { coding: 'identity', vary: true, acceptable: true })
  assert.equal(pickEncoding('br', ['identity']), { coding: 'identity', vary: false, acceptable: true })
  assert.equal(pickEncoding(undefined, []), { coding: 'identity', vary: false, acceptable: true })
})

test('pickEncoding :: malformed members are skipped, the rest counts', () => {
  assert.is(pick('br;q=2, gzip'), 'gzip')
  assert.is(pick('br;q=0.0001, gzip;q=0.5'), 'gzip')
  assert.is(pick('br;level=9, gzip;q=0.5'), 'gzip')
  assert.is(pick('br;q=, gzip;q=0.5'), 'gzip')
  assert.is(pick('b r, gzip;q=0.5'), 'gzip')
  assert.is(pick('br;q=1.000, gzip'), 'br')
  assert.is(pick('br;q=1.001, gzip;q=0.5'), 'gzip')
  assert.is(pick(',,, ,gzip ;q=0.5 ,'), 'gzip')
})

test.run()
