import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { WsMiddleware } from '../../../lib/core/route/ws-middleware.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import type { CompiledRoutes } from '../../../lib/core/route/compiled-routes.js'
import { dispatchEvent } from '../../../lib/core/route/dispatch-event.js'
import { failed } from '../../../lib/core/route/event-outcome.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'
import type { WsErrorSite } from '../../../lib/core/route/ws-error-reporter.js'
import { recordingContext } from './support.js'

const compile = (table: RouteTable): CompiledRoutes =>
  E.getOrElseW(() => assert.unreachable('compiles') as never)(compileRoutes(table))

const Join = t.type({ room: t.string, limit: t.union([t.number, t.undefined]) })

const app = compile([
  socketOn('echo', (data) => data),
  socketOn('join', Join, (data, ctx) => {
    ctx.joinRoom(data.room)
    return { joined: data.room }
  }),
  socketOn('boom', () => {
    throw new Error('kaboom')
  }),
  socketOn('later', async (data) => ({ later: data })),
  socketOn('reject', () => Promise.reject(new Error('nope'))),
  socketOn('bad-codec', { name: 'Broken', validate: () => { throw new Error('codec') }, decode: () => { throw new Error('codec') } } as never, () => 1),
])

const collect = (): { readonly reports: [unknown, WsErrorSite][]; readonly onError: (e: unknown, s: WsErrorSite) => void } => {
  const reports: [unknown, WsErrorSite][] = []
  return { reports, onError: (e, s) => void reports.push([e, s]) }
}

test('dispatchEvent :: acks the return value when the request has an id', async () => {
  const { ctx } = recordingContext()
  assert.equal(await dispatchEvent(app, { event: 'echo', data: [1, 'a'], id: 'r1' }, ctx), { _tag: 'Ack', id: 'r1', value: [1, 'a'] })
  assert.equal(await dispatchEvent(app, { event: 'later', data: 2, id: 0 }, ctx), { _tag: 'Ack', id: 0, value: { later: 2 } })
})

test('dispatchEvent :: sends nothing back without an id', async () => {
  const { ctx } = recordingContext()
  assert.equal(await dispatchEvent(app, { event: 'echo', data: 1 }, ctx), { _tag: 'NoReply' })
})

test('dispatchEvent :: the handler gets the decoded data and the context', async () => {
  const { ctx, calls } = recordingContext()
  const outcome = await dispatchEvent(app, { event: 'join', data: { room: 'lobby' }, id: 3 }, ctx)
  assert.equal(outcome, { _tag: 'Ack', id: 3, value: { joined: 'lobby' } })
  assert.equal(calls, [['joinRoom', 'lobby']])
})

test('dispatchEvent :: a codec mismatch answers invalid_payload with the failing paths', async () => {
  const { ctx, calls } = recordingContext()
  const outcome = await dispatchEvent(app, { event: 'join', data: { room: 5, limit: 'x' }, id: 4 }, ctx)
  assert.is(outcome._tag, 'Failed')
  if (outcome._tag !== 'Failed') return
  assert.is(outcome.error.code, 'invalid_payload')
  assert.is(outcome.error.id, 4)
  assert.equal(outcome.error.details, [
    { path: 'room', expected: 'string' },
    { path: 'limit.0', expected: 'number' },
    { path: 'limit.1', expected: 'undefined' },
  ])
  assert.match(outcome.error.message, 'room: expected string')
  assert.equal(calls, [])
})

test('dispatchEvent :: data that is not even an object fails at the root', async () => {
  const { ctx } = recordingContext()
  const outcome = await dispatchEvent(app, { event: 'join', data: null }, ctx)
  assert.equal(outcome._tag === 'Failed' && outcome.error.details, [{ path: '', expected: Join.name }])
  assert.is(outcome._tag === 'Failed' && 'id' in outcome.error, false)
  assert.match(outcome._tag === 'Failed' ? outcome.error.message : '', '(root)')
})

test('dispatchEvent :: an unknown event answers unknown_event', async () => {
  const { ctx } = recordingContext()
  assert.equal(await dispatchEvent(app, { event: 'nope', data: null, id: 9 }, ctx), {
    _tag: 'Failed',
    error: { code: 'unknown_event', message: 'no handler for event "nope"', id: 9 },
  })
})

