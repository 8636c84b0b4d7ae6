/**
 * `upgradeGuard`, `guardUpgrades` and `guardEventStreams`: the route-table element that decides
 * the WebSocket upgrades and the event streams to one path, its place in a compiled table
 * (`compileRoutes`, `listRoutes`, `mount`, `routes`), the middleware a server runs it as for
 * upgrades and the check it runs on an event-stream answer. On a real socket:
 * spec/integration/run-server-admin.spec.ts and run-server-sse.spec.ts.
 */
import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseQuery } from '../../../lib/core/http/parse-query.js'
import { forbidden, text, unauthorized } from '../../../lib/core/http/response.js'
import { buildRoutes, compileRoutes } from '../../../lib/core/route/compile-routes.js'
import { composeHttp } from '../../../lib/core/route/compose-http.js'
import { guardEventStreams } from '../../../lib/core/route/guard-event-streams.js'
import { guardUpgrades } from '../../../lib/core/route/guard-upgrades.js'
import { eventStream } from '../../../lib/core/sse/event-stream.js'
import type { Handshake } from '../../../lib/core/route/handshake.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { inertHttpContext } from '../../../lib/core/route/inert-http-context.js'
import { listRoutes } from '../../../lib/core/route/list-routes.js'
import { mount } from '../../../lib/core/route/mount.js'
import { isRoute } from '../../../lib/core/route/route.js'
import { routes } from '../../../lib/core/route/routes.js'
import { upgradeGuard } from '../../../lib/core/route/upgrade-guard.js'
import { admit, upgradeChecksOf, upgradeMiddleware } from '../../../lib/core/route/upgrade-middleware.js'
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

// The guard a server runs on an event-stream answer, for the table `table`.
const streamGuardOf = (table: Parameters<typeof compileRoutes>[0], onError?: (error: unknown) => void) => {
  const compiled = compileRoutes(table)
  if (E.isLeft(compiled)) throw new Error(JSON.stringify(compiled.left))
  return guardEventStreams(compiled.right.guards, onError)
}
const STREAM = eventStream({ rooms: ['ops'] })

test('guardEventStreams :: no guards, no check', () => {
  assert.is(guardEventStreams(new Map()), undefined)
  assert.is(streamGuardOf([httpRoute('GET', '/x', () => 'x')]), undefined)
})

test('upgradeChecksOf :: the checks of the upgradeMiddlewares among the HTTP middleware, in order', () => {
  const first = (): ReturnType<typeof admit> => admit({ n: 1 })
  const second = (): ReturnType<typeof admit> => admit({ n: 2 })
  const plain: Parameters<typeof composeHttp>[0][number] = (_req, next) => next()
  assert.equal(upgradeChecksOf([plain, upgradeMiddleware(first), plain, upgradeMiddleware(second)]), [first, second])
  assert.equal(upgradeChecksOf([plain]), [])
})

test('guardEventStreams :: the upgradeMiddleware checks decide streams to every path, before the path guards; their data staged until all admit', async () => {
  const members = upgradeMiddleware((req) => {
    const member = parseQuery(req.rawQuery)['member']
    return typeof member === 'string' ? admit({ member }) : unauthorized('who are you?')
  })
  const compiled = compileRoutes([byToken])
  if (E.isLeft(compiled)) return assert.unreachable('a table')
  const guard = guardEventStreams(compiled.right.guards, undefined, upgradeChecksOf([members]))
  if (guard === undefined) return assert.unreachable('a guard')
  // Any path: refused without a member, admitted with one.
  const refused = handshake()
  assert.is((await guard(httpRequest('GET', '/anywhere'), STREAM, { ...inertHttpContext, handshake: refused })).status, 401)
  assert.is(refused.data.size, 0)
  const admitted = handshake()
  assert.is(await guard(httpRequest('GET', '/anywhere?member=ada'), STREAM, { ...inertHttpContext, handshake: admitted }), STREAM)
  assert.equal(Object.fromEntries(admitted.data), { member: 'ada' })
  // A guarded path: the middleware admits, the guard refuses: nothing is stored.
  const half = handshake()
  assert.is((await guard(httpRequest('GET', '/admin/ws?member=ada&token=nope'), STREAM, { ...inertHttpContext, handshake: half })).status, 403)
  assert.is(half.data.size, 0, 'a refused stream stores nothing, not even what the middleware admitted')
  const both = handshake()
  assert.is(await guard(httpRequest('GET', '/admin/ws?member=ada&token=secret'), STREAM, { ...inertHttpContext, handshake: both }), STREAM)
  assert.equal(Object.fromEntries(both.data), { member: 'ada', role: 'admin' })
})

