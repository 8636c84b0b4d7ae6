/**
 * The rest param `{*name}`: the last segment of a pattern, matching the rest of the path
 * (zero or more segments), tried after literals and single-segment params at its node.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { compilePath } from '../../../lib/core/route/compile-path.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { matchRoute } from '../../../lib/core/route/match-route.js'
import type { PathParams } from '../../../lib/core/route/path-params.js'
import { routes } from '../../../lib/core/route/routes.js'

const named = (name: string) => () => name

const table = routes([
  httpRoute('GET', '/static/{*path}', named('static')),
  httpRoute('GET', '/static/special', named('special')),
  httpRoute('GET', '/static/{name}/meta', named('meta')),
  httpRoute('POST', '/upload/{*rest}', named('upload')),
  httpRoute('GET', '/api/users', named('users')),
  httpRoute('GET', '/{*page}', named('fallback')),
])

const compiled = E.getOrElseW(() => assert.unreachable('table compiles') as never)(compileRoutes(table))

const found = (method: string, path: string): readonly [string, Readonly<Record<string, string>>] | string => {
  const m = matchRoute(compiled, method, path)
  if (m._tag !== 'RouteFound') return m._tag === 'MethodNotAllowed' ? `405 ${m.allow.join(',')}` : m._tag
  return [(m.route.handler as () => string)(), m.params]
}

test('compilePath :: a rest param is the last segment only', () => {
  assert.equal(E.map((c: { readonly params: readonly string[] }) => c.params)(compilePath('/static/{*path}')), E.right(['path']))
  assert.ok(E.isLeft(compilePath('/static/{*path}/x')))
  assert.ok(E.isLeft(compilePath('/static/{*}')))
  assert.ok(E.isLeft(compilePath('/static/{*path}x')))
})

test('matchRoute :: a rest param takes zero or more segments, slashes included', () => {
  assert.equal(found('GET', '/static'), ['static', { path: '' }])
  assert.equal(found('GET', '/static/'), ['static', { path: '' }])
  assert.equal(found('GET', '/static/a.css'), ['static', { path: 'a.css' }])
  assert.equal(found('GET', '/static/css/site%20v2.css'), ['static', { path: 'css/site v2.css' }])
  assert.equal(found('HEAD', '/static/a/b/c'), ['static', { path: 'a/b/c' }])
})

test('matchRoute :: literals and single-segment params win over a rest param, which is the fallback', () => {
  assert.equal(found('GET', '/static/special'), ['special', {}])
  assert.equal(found('GET', '/static/x/meta'), ['meta', { name: 'x' }])
  assert.equal(found('GET', '/static/x/meta/more'), ['static', { path: 'x/meta/more' }])
  assert.equal(found('GET', '/api/users'), ['users', {}])
  assert.equal(found('GET', '/api/users/7'), ['fallback', { page: 'api/users/7' }])
  assert.equal(found('GET', '/'), ['fallback', { page: '' }])
})

test('matchRoute :: another method on a rest path is 405 with its Allow', () => {
  assert.equal(found('GET', '/upload/a/b'), ['fallback', { page: 'upload/a/b' }])
  assert.equal(found('POST', '/upload/a/b'), ['upload', { rest: 'a/b' }])
  assert.equal(found('DELETE', '/static/a'), '405 GET,HEAD')
})

test('PathParams :: a rest param is typed by its name', () => {
  const params: PathParams<'/files/{owner}/{*path}'> = { owner: 'me', path: 'a/b' }
  assert.equal(Object.keys(params), ['owner', 'path'])
})

test.run()