test('dispatchEvent :: a throw, a rejection or a throwing codec become handler_error and are reported', async () => {
  const { ctx } = recordingContext(11)
  const { reports, onError } = collect()
  for (const event of ['boom', 'reject', 'bad-codec']) {
    const outcome = await dispatchEvent(app, { event, data: null, id: event }, ctx, { onError })
    assert.equal(outcome, { _tag: 'Failed', error: { code: 'handler_error', message: `the handler of "${event}" failed`, id: event } })
  }
  assert.equal(
    reports.map(([e, s]) => [(e as Error).message, s]),
    [
      ['kaboom', { phase: 'event', clientId: 11, event: 'boom' }],
      ['nope', { phase: 'event', clientId: 11, event: 'reject' }],
      ['codec', { phase: 'event', clientId: 11, event: 'bad-codec' }],
    ],
  )
  assert.ok(typeof (reports[0]?.[0] as Error).stack === 'string')
})

test('dispatchEvent :: a throwing error hook does not break dispatch', async () => {
  const { ctx } = recordingContext()
  const outcome = await dispatchEvent(app, { event: 'boom', data: null }, ctx, {
    onError: () => {
      throw new Error('hook')
    },
  })
  assert.is(outcome._tag === 'Failed' && outcome.error.code, 'handler_error')
})

test('dispatchEvent :: middleware runs in onion order around the handler', async () => {
  const { ctx } = recordingContext()
  const trace: string[] = []
  const layer =
    (name: string): WsMiddleware =>
    async (message, next) => {
      trace.push(`${name} in ${message.event}`)
      const outcome = await next()
      trace.push(`${name} out ${outcome._tag}`)
      return outcome
    }
  await dispatchEvent(app, { event: 'echo', data: 1, id: 1 }, ctx, { middleware: [layer('a'), layer('b')] })
  assert.equal(trace, ['a in echo', 'b in echo', 'b out Ack', 'a out Ack'])
})

test('dispatchEvent :: middleware sees unknown events too', async () => {
  const { ctx } = recordingContext()
  const seen: string[] = []
  const outcome = await dispatchEvent(app, { event: 'ghost', data: 1 }, ctx, { middleware: [(m, next) => (seen.push(m.event), next())] })
  assert.equal(seen, ['ghost'])
  assert.is(outcome._tag === 'Failed' && outcome.error.code, 'unknown_event')
})

test('dispatchEvent :: middleware can rewrite the event for the rest', async () => {
  const { ctx } = recordingContext()
  const upper: WsMiddleware = (m, next) => next({ ...m, data: String(m.data).toUpperCase() })
  const rename: WsMiddleware = (m, next) => next({ ...m, event: 'echo' })
  const outcome = await dispatchEvent(app, { event: 'shout', data: 'hi', id: 1 }, ctx, { middleware: [rename, upper] })
  assert.equal(outcome, { _tag: 'Ack', id: 1, value: 'HI' })
})

test('dispatchEvent :: middleware can answer early without the handler running', async () => {
  const { ctx, calls } = recordingContext()
  const deny: WsMiddleware = (m) => failed({ code: 'handler_error', message: 'log in first', ...(m.id === undefined ? {} : { id: m.id }) })
  const outcome = await dispatchEvent(app, { event: 'join', data: { room: 'x' }, id: 2 }, ctx, { middleware: [deny] })
  assert.equal(outcome, { _tag: 'Failed', error: { code: 'handler_error', message: 'log in first', id: 2 } })
  assert.equal(calls, [])
})

test('dispatchEvent :: a second next() and a throwing middleware become handler_error', async () => {
  const { ctx } = recordingContext()
  const { reports, onError } = collect()
  let handled = 0
  const counted = compile([socketOn('count', () => ++handled)])
  const twice: WsMiddleware = async (_m, next) => {
    await next()
    return next()
  }
  const outcome = await dispatchEvent(counted, { event: 'count', data: null }, ctx, { middleware: [twice], onError })
  assert.is(outcome._tag === 'Failed' && outcome.error.code, 'handler_error')
  assert.is(handled, 1)
  assert.equal(reports[0]?.[0], { _tag: 'NextCalledTwice', position: 0, message: 'middleware #0 called next() more than once' })
  const throwing: WsMiddleware = () => {
    throw new Error('mw')
  }
  const again = await dispatchEvent(counted, { event: 'count', data: null, id: 5 }, ctx, { middleware: [throwing], onError })
  assert.is(again._tag === 'Failed' && again.error.id, 5)
  assert.is((reports[1]?.[0] as Error).message, 'mw')
})

test.run()