test('guardEventStreams :: a stream to a guarded path is refused as its upgrade is (401, 403), admitted with the data', async () => {
  const guard = streamGuardOf([byToken])
  if (guard === undefined) return assert.unreachable('a guard')
  for (const [query, status] of [['', 401], ['?token=nope', 403]] as const) {
    const hs = handshake()
    const res = await guard(httpRequest('GET', `/admin/ws${query}`), STREAM, { ...inertHttpContext, handshake: hs })
    assert.is(res.status, status)
    assert.is(hs.data.size, 0, 'a refused stream stores nothing')
  }
  const hs = handshake()
  const res = await guard(httpRequest('GET', '/admin/ws/?token=secret'), STREAM, { ...inertHttpContext, handshake: hs })
  assert.is(res, STREAM, 'the answer itself goes on')
  assert.equal(Object.fromEntries(hs.data), { role: 'admin' })
  // Without a handshake (a host with no client to keep data): decided all the same.
  assert.is((await guard(httpRequest('GET', '/admin/ws'), STREAM, inertHttpContext)).status, 401)
})

test('guardEventStreams :: other paths are answered at once, unchecked', () => {
  let checked = 0
  const guard = streamGuardOf([upgradeGuard('/admin/ws', () => (checked++, forbidden()))])
  if (guard === undefined) return assert.unreachable('a guard')
  assert.is(guard(httpRequest('GET', '/events'), STREAM, inertHttpContext), STREAM)
  assert.is(checked, 0)
})

test('guardEventStreams :: every guard in table order, later ones see earlier data, the first refusal wins and nothing is kept', async () => {
  const order: string[] = []
  const first = upgradeGuard('/live', (_req, ctx) => (order.push('first'), admit({ user: 'ada', seen: ctx.handshake?.getClientData('outer') })))
  const second = upgradeGuard('/live', (_req, ctx) => (order.push('second'), ctx.handshake?.getClientData('user') === 'ada' ? admit({ role: 'ops' }) : forbidden()))
  const refuses = upgradeGuard('/live', () => (order.push('third'), forbidden('no')))
  const admitted = streamGuardOf([first, second])
  if (admitted === undefined) return assert.unreachable('a guard')
  const hs = handshake()
  hs.setClientData('outer', 1)
  assert.is(await admitted(httpRequest('GET', '/live'), STREAM, { ...inertHttpContext, handshake: hs }), STREAM)
  assert.equal(order, ['first', 'second'])
  assert.equal(Object.fromEntries(hs.data), { outer: 1, user: 'ada', seen: 1, role: 'ops' })
  order.length = 0
  const refused = streamGuardOf([first, refuses, second])
  if (refused === undefined) return assert.unreachable('a guard')
  const kept = handshake()
  assert.is((await refused(httpRequest('GET', '/live'), STREAM, { ...inertHttpContext, handshake: kept })).status, 403)
  assert.equal(order, ['first', 'third'])
  assert.is(kept.data.size, 0, 'the first guard’s admission is dropped with the refusal')
})

test('guardEventStreams :: a check that throws refuses with 500 and is reported', async () => {
  const errors: unknown[] = []
  const guard = streamGuardOf([upgradeGuard('/live', () => Promise.reject(new Error('down')))], (error) => void errors.push(error))
  if (guard === undefined) return assert.unreachable('a guard')
  assert.is((await guard(httpRequest('GET', '/live'), STREAM, inertHttpContext)).status, 500)
  assert.is((errors[0] as Error).message, 'down')
})

test.run()
