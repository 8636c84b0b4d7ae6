import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { matchRoute } from '../../../lib/core/route/match-route.js'
import type { RouteMatch } from '../../../lib/core/route/route-match.js'
import { routes } from '../../../lib/core/route/routes.js'

const named = (name: string) => () => name

// Every route's handler answers its own name, so a case can say which route matched.
const table = routes([
  httpRoute('GET', '/', named('root')),
  httpRoute('GET', '/users', named('list users')),
  httpRoute('POST', '/users', named('create user')),
  httpRoute('GET', '/users/me', named('me')),
  httpRoute('GET', '/users/{id}', named('user')),
  httpRoute('DELETE', '/users/{userId}', named('delete user')),
  httpRoute('GET', '/users/{id}/posts/{postId}', named('post')),
  httpRoute('GET', '/users/me/settings', named('settings')),
  httpRoute('PUT', '/files/{name}/', named('put file')),
  httpRoute('HEAD', '/ping', named('head ping')),
  httpRoute('GET', '/ping', named('ping')),
  httpRoute('POST', '/only-post', named('only post')),
  httpRoute('GET', '/a/{x}/c', named('a x c')),
  httpRoute('POST', '/a/b/{y}', named('a b y')),
])

const compiled = E.getOrElseW(() => assert.unreachable('table compiles') as never)(compileRoutes(table))

type Expect =
  | readonly ['found', string, Readonly<Record<string, string>>]
  | readonly ['404']
  | readonly ['405', readonly string[]]
  | readonly ['400']

// The shared case table: [method, path, expected].
const cases: readonly (readonly [string, string, Expect])[] = [
  ['GET', '/', ['found', 'root', {}]],
  ['GET', '/users', ['found', 'list users', {}]],
  ['GET', '/users/', ['found', 'list users', {}]],
  ['POST', '/users', ['found', 'create user', {}]],
  ['GET', '/users/42', ['found', 'user', { id: '42' }]],
  ['GET', '/users/42/', ['found', 'user', { id: '42' }]],
  ['DELETE', '/users/42', ['found', 'delete user', { userId: '42' }]],
  ['GET', '/users/me', ['found', 'me', {}]],
  ['DELETE', '/users/me', ['found', 'delete user', { userId: 'me' }]],
  ['GET', '/users/me/settings', ['found', 'settings', {}]],
  ['GET', '/users/me/posts/9', ['found', 'post', { id: 'me', postId: '9' }]],
  ['GET', '/users/a%20b', ['found', 'user', { id: 'a b' }]],
  ['GET', '/users/caf%C3%A9', ['found', 'user', { id: 'café' }]],
  ['GET', '/users/a%2Fb', ['found', 'user', { id: 'a/b' }]],
  ['GET', '/users/%E0%A4%A', ['400']],
  ['GET', '/users/%ZZ', ['400']],
  ['PUT', '/files/x.txt', ['found', 'put file', { name: 'x.txt' }]],
  ['PUT', '/files/x.txt/', ['found', 'put file', { name: 'x.txt' }]],
  ['HEAD', '/ping', ['found', 'head ping', {}]],
  ['HEAD', '/users', ['found', 'list users', {}]],
  ['HEAD', '/users/5', ['found', 'user', { id: '5' }]],
  ['GET', '/nope', ['404']],
  ['GET', '/users/1/2', ['404']],
  ['GET', '/users//posts/1', ['404']],
  ['GET', '//', ['found', 'root', {}]],
  ['GET', 'users', ['404']],
  ['GET', '*', ['404']],
  ['GET', '', ['404']],
  ['PATCH', '/users', ['405', ['GET', 'POST', 'HEAD']]],
  ['PATCH', '/users/1', ['405', ['GET', 'DELETE', 'HEAD']]],
  ['PATCH', '/users/me', ['405', ['GET', 'HEAD', 'DELETE']]],
  ['GET', '/only-post', ['405', ['POST']]],
  ['HEAD', '/only-post', ['405', ['POST']]],
  ['get', '/users', ['405', ['GET', 'POST', 'HEAD']]],
  ['GET', '/a/b/c', ['found', 'a x c', { x: 'b' }]],
  ['POST', '/a/b/c', ['found', 'a b y', { y: 'c' }]],
  ['PUT', '/a/b/c', ['405', ['POST', 'GET', 'HEAD']]],
]

const simplify = (m: RouteMatch): Expect => {
  switch (m._tag) {
    case 'RouteFound':
      return ['found', m.route.handler(undefined as never, undefined as never) as string, { ...m.params }]
    case 'RouteNotFound':
      assert.is(m.status, 404)
      return ['404']
    case 'MethodNotAllowed':
      assert.is(m.status, 405)
      return ['405', m.allow]
    case 'MalformedParam':
      assert.is(m.status, 400)
      return ['400']
  }
}

for (const [method, path, expected] of cases) {
  test(`matchRoute :: ${method} ${JSON.stringify(path)} gives ${expected.slice(0, 2).join(' ')}`, () => {
    assert.equal(simplify(matchRoute(compiled, method, path)), expected)
    // The table form compiles on first use and gives the same answer.
    assert.equal(simplify(matchRoute(table, method, path)), expected)
  })
}

test('matchRoute :: a table with conflicts keeps the first route', () => {
  const conflicting = [httpRoute('GET', '/x/{a}', named('first')), httpRoute('GET', '/x/{b}', named('second'))]
  const m = matchRoute(conflicting, 'GET', '/x/1')
  assert.equal(simplify(m), ['found', 'first', { a: '1' }])
})

test('matchRoute :: compiles a table once per identity', () => {
  const t1 = [httpRoute('GET', '/x', named('x'))]
  const first = matchRoute(t1, 'GET', '/x')
  const second = matchRoute(t1, 'GET', '/x')
  assert.is(first._tag, 'RouteFound')
  assert.is(second._tag === 'RouteFound' && first._tag === 'RouteFound' && second.route === first.route, true)
})

test('matchRoute :: an empty table finds nothing', () => {
  assert.equal(matchRoute([], 'GET', '/'), { _tag: 'RouteNotFound', status: 404 })
})

test.run()
