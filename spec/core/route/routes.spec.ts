import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as t from 'io-ts'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { listRoutes } from '../../../lib/core/route/list-routes.js'
import { mount } from '../../../lib/core/route/mount.js'
import { onConnect } from '../../../lib/core/route/on-connect.js'
import { onDisconnect } from '../../../lib/core/route/on-disconnect.js'
import { onMessage } from '../../../lib/core/route/on-message.js'
import { isRoute } from '../../../lib/core/route/route.js'
import { routes } from '../../../lib/core/route/routes.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'

const none = () => undefined

const users = {
  list: httpRoute('GET', '/users', none),
  show: httpRoute('get', '/users/{id}', none),
}
const chat = {
  join: socketOn('join', t.type({ room: t.string }), none),
  say: socketOn('say', none),
  hello: onConnect(none),
  bye: onDisconnect(none),
}

test('routes :: flattens controllers, routes and nested tables in order', () => {
  const raw = onMessage(none)
  const table = routes(users, [chat, [raw]], httpRoute('POST', '/x', none))
  assert.equal(listRoutes(table), [
    'GET /users',
    'GET /users/{id}',
    'event join ({ room: string })',
    'event say',
    'connect',
    'disconnect',
    'message',
    'POST /x',
  ])
  assert.is(table[6], raw)
})

test('routes :: no sources give an empty table', () => {
  assert.equal(routes(), [])
})

test('mount :: prefixes HTTP paths only', () => {
  const table = mount('/api/', routes(users, chat, httpRoute('GET', '/', none)))
  assert.equal(listRoutes(table).slice(0, 3), ['GET /api/users', 'GET /api/users/{id}', 'event join ({ room: string })'])
  assert.equal(listRoutes(table).at(-1), 'GET /api')
  assert.is(table[2], chat.join)
})

test('mount :: nests, and an empty prefix changes nothing', () => {
  const table = mount('/v1', mount('/api', [httpRoute('GET', '/', none)]))
  assert.equal(listRoutes(table), ['GET /v1/api'])
  assert.equal(listRoutes(mount('', [httpRoute('GET', '/', none)])), ['GET /'])
  assert.equal(listRoutes(mount('/', [httpRoute('GET', '/a', none)])), ['GET /a'])
})

test('isRoute :: tells routes from controllers and other values', () => {
  assert.is(isRoute(users.list), true)
  assert.is(isRoute(users), false)
  assert.is(isRoute({ _tag: 'Other' }), false)
  assert.is(isRoute(null), false)
  assert.is(isRoute('GET /'), false)
})

test.run()
