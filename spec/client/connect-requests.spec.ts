/**
 * `connect` against a real twinport server: requests and their acks, the server's error
 * events for a request, time-outs, aborts, data JSON cannot carry, and close.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import type { Clock } from '../../lib/client/clock.js'
import { RequestError, type RequestFailure } from '../../lib/client/request-error.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import { type AnyClient, manualClock, nextOf, record, WebSocketImpl } from '../support/client.js'
import { type AppState, type ClientApp, clientApp } from '../support/client-app.js'
import { startServer } from '../support/server.js'

interface Ctx {
  server: ServerHandle
  state: AppState
  url: string
  clients: AnyClient[]
}

const test = suite<Ctx>('connect: requests')

test.before.each(async (ctx) => {
  const { table, state } = clientApp()
  const { server, port } = await startServer({ routes: table })
  ctx.server = server
  ctx.state = state
  ctx.url = `ws://127.0.0.1:${port}/`
  ctx.clients = []
})

test.after.each(async (ctx) => {
  for (const c of ctx.clients) c.close()
  await ctx.server.close()
})

const open = async (ctx: Ctx, options: Parameters<typeof connect>[1] = {}): Promise<AnyClient> => {
  const client = connect<ClientApp>(ctx.url, { WebSocket: WebSocketImpl, ...options }) as unknown as AnyClient
  ctx.clients.push(client)
  await nextOf(client, 'open')
  return client
}

const failureOf = async (promise: Promise<unknown>): Promise<RequestFailure> => {
  try {
    await promise
  } catch (error) {
    assert.instance(error, RequestError)
    return (error as RequestError).failure
  }
  throw new Error('expected the request to fail')
}

// Node 20 has no global WebSocket (it takes `ws` as the option): skipped there, run in Node 22
// (spec/run-all.ts), Bun and Deno.
const withGlobalWebSocket = typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'function' ? test : test.skip

withGlobalWebSocket('connect :: without the WebSocket option it uses the runtime\'s global WebSocket', async (ctx) => {
  const client = connect<ClientApp>(ctx.url) as unknown as AnyClient
  ctx.clients.push(client)
  await nextOf(client, 'open')
  assert.equal(await client.request('echo', { over: 'the global WebSocket' }), { over: 'the global WebSocket' })
  assert.is(client.session?.recovered, false)
})

test('connect :: a request resolves with the ack data', async (ctx) => {
  const client = await open(ctx)
  assert.is(client.state, 'open')
  assert.equal(await client.request('echo', { a: [1, 'x'] }), { a: [1, 'x'] })
  assert.equal(await client.request('join', { room: 'lobby' }), { ok: true, room: 'lobby' })
})

test('connect :: a handler that returns nothing resolves with null (typed void)', async (ctx) => {
  const client = await open(ctx)
  assert.is(await client.request('record', 'x'), null)
  assert.is(await client.request('maybe', false), null)
  assert.is(await client.request('maybe', true), 'yes')
  assert.equal(ctx.state.recorded, ['x'])
})

test('connect :: answers come back by id, whatever their order', async (ctx) => {
  const client = await open(ctx)
  const slow = client.request('gate')
  const fast = client.request('echo', 1)
  assert.is(await fast, 1)
  ctx.state.release('late')
  assert.is(await slow, 'late')
})

test('connect :: an invalid_payload error event rejects the request with the paths', async (ctx) => {
  const client = await open(ctx)
  const failure = await failureOf(client.request('join', { room: 7 }))
  assert.equal(failure, {
    _tag: 'ServerError',
    code: 'invalid_payload',
    message: 'invalid data for "join": room: expected string',
    details: [{ path: 'room', expected: 'string' }],
  })
})

test('connect :: unknown_event and handler_error reject with the server code', async (ctx) => {
  const client = await open(ctx)
  assert.equal(await failureOf(client.request('nope')), { _tag: 'ServerError', code: 'unknown_event', message: 'no handler for event "nope"' })
  assert.equal(await failureOf(client.request('boom')), { _tag: 'ServerError', code: 'handler_error', message: 'the handler of "boom" failed' })
  // Still usable after both.
  assert.is(await client.request('echo', 'ok'), 'ok')
})

test('connect :: a request times out with Timeout, and its late ack is dropped quietly', async (ctx) => {
  const clock = manualClock()
  const client = await open(ctx, { clock })
  const problems = record(client, ['error'])
  const pending = client.request('gate', undefined, { timeout: 50 })
  await client.request('echo', 'sync') // the gate request has reached the server
  clock.advance(49)
  clock.advance(1)
  assert.equal(await failureOf(pending), { _tag: 'Timeout', ms: 50 })
  ctx.state.release('too late')
  assert.is(await client.request('echo', 'after'), 'after')
  assert.equal(problems, [])
})

test('connect :: the client default time-out applies; 0 means none', async (ctx) => {
  const clock = manualClock()
  const client = await open(ctx, { clock, timeout: 100 })
  const timed = client.request('gate')
  const untimed = client.request('gate', undefined, { timeout: 0 })
  await client.request('echo', 'sync') // both gate requests have reached the server
  clock.advance(100)
  assert.equal(await failureOf(timed), { _tag: 'Timeout', ms: 100 })
  clock.advance(1_000_000)
  ctx.state.release('v')
  assert.is(await untimed, 'v')
})

test('connect :: requests with time-outs share one timer, and none is left after the last deadline', async (ctx) => {
  const clock = manualClock()
  const client = await open(ctx, { clock, timeout: 100 })
  // After an answer the session message has been read, and its heartbeat watch armed.
  await client.request('echo', 'first', { timeout: 0 })
  const before = clock.pending
  const gated = [client.request('gate'), client.request('gate', undefined, { timeout: 300 }), client.request('gate', undefined, { timeout: 50 })]
  // Handled here too, so a failed assertion below leaves no unhandled rejection behind.
  for (const g of gated) g.catch(() => undefined)
  await client.request('echo', 'sync', { timeout: 0 })
  assert.is(clock.pending, before + 1)
  clock.advance(50)
  assert.equal(await failureOf(gated[2] as Promise<unknown>), { _tag: 'Timeout', ms: 50 })
  clock.advance(50)
  assert.equal(await failureOf(gated[0] as Promise<unknown>), { _tag: 'Timeout', ms: 100 })
  assert.is(clock.pending, before + 1)
  ctx.state.release('in time')
  assert.is(await gated[1], 'in time')
  // Answered requests leave the timer armed until its deadline; then nothing re-arms it.
  clock.advance(200)
  assert.is(clock.pending, before)
  // close() stops it at once.
  client.request('gate', undefined, { timeout: 100 }).catch(() => undefined)
  assert.is(clock.pending, before + 1)
  client.close()
  assert.is(clock.pending, 0)
})

test('connect :: no time-out is reported before its deadline, even when the timer fires early', async (ctx) => {
  // A clock whose timers run at half their delay (rounded up).
  const inner = manualClock()
  const clock: Clock = { now: inner.now, clearTimeout: inner.clearTimeout, setTimeout: (run, ms) => inner.setTimeout(run, Math.ceil(ms / 2)) }
  const client = await open(ctx, { clock, timeout: 0 })
  let failure: RequestFailure | undefined
  const gated = client.request('gate', undefined, { timeout: 100 }).catch((error: unknown) => void (failure = (error as RequestError).failure))
  await client.request('echo', 'sync')
  inner.advance(99)
  assert.is(failure, undefined)
  inner.advance(1)
  await gated
  assert.equal(failure, { _tag: 'Timeout', ms: 100 })
})

test('connect :: a late ack is dropped quietly however many requests settled since', async (ctx) => {
  const clock = manualClock()
  const client = await open(ctx, { clock })
  const problems = record(client, ['error'])
  const late = client.request('gate', undefined, { timeout: 50 })
  await client.request('echo', 'sync')
  clock.advance(50)
  assert.equal(await failureOf(late), { _tag: 'Timeout', ms: 50 })
  const many = await Promise.all(Array.from({ length: 1100 }, (_, i) => client.request('echo', i)))
  assert.is(many.length, 1100)
  ctx.state.release('too late')
  assert.is(await client.request('echo', 'after'), 'after')
  assert.equal(problems, [])
})

test('connect :: an aborted signal fails the request before it is sent', async (ctx) => {
  const client = await open(ctx)
  const reason = new Error('changed my mind')
  assert.equal(await failureOf(client.request('count', undefined, { signal: AbortSignal.abort(reason) })), { _tag: 'Aborted', reason })
  assert.is(await client.request('count'), 1)
  assert.is(ctx.state.calls, 1)
})

test('connect :: aborting a sent request rejects it; its late ack is dropped quietly', async (ctx) => {
  const client = await open(ctx)
  const problems = record(client, ['error'])
  const ac = new AbortController()
  const pending = client.request('gate', undefined, { signal: ac.signal })
  await client.request('echo', 'sync')
  ac.abort('stop')
  assert.equal(await failureOf(pending), { _tag: 'Aborted', reason: 'stop' })
  ctx.state.release('late')
  assert.is(await client.request('echo', 'after'), 'after')
  assert.equal(problems, [])
})

test('connect :: data JSON cannot carry rejects with Unserializable and sends nothing', async (ctx) => {
  const client = await open(ctx)
  const cyclic: { self?: unknown } = {}
  cyclic.self = cyclic
  for (const data of [cyclic, 10n]) {
    const failure = await failureOf(client.request('record', data))
    assert.is(failure._tag, 'Unserializable')
    assert.instance((failure as { error: unknown }).error, TypeError)
  }
  assert.is(await client.request('record', 'sync'), null)
  assert.equal(ctx.state.recorded, ['sync'])
})

test('connect :: close rejects pending requests with Closed and the code; later ones too', async (ctx) => {
  const client = await open(ctx)
  const pending = client.request('gate')
  await client.request('echo', 'sync')
  client.close(4321, 'bye')
  assert.is(client.state, 'closed')
  assert.equal(await failureOf(pending), { _tag: 'Closed', code: 4321, reason: 'bye' })
  assert.equal(await failureOf(client.request('echo', 1)), { _tag: 'Closed', code: 4321, reason: 'bye' })
})

test('connect :: ids are numbers from 1, one per request', async (ctx) => {
  const client = await open(ctx)
  const err = await client.request('nope').catch((e: unknown) => e)
  const err2 = await client.request('nope').catch((e: unknown) => e)
  assert.equal([(err as RequestError).id, (err2 as RequestError).id], [1, 2])
})

test.run()
