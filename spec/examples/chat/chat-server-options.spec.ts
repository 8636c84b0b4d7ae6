/** chatServerOptions: the defaults of `npm start` and the options a deployment sets. */
import { isRight } from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeCorsConfig, resolveOptions, routes, silentLogger } from '../../../lib/index.js'
import { CHAT_SERVER_LIMITS, chatServerOptions } from '../../../examples/chat/chat-server-options.js'

test('chatServerOptions :: defaults are 0.0.0.0:6001, no debug, the console logger, and valid', () => {
  const options = chatServerOptions()
  assert.is(options.host, '0.0.0.0')
  assert.is(options.port, 6001)
  assert.is(options.debug, false)
  assert.is(options.logger, undefined)
  assert.equal(options.limits, CHAT_SERVER_LIMITS)
  assert.ok(isRight(resolveOptions(options)))
})

test('chatServerOptions :: CORS grants only the listed origins, for GET and POST, without credentials', () => {
  const none = decodeCorsConfig(chatServerOptions().cors)
  assert.ok(isRight(none) && none.right.allowedOrigins.length === 0)
  const listed = decodeCorsConfig(chatServerOptions({ origins: ['https://chat.example'] }).cors)
  assert.ok(isRight(listed))
  if (!isRight(listed)) return
  assert.equal(listed.right.allowedOrigins, ['https://chat.example'])
  assert.equal(listed.right.allowedMethods, ['GET', 'POST', 'OPTIONS'])
  assert.is(listed.right.allowCredentials, false)
})

test('chatServerOptions :: the route table holds the page, the API, the event stream and its posts (the fallback), its two documents and the four events', () => {
  const options = chatServerOptions({ host: '127.0.0.1', port: 0, logger: silentLogger, debug: true })
  assert.is(options.logger, silentLogger)
  assert.is(options.debug, true)
  const table = routes(options.routes ?? [])
  const http = table.flatMap((r) => (r._tag === 'HttpRoute' ? [`${r.method} ${r.path}`] : []))
  assert.equal(http, ['GET /api/rooms', 'POST /api/rooms/{room}/messages', 'GET /events', 'POST /events', 'GET /openapi.json', 'GET /asyncapi.json', 'GET /{*path}'])
  const events = table.flatMap((r) => (r._tag === 'SocketOn' ? [r.event] : []))
  assert.equal(events, ['hello', 'join', 'leave', 'message'])
  assert.is(options.httpMiddleware?.length, 1)
})

test.run()
