import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { boundaryOf, isValidBoundary } from '../../../../lib/core/http/multipart/boundary-of.js'
import { startMultipart } from '../../../../lib/core/http/multipart/start-multipart.js'

const tagOf = (contentType: string | undefined) => {
  const r = boundaryOf(contentType)
  return E.isLeft(r) ? [r.left._tag, r.left.status, r.left.reason] : r.right
}

test('boundaryOf :: token and quoted boundaries, any case and spacing, other parameters around', () => {
  assert.is(tagOf('multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW'), '----WebKitFormBoundary7MA4YWxkTrZu0gW')
  assert.is(tagOf('Multipart/Form-Data;BOUNDARY="a b:c/d=e?f(g)h,i+j_k.l\'m"'), "a b:c/d=e?f(g)h,i+j_k.l'm")
  assert.is(tagOf('multipart/form-data; charset=utf-8; boundary=xyz ; x="1;2"'), 'xyz')
  assert.is(tagOf('multipart/form-data; boundary=' + 'a'.repeat(70)), 'a'.repeat(70))
  assert.is(tagOf('multipart/form-data; boundary=x;'), 'x')
})

test('boundaryOf :: NotMultipart (415) for another media type or none', () => {
  for (const ct of [undefined, '', 'text/plain', 'multipart/mixed; boundary=x', 'application/x-www-form-urlencoded']) {
    assert.equal(tagOf(ct), ['NotMultipart', 415, 'not_multipart'], String(ct))
  }
  const r = boundaryOf('Text/Plain; charset=x')
  assert.ok(E.isLeft(r) && r.left._tag === 'NotMultipart' && r.left.contentType === 'text/plain')
})

test('boundaryOf :: MissingBoundary (400)', () => {
  for (const ct of ['multipart/form-data', 'multipart/form-data;', 'multipart/form-data; charset=utf-8', 'multipart/form-data; boundaryx=1', 'multipart/form-data; =x']) {
    assert.equal(tagOf(ct), ['MissingBoundary', 400, 'missing_boundary'], ct)
  }
})

test('boundaryOf :: InvalidBoundary (400): empty, 71 characters, a trailing space, a character outside bchars, unterminated, repeated, trailing junk', () => {
  for (const ct of [
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=""',
    `multipart/form-data; boundary=${'a'.repeat(71)}`,
    'multipart/form-data; boundary="ab "',
    'multipart/form-data; boundary=a*b',
    'multipart/form-data; boundary="a\tb"',
    'multipart/form-data; boundary="é"',
    'multipart/form-data; boundary="abc',
    'multipart/form-data; boundary=a; boundary=b',
    'multipart/form-data; boundary=a b',
    'multipart/form-data; boundary',
  ]) {
    assert.equal(tagOf(ct), ['InvalidBoundary', 400, 'invalid_boundary'], ct)
  }
})

test('isValidBoundary and startMultipart :: RFC 2046 bchars, 1..70, no trailing space', () => {
  assert.ok(isValidBoundary("0aZ'()+_,-./:=? x"))
  for (const bad of ['', ' ', 'a ', 'a'.repeat(71), 'a\r', 'a"', 'a;b']) {
    assert.not.ok(isValidBoundary(bad), JSON.stringify(bad))
    const start = startMultipart(bad)
    assert.ok(E.isLeft(start) && start.left._tag === 'InvalidBoundary' && start.left.status === 400)
  }
  assert.ok(E.isRight(startMultipart('a'.repeat(70))))
})

test.run()
