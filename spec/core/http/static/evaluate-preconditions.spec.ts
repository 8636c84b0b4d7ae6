/**
 * `evaluatePreconditions`: RFC 9110 §13.1's conditions one by one, then §13.2.2's order,
 * each with the status it leads to.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Header } from '../../../../lib/core/http/types.js'
import { evaluatePreconditions } from '../../../../lib/core/http/static/evaluate-preconditions.js'

const MTIME = 784111777500 // Sun, 06 Nov 1994 08:49:37.5 GMT
const AT = 'Sun, 06 Nov 1994 08:49:37 GMT'
const BEFORE = 'Sun, 06 Nov 1994 08:49:36 GMT'
const AFTER = 'Sun, 06 Nov 1994 08:49:38 GMT'
const v = { etag: '"abc"', lastModified: MTIME }
const run = (method: string, ...headers: Header[]): ReturnType<typeof evaluatePreconditions> => evaluatePreconditions(method, headers, v)

test('evaluatePreconditions :: no conditions: proceed', () => {
  assert.is(run('GET'), 'proceed')
  assert.is(run('POST', ['Accept', '*/*']), 'proceed')
})

test('evaluatePreconditions :: If-Match (§13.1.1): strong comparison, *, lists; 412 when false', () => {
  assert.is(run('PUT', ['If-Match', '"abc"']), 'proceed')
  assert.is(run('PUT', ['If-Match', '"x", "abc"']), 'proceed')
  assert.is(run('PUT', ['if-match', '"x"'], ['IF-MATCH', '"abc"']), 'proceed')
  assert.is(run('PUT', ['If-Match', '*']), 'proceed')
  assert.is(run('GET', ['If-Match', '"x"']), 412)
  assert.is(run('PUT', ['If-Match', 'W/"abc"']), 412, 'a weak tag never matches strongly')
  assert.is(evaluatePreconditions('PUT', [['If-Match', '"abc"']], { etag: 'W/"abc"' }), 412)
  assert.is(run('PUT', ['If-Match', 'abc']), 412, 'a malformed If-Match fails safe')
  assert.is(evaluatePreconditions('PUT', [['If-Match', '"abc"']], {}), 412, 'no ETag: no tag matches')
  assert.is(evaluatePreconditions('PUT', [['If-Match', '*']], {}), 'proceed')
})

test('evaluatePreconditions :: If-Unmodified-Since (§13.1.4): 412 when modified after, at second precision', () => {
  assert.is(run('PUT', ['If-Unmodified-Since', AT]), 'proceed')
  assert.is(run('PUT', ['If-Unmodified-Since', AFTER]), 'proceed')
  assert.is(run('PUT', ['If-Unmodified-Since', BEFORE]), 412)
  assert.is(run('GET', ['If-Unmodified-Since', BEFORE]), 412)
  assert.is(run('PUT', ['If-Unmodified-Since', 'not a date']), 'proceed', 'an invalid date is ignored')
  assert.is(run('PUT', ['If-Unmodified-Since', BEFORE], ['If-Unmodified-Since', BEFORE]), 'proceed', 'two lines: ignored')
  assert.is(evaluatePreconditions('PUT', [['If-Unmodified-Since', BEFORE]], { etag: '"abc"' }), 'proceed', 'no date to compare: ignored')
})

test('evaluatePreconditions :: If-None-Match (§13.1.2): weak comparison; 304 for GET and HEAD, 412 otherwise', () => {
  assert.is(run('GET', ['If-None-Match', '"abc"']), 304)
  assert.is(run('HEAD', ['If-None-Match', 'W/"abc"']), 304)
  assert.is(run('GET', ['If-None-Match', '"x", W/"abc"']), 304)
  assert.is(run('GET', ['If-None-Match', '*']), 304)
  assert.is(run('PUT', ['If-None-Match', '*']), 412)
  assert.is(run('POST', ['If-None-Match', '"abc"']), 412)
  assert.is(run('GET', ['If-None-Match', '"x"']), 'proceed')
  assert.is(run('GET', ['If-None-Match', 'abc']), 'proceed', 'a malformed If-None-Match fails safe')
})

test('evaluatePreconditions :: If-Modified-Since (§13.1.3): 304 when not modified since, GET and HEAD only', () => {
  assert.is(run('GET', ['If-Modified-Since', AT]), 304)
  assert.is(run('HEAD', ['If-Modified-Since', AFTER]), 304)
  assert.is(run('GET', ['If-Modified-Since', BEFORE]), 'proceed')
  assert.is(run('GET', ['If-Modified-Since', 'Sunday, 06-Nov-94 08:49:37 GMT']), 304)
  assert.is(run('GET', ['If-Modified-Since', 'Sun Nov  6 08:49:37 1994']), 304)
  assert.is(run('POST', ['If-Modified-Since', AFTER]), 'proceed', 'ignored for other methods')
  assert.is(run('GET', ['If-Modified-Since', 'garbage']), 'proceed')
  assert.is(run('GET', ['If-Modified-Since', AT], ['If-Modified-Since', AT]), 'proceed', 'two lines: ignored')
})

test('evaluatePreconditions :: §13.2.2 order: If-Match first, If-Unmodified-Since only without it', () => {
  assert.is(run('GET', ['If-Match', '"abc"'], ['If-Unmodified-Since', BEFORE]), 'proceed', 'If-Unmodified-Since ignored when If-Match is present')
  assert.is(run('GET', ['If-Match', '"x"'], ['If-None-Match', '"abc"']), 412, 'If-Match decides before If-None-Match')
  assert.is(run('GET', ['If-Unmodified-Since', BEFORE], ['If-None-Match', '"abc"']), 412)
})

test('evaluatePreconditions :: §13.2.2 order: If-None-Match, then If-Modified-Since only without it', () => {
  assert.is(run('GET', ['If-None-Match', '"x"'], ['If-Modified-Since', AFTER]), 'proceed', 'If-Modified-Since ignored when If-None-Match is present')
  assert.is(run('GET', ['If-None-Match', '"abc"'], ['If-Modified-Since', BEFORE]), 304)
  assert.is(run('GET', ['If-Match', '"abc"'], ['If-None-Match', '"abc"']), 304)
  assert.is(run('GET', ['If-Match', '"abc"'], ['If-Modified-Since', AT]), 304)
})

test.run()
