/**
 * `upgradeGuard` and `guardUpgrades`: the route-table element that decides the WebSocket
 * upgrades to one path, its place in a compiled table (`compileRoutes`, `listRoutes`, `mount`,
 * `routes`) and the middleware a server runs it as. On a real socket: spec/integration/run-server-admin.spec.ts.
 */
import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseQuery } from '../../../lib/core/http/parse-query.js'
import { forbidden, text, unauthorized } from '../../../lib/core/http/response.js'
import { buildRoutes, compileRoutes } from '../../../lib/core/route/compile-routes.js'
import { composeHttp } from '../../../lib/core/route/compose-http.js'
import { guardUpgrades } from '../../../lib/core/route/guard-upgrades.js'
import type { Handshake } from '../../../lib/core/route/handshake.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { inertHttpContext } from '../../../lib/core/route/inert-http-context.js'
import { listRoutes } from '../../../lib/core/route/list-routes.js'
import { mount } from '../../../lib/core/route/mount.js'
import { isRoute } from '../../../lib/core/route/route.js'
import { routes } from '../../../lib/core/route/routes.js'
import { upgradeGuard } from '../../../lib/core/route/upgrade-guard.js'
import { admit, upgradeMiddleware } from '../../../lib/core/route/upgrade-middleware.js'
import { httpRequest } from './support.js'

const handshake = (): Handshake & { readonly data: Map<string, unknown> } => {
  const data = new Map<string, unknown>()
  return { data, setClientData: (key, value) => void data.set(key, value), getClientData: (key) => (key === undefined ? Object.fromEntries(data) : data.get(key)) }
}

const ACCEPTED = text('101', 101)
const byToken = upgradeGuard('/admin/ws', (req) => {
  const token = parseQuery(req.rawQuery)['token']
  return token === undefined ? unauthorized('a token, please') : token === 'secret' ? admit({ role: 'admin' }) : forbidden('not you')
})

// The upgrade stack a server builds: the application's middleware, then the guards.
const stackOf = (table: Parameters<typeof compileRoutes>[0], middleware: Parameters<typeof composeHttp>[0] = []) => {
  const compiled = compileRoutes(table)
  if (E.isLeft(compiled)) throw new Error(JSON.stringify(compiled.left))
  const guard = guardUpgrades(compiled.right.guards)
  return composeHttp(guard === undefined ? middleware : [...middleware, guard])
}

test('upgradeGuard :: a route value, kept by routes() and told from a controller', () => {
  assert.equal(byToken._tag, 'UpgradeGuard')
  assert.is(byToken.path, '/admin/ws')
  assert.ok(isRoute(byToken))
  assert.equal(routes({ guard: byToken }), [byToken])
})

test('compileRoutes :: guards by path (trailing slash trimmed), each path in table order', () => {
  const second = upgradeGuard('/admin/ws/', () => admit())
  const other = upgradeGuard('/', () => admit())
  const compiled = compileRoutes([byToken, httpRoute('GET', '/admin/ws', () => 'page'), second, other])
  assert.ok(E.isRight(compiled))
  if (E.isLeft(compiled)) return
  assert.equal([...compiled.right.guards.keys()], ['/admin/ws', '/'])
  assert.equal(compiled.right.guards.get('/admin/ws'), [byToken, second])
  assert.is(compiled.right.statics.has('/admin/ws'), true, 'an HTTP route on the same path is its own')
})

test('compileRoutes :: a guard path that is not an exact path is an InvalidPath', () => {
  const { errors } = buildRoutes([upgradeGuard('admin', () => admit()), upgradeGuard('/rooms/{id}', () => admit()), upgradeGuard('/ws?x=1', () => admit())])
  assert.equal(
    errors.map((e) => [e._tag, e.index]),
    [
      ['InvalidPath', 0],
      ['InvalidPath', 1],
      ['InvalidPath', 2],
    ],
  )
})

test('listRoutes and mount :: a guard is listed with its path, and mounted under the prefix', () => {
  assert.equal(listRoutes([byToken]), ['upgrade guard /admin/ws'])
  assert.equal(listRoutes(mount('/ops/', [byToken])), ['upgrade guard /ops/admin/ws'])
})

test('guardUpgrades :: no guards, no middleware', () => {
  assert.is(guardUpgrades(new Map()), undefined)
})

test('guardUpgrades :: an admitted upgrade to the path goes on with the admission’s data', async () => {
  const hs = handshake()
  const res = await stackOf([byToken])(httpRequest('GET', '/admin/ws?token=secret'), { ...inertHttpContext, handshake: hs }, () => ACCEPTED)
  assert.is(res.status, 101)
  assert.equal(Object.fromEntries(hs.data), { role: 'admin' })
})

test('guardUpgrades :: a refused upgrade answers the refusal (401, 403), the target never runs', async () => {
  for (const [query, status] of [['', 401], ['?token=nope', 403]] as const) {
    let reached = 0
    const res = await stackOf([byToken])(httpRequest('GET', `/admin/ws${query}`), { ...inertHttpContext, handshake: handshake() }, () => (reached++, ACCEPTED))
    assert.is(res.status, status)
    assert.is(reached, 0)
  }
})

test('guardUpgrades :: plain requests to the path and upgrades to other paths are not checked', async () => {
  let checked = 0
  const counting = stackOf([upgradeGuard('/admin/ws', () => (checked++, forbidden()))])
  assert.is((await counting(httpRequest('GET', '/admin/ws'), inertHttpContext, () => text('page'))).body, 'page')
  assert.is((await counting(httpRequest('GET', '/chat'), { ...inertHttpContext, handshake: handshake() }, () => ACCEPTED)).status, 101)
  assert.is(checked, 0)
})

test('guardUpgrades :: after the application’s middleware (its data seen); every guard runs; the first refusal wins', async () => {
  const order: string[] = []
  const mw = upgradeMiddleware(() => (order.push('middleware'), admit({ user: 'ada' })))
  const first = upgradeGuard('/ws', (_req, ctx) => (order.push('first'), admit({ seen: ctx.handshake?.getClientData('user') })))
  const refuses = upgradeGuard('/ws', () => (order.push('second'), forbidden('no')))
  const never = upgradeGuard('/ws', () => (order.push('third'), admit()))
  const hs = handshake()
  const res = await stackOf([first, refuses, never], [mw])(httpRequest('GET', '/ws/'), { ...inertHttpContext, handshake: hs }, () => ACCEPTED)
  assert.is(res.status, 403)
  assert.equal(order, ['middleware', 'first', 'second'])
  assert.is(hs.data.get('seen'), 'ada')
  // A middleware's refusal comes first: no guard runs.
  order.length = 0
  const outer = upgradeMiddleware(() => (order.push('middleware'), unauthorized()))
  assert.is((await stackOf([first], [outer])(httpRequest('GET', '/ws'), { ...inertHttpContext, handshake: handshake() }, () => ACCEPTED)).status, 401)
  assert.equal(order, ['middleware'])
})

test.run()
