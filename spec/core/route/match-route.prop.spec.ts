import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { matchRoute } from '../../../lib/core/route/match-route.js'

const table = [
  httpRoute('GET', '/users/{id}/posts/{postId}', () => 'post'),
  httpRoute('GET', '/users/{id}', () => 'user'),
  httpRoute('GET', '/users/me', () => 'me'),
]

// Non-empty values; lone surrogates cannot be percent-encoded as UTF-8, so they are excluded.
const value = fc.string({ minLength: 1, unit: 'grapheme' })

test('matchRoute :: any encoded param values decode back to themselves', () => {
  fc.assert(
    fc.property(value, value, fc.boolean(), (id, postId, slash) => {
      const path = `/users/${encodeURIComponent(id)}/posts/${encodeURIComponent(postId)}${slash ? '/' : ''}`
      const m = matchRoute(table, 'GET', path)
      assert.is(m._tag, 'RouteFound')
      if (m._tag === 'RouteFound') assert.equal({ ...m.params }, { id, postId })
    }),
    { numRuns: 200 },
  )
})

test('matchRoute :: never throws, whatever the method and path', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), (method, path) => {
      const m = matchRoute(table, method, path)
      assert.ok(['RouteFound', 'RouteNotFound', 'MethodNotAllowed', 'MalformedParam'].includes(m._tag))
    }),
    { numRuns: 300 },
  )
})

test.run()
