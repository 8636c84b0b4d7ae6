import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import type { CompiledRoutes } from '../../../lib/core/route/compiled-routes.js'
import { createRouteMemo, matchRoute as matchRouteWith, matchStatic as matchStaticWith } from '../../../lib/core/route/match-route.js'

// One server's memo for every lookup here, as a server matches.
const memo = createRouteMemo()
const matchStatic = (compiled: CompiledRoutes, method: string, path: string) => matchStaticWith(compiled, method, path, memo)
const matchRoute = (routes: CompiledRoutes, method: string, path: string) => matchRouteWith(routes, method, path, memo)

const table = [
  httpRoute('GET', '/', () => 'root'),
  httpRoute('GET', '/hello', () => 'hello'),
  httpRoute('POST', '/hello', () => 'post hello'),
  httpRoute('GET', '/users/me', () => 'me'),
  httpRoute('GET', '/users/{id}', () => 'user'),
  httpRoute('DELETE', '/a/b/c', () => 'abc'),
  httpRoute('PUT', '/a/%41', () => 'encoded'),
]
const compiled = (() => {
  const c = compileRoutes(table)
  if (E.isLeft(c)) throw new Error('table')
  return c.right
})()

const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'get')
const path = fc.oneof(
  fc.constantFrom('/', '//', '/hello', '/hello/', '/hello//', 'hello', '/users/me', '/users/me/', '/users/42', '/a/b/c', '/a/b', '/a/%41', '/a/A', ''),
  fc.array(fc.constantFrom('a', 'b', 'c', 'hello', 'users', 'me', '', '%41'), { maxLength: 4 }).map((s) => `/${s.join('/')}`),
)

test('matchStatic :: whenever it answers, matchRoute finds the same route with no params (random paths)', () => {
  fc.assert(
    fc.property(method, path, (m, p) => {
      const endpoint = matchStatic(compiled, m, p)
      if (endpoint === undefined) return
      const found = matchRoute(compiled, m, p)
      assert.is(found._tag, 'RouteFound')
      if (found._tag === 'RouteFound') {
        assert.is(found.route, endpoint.route)
        assert.equal(found.params, {})
      }
    }),
    { numRuns: 500 },
  )
})

test('matchStatic :: answers a static path as received, HEAD by its GET route, and leaves the rest to matchRoute', () => {
  assert.is(matchStatic(compiled, 'GET', '/hello')?.route, table[1])
  assert.is(matchStatic(compiled, 'HEAD', '/hello')?.route, table[1])
  assert.is(matchStatic(compiled, 'POST', '/hello')?.route, table[2])
  assert.is(matchStatic(compiled, 'GET', '/')?.route, table[0])
  assert.is(matchStatic(compiled, 'GET', '/hello/'), undefined)
  assert.is(matchStatic(compiled, 'GET', '/users/42'), undefined)
  assert.is(matchStatic(compiled, 'DELETE', '/hello'), undefined)
})

test.run()
