import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { onConnect } from '../../../lib/core/route/on-connect.js'
import { onDisconnect } from '../../../lib/core/route/on-disconnect.js'
import { onMessage } from '../../../lib/core/route/on-message.js'
import { describeRouteTableError, type RouteTableError } from '../../../lib/core/route/route-table-error.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'

const none = () => undefined

const errorsOf = (table: Parameters<typeof compileRoutes>[0]): readonly RouteTableError[] =>
  E.isLeft(compileRoutes(table)) ? (compileRoutes(table) as E.Left<readonly RouteTableError[]>).left : []

test('compileRoutes :: sorts routes by kind, keeping table order', () => {
  const c1 = onConnect(none)
  const c2 = onConnect(none)
  const d1 = onDisconnect(none)
  const raw = onMessage(none)
  const hello = socketOn('hello', none)
  const result = compileRoutes([c1, hello, d1, c2, raw, httpRoute('GET', '/', none)])
  assert.ok(E.isRight(result))
  if (E.isLeft(result)) return
  assert.equal(result.right.connect, [c1, c2])
  assert.equal(result.right.disconnect, [d1])
  assert.is(result.right.raw, raw)
  assert.is(result.right.events.get('hello'), hello)
  assert.is(result.right.statics.has('/'), true)
})

test('compileRoutes :: reports a route shadowed by the same method and path shape', () => {
  const errors = errorsOf([httpRoute('GET', '/users/{id}', none), httpRoute('GET', '/users/{name}/', none)])
  assert.equal(errors, [{ _tag: 'ShadowedRoute', index: 1, shadowedBy: 0, method: 'GET', path: '/users/{name}/' }])
})

test('compileRoutes :: a static path twice is shadowing, trailing slash or not', () => {
  const errors = errorsOf([httpRoute('POST', '/a', none), httpRoute('post', '/a/', none)])
  assert.is(errors[0]?._tag, 'ShadowedRoute')
})

test('compileRoutes :: different methods on one shape are not shadowing', () => {
  assert.ok(E.isRight(compileRoutes([httpRoute('GET', '/u/{id}', none), httpRoute('DELETE', '/u/{userId}', none)])))
})

test('compileRoutes :: a literal beside a param is a priority, not shadowing', () => {
  assert.ok(E.isRight(compileRoutes([httpRoute('GET', '/u/{id}', none), httpRoute('GET', '/u/me', none)])))
})

test('compileRoutes :: reports invalid paths with the reason', () => {
  const bad = ['users', '/a//b', '/a/{id', '/a/x{id}', '/a/{1x}', '/a/{id}/{id}', '/a b', '/a/{__proto__}']
  const errors = errorsOf(bad.map((p) => httpRoute('GET', p, none)))
  assert.equal(
    errors.map((e) => e._tag),
    bad.map(() => 'InvalidPath'),
  )
  assert.equal(
    errors.map((e) => e.index),
    [0, 1, 2, 3, 4, 5, 6, 7],
  )
})

test('compileRoutes :: reports an invalid method', () => {
  assert.equal(errorsOf([httpRoute('GE T', '/', none), httpRoute('', '/', none)]), [
    { _tag: 'InvalidMethod', index: 0, method: 'GE T' },
    { _tag: 'InvalidMethod', index: 1, method: '' },
  ])
})

test('compileRoutes :: reports a repeated event and a second raw route', () => {
  const errors = errorsOf([socketOn('a', none), onMessage(none), socketOn('a', t.string, none), onMessage(none)])
  assert.equal(errors, [
    { _tag: 'DuplicateEvent', index: 2, shadowedBy: 0, event: 'a' },
    { _tag: 'DuplicateRawRoute', index: 3, shadowedBy: 1 },
  ])
})

test('describeRouteTableError :: one line per kind', () => {
  const lines = [
    ...errorsOf([httpRoute('GET', 'x', none), httpRoute('G T', '/', none)]),
    ...errorsOf([httpRoute('GET', '/a', none), httpRoute('GET', '/a', none)]),
    ...errorsOf([socketOn('e', none), socketOn('e', none), onMessage(none), onMessage(none)]),
  ].map(describeRouteTableError)
  assert.equal(lines, [
    'route #0: invalid path "x": must start with "/"',
    'route #1: invalid method "G T"',
    'route #1: GET /a is shadowed by route #0',
    'route #1: event "e" is already handled by route #0',
    'route #3: a second onMessage route (the first is route #2)',
  ])
})

test.run()
