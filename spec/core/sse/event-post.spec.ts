import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { eventPost, isEventPost, SESSION_HEADER } from '../../../lib/core/sse/event-post.js'
import { isStreamBody } from '../../../lib/core/http/stream-body.js'
import { ssePostRoute } from '../../../lib/core/route/sse-route.js'
import type { Header, HttpRequest } from '../../../lib/core/http/types.js'

const post = (headers: readonly Header[], body: Uint8Array): HttpRequest => ({
  method: 'POST', target: '/events', path: '/events', rawQuery: '', protocol: 'HTTP/1.1', headers, trailers: [], body, keepAlive: true, expectContinue: false,
})
const utf8 = new TextEncoder()

test('eventPost :: the session, the text and the origin, for the engine to deliver (202)', () => {
  const res = eventPost(post([[SESSION_HEADER, 'abc_9'], ['Origin', 'https://a.example']], utf8.encode('{"event":"x"}')))
  assert.is(res.status, 202)
  assert.ok(isEventPost(res.body) && isStreamBody(res.body))
  if (!isEventPost(res.body)) return
  assert.equal([res.body.sid, res.body.text, res.body.origin], ['abc_9', '{"event":"x"}', 'https://a.example'])
})

test('eventPost :: 400 without a well-formed session header, or with a body that is not UTF-8', () => {
  assert.is(eventPost(post([], utf8.encode('x'))).status, 400)
  assert.is(eventPost(post([['x-twinport-session', 'a b']], utf8.encode('x'))).status, 400)
  assert.is(eventPost(post([['x-twinport-session', 'abc']], new Uint8Array([0xff]))).status, 400)
})

test('ssePostRoute :: a POST route on the path', () => {
  const route = ssePostRoute('/events')
  assert.is(route.method, 'POST')
  assert.is(route.path, '/events')
})

test.run()
