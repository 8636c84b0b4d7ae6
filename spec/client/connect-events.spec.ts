/**
 * `connect` against a real twinport server: emit and the server's events, on / once / off,
 * async iteration, lifecycle and state, listeners that throw, error events without an id.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import { events } from '../../lib/client/events.js'
import type { ClientProblem } from '../../lib/client/client-problem.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import { type AnyClient, nextOf, record, WebSocketImpl } from '../support/client.js'
import { type AppState, clientApp } from '../support/client-app.js'
import { eventually, startServer } from '../support/server.js'

interface Ctx {
  server: ServerHandle
  state: AppState
  url: string
  clients: AnyClient[]
}

const test = suite<Ctx>('connect: events')

test.before.each(async (ctx) => {
  const { table, state } = clientApp()
  const { server, port } = await startServer({ routes: table })
  Object.assign(ctx, { server, state, url: `ws://127.0.0.1:${port}/`, clients: [] })
})

test.after.each(async (ctx) => {
  for (const c of ctx.clients) c.close()
  await ctx.server.close()
})

const client = (ctx: Ctx, options: Parameters<typeof connect>[1] = {}): AnyClient => {
  const c = connect(ctx.url, { WebSocket: WebSocketImpl, ...options })
  ctx.clients.push(c)
  return c
}

test('connect :: state goes connecting, open, closed; open fires once', async (ctx) => {
  const c = client(ctx)
  const log = record(c, ['open', 'close'])
  assert.is(c.state, 'connecting')
  await nextOf(c, 'open')
  assert.is(c.state, 'open')
  c.close()
  assert.is(c.state, 'closed')
  assert.equal(log, [
    ['open', undefined],
    ['close', { code: 1000, reason: '', reconnect: false }],
  ])
  c.close()
  assert.is(log.length, 2)
})

test('connect :: emits arrive in order and answer nothing', async (ctx) => {
  const c = client(ctx)
  const problems = record(c, ['error'])
  await nextOf(c, 'open')
  for (let i = 0; i < 20; i++) assert.is(c.emit('record', i), true)
  assert.is(c.emit('record'), true)
  await c.request('echo', 'sync')
  assert.equal(ctx.state.recorded, [...Array.from({ length: 20 }, (_, i) => i), null])
  assert.equal(problems, [])
})

test('connect :: on receives the server events; the answer of on unsubscribes', async (ctx) => {
  const c = client(ctx)
  const got: unknown[] = []
  const off = c.on('tick', (n) => void got.push(n))
  await nextOf(c, 'open')
  await c.request('ticks', 3)
  assert.equal(got, [1, 2, 3])
  off()
  await c.request('ticks', 2)
  assert.equal(got, [1, 2, 3])
})

test('connect :: once hears one event; off removes a listener', async (ctx) => {
  const c = client(ctx)
  const onceGot: unknown[] = []
  const onGot: unknown[] = []
  const listener = (n: unknown): void => void onGot.push(n)
  c.once('tick', (n) => void onceGot.push(n))
  c.on('tick', listener)
  await nextOf(c, 'open')
  await c.request('ticks', 2)
  c.off('tick', listener)
  await c.request('ticks', 2)
  assert.equal([onceGot, onGot], [[1], [1, 2]])
})

test('connect :: a broadcast to a room reaches its members only', async (ctx) => {
  const a = client(ctx)
  const b = client(ctx)
  const outside = client(ctx)
  const heard: [string, unknown][] = []
  for (const [name, c] of [['a', a], ['b', b], ['outside', outside]] as const) c.on('said', (m) => void heard.push([name, m]))
  await Promise.all([a, b, outside].map((c) => nextOf(c, 'open')))
  await a.request('join', { room: 'r' })
  await b.request('join', { room: 'r' })
  await a.request('say', { room: 'r', text: 'hi' })
  await eventually(() => heard.length === 2)
  await outside.request('echo', 'sync')
  assert.equal(heard.sort(), [
    ['a', { room: 'r', text: 'hi' }],
    ['b', { room: 'r', text: 'hi' }],
  ])
})

test('connect :: events(client) iterates a server event in order', async (ctx) => {
  const c = client(ctx)
  await nextOf(c, 'open')
  const seen: unknown[] = []
  const done = (async () => {
    for await (const n of events(c, 'tick')) {
      seen.push(n)
      if (n === 4) break
    }
  })()
  await c.request('ticks', 5)
  await done
  assert.equal(seen, [1, 2, 3, 4])
})

test('connect :: events(client) ends when the client closes, and at once on a closed client', async (ctx) => {
  const c = client(ctx)
  await nextOf(c, 'open')
  const stream = events(c, 'tick')
  const next = stream.next()
  c.close()
  assert.equal(await next, { value: undefined, done: true })
  assert.equal(await events(c, 'tick').next(), { value: undefined, done: true })
})

test('connect :: events(client) stops on its abort signal', async (ctx) => {
  const c = client(ctx)
  await nextOf(c, 'open')
  const ac = new AbortController()
  const stream = events(c, 'tick', { signal: ac.signal })
  await c.request('ticks', 1)
  ac.abort()
  assert.equal(await stream.next(), { value: 1, done: false })
  assert.equal(await stream.next(), { value: undefined, done: true })
})

test('connect :: an error event for an emit (no id) is an error event of the client', async (ctx) => {
  const c = client(ctx)
  await nextOf(c, 'open')
  const problem = nextOf<ClientProblem>(c, 'error')
  c.emit('join', { room: 42 })
  assert.equal(await problem, {
    _tag: 'ServerError',
    code: 'invalid_payload',
    details: [{ path: 'room', expected: 'string' }],
    message: 'server error invalid_payload: invalid data for "join": room: expected string',
  })
  const unknown = nextOf<ClientProblem>(c, 'error')
  c.emit('nope')
  assert.equal(await unknown, { _tag: 'ServerError', code: 'unknown_event', message: 'server error unknown_event: no handler for event "nope"' })
})

test('connect :: a listener that throws is reported as ListenerFailed; the others still hear', async (ctx) => {
  const c = client(ctx)
  const problems = record(c, ['error'])
  const got: unknown[] = []
  c.on('tick', () => {
    throw new Error('listener bug')
  })
  c.on('tick', (n) => void got.push(n))
  await nextOf(c, 'open')
  await c.request('ticks', 1)
  assert.equal(got, [1])
  assert.is(problems.length, 1)
  const [name, problem] = problems[0] as [string, ClientProblem & { _tag: 'ListenerFailed' }]
  assert.equal([name, problem._tag, problem.event, problem.message], ['error', 'ListenerFailed', 'tick', '"tick" listener threw: Error: listener bug'])
})

test('connect :: an error listener that throws is not reported again', async (ctx) => {
  const c = client(ctx)
  let calls = 0
  c.on('error', () => {
    calls += 1
    throw new Error('error listener bug')
  })
  await nextOf(c, 'open')
  c.emit('nope')
  await c.request('echo', 'sync')
  assert.is(calls, 1)
})

test('connect :: a lifecycle listener that throws does not stop the client', async (ctx) => {
  const c = client(ctx)
  const problems = record(c, ['error'])
  c.on('open', () => {
    throw new Error('open bug')
  })
  await nextOf(c, 'open')
  assert.is(await c.request('echo', 1), 1)
  assert.equal(
    problems.map(([, p]) => (p as ClientProblem)._tag),
    ['ListenerFailed'],
  )
})

test('connect :: a server event named like a lifecycle event is reported, not delivered', async (ctx) => {
  const c = client(ctx)
  await nextOf(c, 'open')
  let opens = 0
  c.on('open', () => void (opens += 1))
  const problem = nextOf<ClientProblem>(c, 'error')
  await c.request('reserved')
  assert.equal(await problem, { _tag: 'ReservedEvent', event: 'open', message: 'reserved event "open"' })
  assert.is(opens, 0)
})

test('connect :: an emit of data JSON cannot carry is dropped with EmitDropped', async (ctx) => {
  const c = client(ctx)
  await nextOf(c, 'open')
  const problem = nextOf<ClientProblem & { _tag: 'EmitDropped' }>(c, 'error')
  assert.is(c.emit('record', 1n), false)
  const p = await problem
  assert.equal([p._tag, p.event, p.failure._tag, p.message], ['EmitDropped', 'record', 'Unserializable', 'emit "record": Unserializable'])
})

test('connect :: close validates its code; a long reason still closes', async (ctx) => {
  const c = client(ctx)
  await nextOf(c, 'open')
  assert.throws(() => c.close(1001), (e: Error) => e instanceof RangeError && e.message === 'close: code 1001 is not 1000 or 3000-4999')
  assert.is(c.state, 'open')
  c.close(3000, 'x'.repeat(200))
  assert.is(c.state, 'closed')
})

test('connect :: close while the handshake is under way is quiet', async (ctx) => {
  const c = client(ctx)
  const problems = record(c, ['error'])
  c.close()
  await new Promise((resolve) => setTimeout(resolve, 30))
  assert.is(c.state, 'closed')
  assert.equal(problems, [])
})

test('connect :: a bad URL is a TypeError at once', () => {
  for (const url of ['not a url', 'ftp://127.0.0.1/']) {
    assert.throws(() => connect(url, { WebSocket: WebSocketImpl }), (e: Error) => e instanceof TypeError && e.message === `connect: not a ws(s) or http(s) URL: ${url}`)
  }
})

test('connect :: an http URL connects as ws', async (ctx) => {
  const c = client({ ...ctx, url: ctx.url.replace('ws:', 'http:') } as Ctx)
  ctx.clients.push(c)
  await nextOf(c, 'open')
  assert.is(await c.request('echo', 'via http url'), 'via http url')
})

test.run()
