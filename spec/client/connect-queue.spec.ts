/**
 * The offline queue: what is emitted or requested while not connected waits, bounded, and
 * goes out in order on open; volatile emits are dropped; the queue can be off or cleared.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import type { ClientProblem } from '../../lib/client/client-problem.js'
import type { RequestError } from '../../lib/client/request-error.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import { manualClock, nextOf, record, WebSocketImpl } from '../support/client.js'
import { type AppState, clientApp } from '../support/client-app.js'
import { startServer } from '../support/server.js'

interface Ctx {
  server: ServerHandle
  state: AppState
  url: string
}

const test = suite<Ctx>('connect: queue')

test.before.each(async (ctx) => {
  const { table, state } = clientApp()
  const { server, port } = await startServer({ routes: table })
  Object.assign(ctx, { server, state, url: `ws://127.0.0.1:${port}/` })
})

test.after.each(async (ctx) => {
  await ctx.server.close()
})

const failure = async (p: Promise<unknown>): Promise<unknown> => ((await p.catch((e: unknown) => e)) as RequestError).failure

test('connect :: what is sent before the connection opens goes out in call order', async (ctx) => {
  const c = connect(ctx.url, { WebSocket: WebSocketImpl })
  try {
    assert.is(c.state, 'connecting')
    c.emit('record', 1)
    const two = c.request('record', 2)
    c.emit('record', 3)
    const four = c.request('echo', 4)
    assert.is(c.queued, 4)
    await nextOf(c, 'open')
    assert.is(c.queued, 0)
    assert.equal([await two, await four], [null, 4])
    assert.equal(ctx.state.recorded, [1, 2, 3])
  } finally {
    c.close()
  }
})

test('connect :: past queueSize an emit is dropped with QueueFull and a request rejects', async (ctx) => {
  const c = connect(ctx.url, { WebSocket: WebSocketImpl, queueSize: 2 })
  try {
    const problems = record(c, ['error'])
    assert.is(c.emit('record', 'a'), true)
    assert.is(c.emit('record', 'b'), true)
    assert.is(c.emit('record', 'c'), false)
    assert.equal(await failure(c.request('record', 'd')), { _tag: 'QueueFull', limit: 2 })
    assert.is(c.queued, 2)
    assert.equal(problems, [
      [
        'error',
        { _tag: 'EmitDropped', event: 'record', failure: { _tag: 'QueueFull', limit: 2 }, message: 'record: QueueFull' } satisfies ClientProblem,
      ],
    ])
    await nextOf(c, 'open')
    await c.request('echo', 'sync')
    assert.equal(ctx.state.recorded, ['a', 'b'])
  } finally {
    c.close()
  }
})

test('connect :: a volatile emit is dropped quietly when not connected, sent when connected', async (ctx) => {
  const c = connect(ctx.url, { WebSocket: WebSocketImpl })
  try {
    const problems = record(c, ['error'])
    assert.is(c.emit('record', 'lost', { volatile: true }), false)
    assert.is(c.queued, 0)
    await nextOf(c, 'open')
    assert.is(c.emit('record', 'kept', { volatile: true }), true)
    await c.request('echo', 'sync')
    assert.equal(ctx.state.recorded, ['kept'])
    assert.equal(problems, [])
  } finally {
    c.close()
  }
})

test('connect :: queueSize 0 turns the queue off: Offline', async (ctx) => {
  const c = connect(ctx.url, { WebSocket: WebSocketImpl, queueSize: 0 })
  try {
    const problem = nextOf<ClientProblem & { _tag: 'EmitDropped' }>(c, 'error')
    assert.is(c.emit('record', 'x'), false)
    assert.equal((await problem).failure, { _tag: 'Offline' })
    assert.equal(await failure(c.request('echo', 1)), { _tag: 'Offline' })
    await nextOf(c, 'open')
    assert.is(await c.request('echo', 2), 2)
    assert.equal(ctx.state.recorded, [])
  } finally {
    c.close()
  }
})

test('connect :: clearQueue empties the queue; queued requests reject with Cleared', async (ctx) => {
  const c = connect(ctx.url, { WebSocket: WebSocketImpl })
  try {
    c.emit('record', 'gone')
    const req = c.request('record', 'gone too')
    assert.is(c.clearQueue(), 2)
    assert.is(c.queued, 0)
    assert.equal(await failure(req), { _tag: 'Cleared' })
    c.emit('record', 'kept')
    await nextOf(c, 'open')
    assert.is(c.clearQueue(), 0)
    await c.request('echo', 'sync')
    assert.equal(ctx.state.recorded, ['kept'])
  } finally {
    c.close()
  }
})

test('connect :: a queued request that times out or is aborted leaves the queue', async (ctx) => {
  const clock = manualClock()
  const c = connect(ctx.url, { WebSocket: WebSocketImpl, clock })
  try {
    const timed = c.request('record', 'timed out', { timeout: 10 })
    const ac = new AbortController()
    const aborted = c.request('record', 'aborted', { signal: ac.signal })
    c.emit('record', 'sent')
    assert.is(c.queued, 3)
    clock.advance(10)
    ac.abort()
    assert.is(c.queued, 1)
    assert.equal(await failure(timed), { _tag: 'Timeout', ms: 10 })
    assert.equal(await failure(aborted), { _tag: 'Aborted', reason: ac.signal.reason })
    await nextOf(c, 'open')
    await c.request('echo', 'sync')
    assert.equal(ctx.state.recorded, ['sent'])
  } finally {
    c.close()
  }
})

test('connect :: close drops the queue and rejects its requests with Closed', async (ctx) => {
  const c = connect(ctx.url, { WebSocket: WebSocketImpl })
  const req = c.request('record', 'never')
  c.emit('record', 'never either')
  c.close()
  assert.equal(await failure(req), { _tag: 'Closed', code: 1000, reason: '' })
  assert.is(c.queued, 0)
  const problem = nextOf<ClientProblem & { _tag: 'EmitDropped' }>(c, 'error')
  assert.is(c.emit('record', 'after close'), false)
  assert.equal((await problem).failure, { _tag: 'Closed', code: 1000, reason: '' })
  await new Promise((resolve) => setTimeout(resolve, 20))
  assert.equal(ctx.state.recorded, [])
})

test.run()
