import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { acceptsEventStream } from '../../../lib/core/sse/accepts-event-stream.js'
import { eventStream, isEventStreamBody } from '../../../lib/core/sse/event-stream.js'
import { isStreamBody } from '../../../lib/core/http/stream-body.js'
import { sseRoute } from '../../../lib/core/route/sse-route.js'
import { makeRequest } from '../../../lib/core/http/request.js'
import { inertHttpContext } from '../../../lib/core/route/inert-http-context.js'
import type { Response } from '../../../lib/core/http/types.js'

test('eventStream :: 200, text/event-stream in UTF-8, no caching, no proxy buffering; its options kept', () => {
  const res = eventStream({ rooms: ['a'], retry: 100, headers: { 'Set-Cookie': 'k=v', 'Cache-Control': 'max-age=9' } })
  assert.is(res.status, 200)
  assert.is(res.contentType, 'text/event-stream; charset=utf-8')
  assert.equal(res.headers, [['Cache-Control', 'no-cache'], ['X-Accel-Buffering', 'no'], ['Set-Cookie', 'k=v']])
  assert.ok(isEventStreamBody(res.body) && isStreamBody(res.body))
  assert.equal(isEventStreamBody(res.body) ? res.body.options.rooms : undefined, ['a'])
})

test('acceptsEventStream :: absent, text/event-stream, text/*, */* yes; others or q=0 no', () => {
  assert.ok(acceptsEventStream([]))
  assert.ok(acceptsEventStream([['Accept', 'text/event-stream']]))
  assert.ok(acceptsEventStream([['accept', 'application/json, */*;q=0.1']]))
  assert.ok(acceptsEventStream([['Accept', 'text/*']]))
  assert.not.ok(acceptsEventStream([['Accept', 'application/json']]))
  assert.not.ok(acceptsEventStream([['Accept', 'text/event-stream;q=0']]))
})

test('sseRoute :: a GET route answering eventStream, 406 to an Accept that refuses it; options from the request', () => {
  const route = sseRoute('/rooms/{room}/events', (req) => ({ rooms: [req.params.room] }))
  assert.is(route.method, 'GET')
  const ask = (accept: string): Response => route.handler(makeRequest({ method: 'GET', target: '/rooms/r1/events', path: '/rooms/r1/events', rawQuery: '', protocol: 'HTTP/1.1', headers: [['Accept', accept]], trailers: [], body: new Uint8Array(0), keepAlive: true, expectContinue: false }, { room: 'r1' }), inertHttpContext) as Response
  const ok = ask('text/event-stream')
  assert.ok(isEventStreamBody(ok.body))
  assert.equal(isEventStreamBody(ok.body) ? ok.body.options.rooms : undefined, ['r1'])
  assert.is(ask('application/json').status, 406)
})

test.run()
