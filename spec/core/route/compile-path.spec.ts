import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { compilePath, trimTrailingSlash } from '../../../lib/core/route/compile-path.js'

test('compilePath :: the root has no segments', () => {
  assert.equal(compilePath('/'), E.right({ path: '/', segments: [], params: [] }))
})

test('compilePath :: splits literals and params, dropping a trailing slash', () => {
  assert.equal(
    compilePath('/users/{id}/posts/{post_id}/'),
    E.right({
      path: '/users/{id}/posts/{post_id}',
      segments: [
        { _tag: 'Static', text: 'users' },
        { _tag: 'Param', name: 'id' },
        { _tag: 'Static', text: 'posts' },
        { _tag: 'Param', name: 'post_id' },
      ],
      params: ['id', 'post_id'],
    }),
  )
})

test('compilePath :: accepts RFC 3986 pchars and percent-encodings in literals', () => {
  assert.ok(E.isRight(compilePath("/a-b.c_d~e/!$&'()*+,;=:@/%20")))
})

test('compilePath :: rejects what a path cannot hold', () => {
  assert.equal(compilePath(''), E.left('must start with "/"'))
  assert.equal(compilePath('/a//b'), E.left('empty segment'))
  assert.equal(compilePath('/a/{id}x'), E.left('a param must be a whole segment: {id}x'))
  assert.equal(compilePath('/a/%zz'), E.left('invalid characters in %zz'))
  assert.equal(compilePath('/a?b'), E.left('invalid characters in a?b'))
  assert.equal(compilePath('/{a}/{a}'), E.left('param {a} appears twice'))
  assert.equal(compilePath('/{__proto__}'), E.left('{__proto__} cannot be a param name'))
})

test('trimTrailingSlash :: drops one slash but keeps the root', () => {
  assert.is(trimTrailingSlash('/'), '/')
  assert.is(trimTrailingSlash('/a/'), '/a')
  assert.is(trimTrailingSlash('/a'), '/a')
})

test.run()
