/**
 * Types of `twinport/client` from a server's route table, proved by `tsc` (the type check of
 * `npm test` covers every spec): `Equal` checks what calls resolve to, and each
 * `@ts-expect-error` line must be an error, or the check fails. The tests also run the same
 * calls against the real server, so the types and the wire agree.
 */
import * as t from 'io-ts'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { AckData, EventData, EventName } from '../../lib/client/app-types.js'
import type { ApiBody, ApiPath, HttpResult } from '../../lib/client/api-types.js'
import type { Client } from '../../lib/client/client.js'
import { connect } from '../../lib/client/connect.js'
import { events } from '../../lib/client/events.js'
import { createApi } from '../../lib/client/create-api.js'
import { adminRoutes, httpRoute, intParam, json, mount, type Response, routes, serveStatic, socketOn, type TypedHttpContext, type TypedSocketContext } from '../../lib/index.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import { nextOf, WebSocketImpl } from '../support/client.js'
import { type AppEvents, type ClientApp, clientApp } from '../support/client-app.js'
import { startServer } from '../support/server.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const check = <T extends true>(): T => true as T

interface Ctx {
  server: ServerHandle
  port: number
}

const test = suite<Ctx>('client types')

test.before.each(async (ctx) => {
  const { server, port } = await startServer({ routes: clientApp().table })
  Object.assign(ctx, { server, port })
})

test.after.each(async (ctx) => {
  await ctx.server.close()
})

test('types :: request takes each route codec type and resolves with its handler type', async (ctx) => {
  const client = connect<ClientApp, AppEvents>(`ws://127.0.0.1:${ctx.port}/`, { WebSocket: WebSocketImpl })
  try {
    const joined = client.request('join', { room: 'a' })
    check<Equal<typeof joined, Promise<{ ok: true; room: string }>>>()
    assert.equal(await joined, { ok: true, room: 'a' })

    const count = client.request('count')
    check<Equal<typeof count, Promise<number>>>()
    assert.is(await count, 1)

    const ticks = client.request('ticks', 2, { timeout: 1000 })
    check<Equal<typeof ticks, Promise<number>>>()
    assert.is(await ticks, 2)

    // A handler that returns nothing: void. One that may return undefined: null on the wire.
    const recorded = client.request('record', { any: 'thing' })
    check<Equal<typeof recorded, Promise<void>>>()
    const maybe = client.request('maybe', false)
    check<Equal<typeof maybe, Promise<'yes' | null>>>()
    assert.equal([await recorded, await maybe], [null, null])

    // A handler returning a promise resolves with what the promise holds.
    check<Equal<ReturnType<typeof client.request<'gate'>>, Promise<string>>>()

    // @ts-expect-error: no route has this event
    void client.request('nope').catch(() => undefined)
    // @ts-expect-error: room must be a string
    void client.request('join', { room: 1 }).catch(() => undefined)
    // @ts-expect-error: join needs its data
    void client.request('join').catch(() => undefined)
    // @ts-expect-error: ticks takes a number
    void client.request('ticks', 'three').catch(() => undefined)
    // @ts-expect-error: an unknown option
    void client.request('count', undefined, { retries: 3 }).catch(() => undefined)
  } finally {
    client.close()
  }
})

test('types :: serveStatic and adminRoutes spread into a table keep its event names typed', () => {
  // A table with the files of a folder and the admin page: both used to be typed as any Route,
  // which made every event name (and any data) acceptable to the client.
  const table = routes(socketOn('say', t.type({ text: t.string }), () => ({ ok: true as const })), ...serveStatic('/static', '.'), adminRoutes())
  check<Equal<EventName<typeof table>, 'say' | 'tp:admin'>>()
  check<Equal<EventData<typeof table, 'say'>, { text: string }>>()
  // Type checks only: never called, so no socket is opened.
  const typed = (client: Client<typeof table>): void => {
    // @ts-expect-error: no route has this event
    void client.request('nope')
    // @ts-expect-error: text must be a string
    void client.request('say', { text: 1 })
    void client.request('say', { text: 'hi' })
  }
  assert.type(typed, 'function')
})

test('types :: emit is checked like request', async (ctx) => {
  const client = connect<ClientApp, AppEvents>(`ws://127.0.0.1:${ctx.port}/`, { WebSocket: WebSocketImpl })
  try {
    check<Equal<ReturnType<typeof client.emit<'say'>>, boolean>>()
    assert.is(client.emit('say', { room: 'r', text: 'hi' }), true)
    assert.is(client.emit('say', { room: 'r', text: 'hi' }, { volatile: true }), false)
    // @ts-expect-error: text is missing
    client.emit('say', { room: 'r' })
    // @ts-expect-error: no route has this event
    client.emit('shout', 'x')
  } finally {
    client.close()
  }
})

test('types :: server events are typed by the shared map, lifecycle events by the client', async (ctx) => {
  const client = connect<ClientApp, AppEvents>(`ws://127.0.0.1:${ctx.port}/`, { WebSocket: WebSocketImpl })
  try {
    const ticks: number[] = []
    client.on('tick', (n) => {
      check<Equal<typeof n, number>>()
      ticks.push(n)
    })
    client.on('said', (m) => check<Equal<typeof m, { readonly room: string; readonly text: string }>>())
    client.on('close', (c) => check<Equal<typeof c.code, number>>())
    client.on('reconnecting', ({ attempt, delay }) => check<Equal<[typeof attempt, typeof delay], [number, number]>>())
    client.on('error', (p) => check<Equal<typeof p._tag, import('../../lib/client/client-problem.js').ClientProblem['_tag']>>())
    // `open` in the map is shadowed by the lifecycle event of that name.
    client.on('open', (p) => check<Equal<typeof p, undefined>>())
    // @ts-expect-error: the server never sends this event
    client.on('nothing', () => undefined)
    // @ts-expect-error: tick carries a number
    client.on('tick', (s: string) => s)
    await nextOf(client, 'open')
    const stream = events(client, 'tick')
    await client.request('ticks', 1)
    const first = await stream.next()
    check<Equal<typeof first, IteratorResult<number>>>()
    assert.equal([first.value, ticks], [1, [1]])
  } finally {
    client.close()
  }
})

test('types :: an untyped client takes any event and data and resolves with unknown', async (ctx) => {
  const client = connect(`ws://127.0.0.1:${ctx.port}/`, { WebSocket: WebSocketImpl })
  try {
    const echoed = client.request('echo', { free: 'form' })
    check<Equal<typeof echoed, Promise<unknown>>>()
    assert.equal(await echoed, { free: 'form' })
    client.on('anything', (d) => check<Equal<typeof d, unknown>>())
  } finally {
    client.close()
  }
})

test('types :: the HTTP helper takes the params, body and result of each route', async (ctx) => {
  const api = createApi<ClientApp>(`http://127.0.0.1:${ctx.port}`)
  const room = await api.get('/api/rooms/{room}', { params: { room: 'a' } })
  check<Equal<typeof room, { room: string; members: number }>>()
  assert.equal(room, { room: 'a', members: 2 })

  const note = await api.post('/api/rooms/{room}/notes', { params: { room: 'r' }, body: { text: 'x' } })
  check<Equal<typeof note, { room: string; text: string; id: number }>>()
  const gone = api.delete('/api/rooms/{room}', { params: { room: 'r' } })
  check<Equal<typeof gone, Promise<void>>>()
  await gone
  // A route answering an untyped Response (text here): unknown.
  check<Equal<Awaited<ReturnType<typeof api.get<'/plain'>>>, unknown>>()

  // @ts-expect-error: the path has a param
  void api.get('/api/rooms/{room}').catch(() => undefined)
  // @ts-expect-error: the param is called room
  void api.get('/api/rooms/{room}', { params: { id: 'a' } }).catch(() => undefined)
  // @ts-expect-error: no GET route has this path
  void api.get('/api/rooms/{room}/notes', { params: { room: 'r' } }).catch(() => undefined)
  // @ts-expect-error: the declared body is { text: string }
  void api.post('/api/rooms/{room}/notes', { params: { room: 'r' }, body: { words: 'x' } }).catch(() => undefined)
  // @ts-expect-error: the body is required
  void api.post('/api/rooms/{room}/notes', { params: { room: 'r' } }).catch(() => undefined)
  // @ts-expect-error: GET sends no body
  void api.get('/api/search', { body: {} }).catch(() => undefined)
})

test('types :: route tables keep names through routes(), arrays, controllers and mount', () => {
  const table = routes([socketOn('a', t.string, (s) => s.length)], { b: socketOn('b', () => undefined) }, socketOn('c', async () => true))
  check<Equal<EventName<typeof table>, 'a' | 'b' | 'c'>>()
  check<Equal<EventData<typeof table, 'a'>, string>>()
  check<Equal<EventData<typeof table, 'b'>, unknown>>()
  const mounted = mount('/api/', routes(httpRoute('get', '/users/{id}', (req) => ({ id: req.params.id })), httpRoute('GET', '/', () => json({ root: true }))))
  check<Equal<ApiPath<typeof mounted, 'GET'>, '/api/users/{id}' | '/api'>>()
  assert.equal(
    mounted.map((r) => r._tag === 'HttpRoute' && `${r.method} ${r.path}`),
    ['GET /api/users/{id}', 'GET /api'],
  )
  check<Equal<ApiPath<typeof mounted, 'POST'>, never>>()
})

test('types :: a handler annotates its context with the shared event map and keeps its codec type', () => {
  const Say = t.type({ room: t.string, text: t.string })
  const say = socketOn('say', Say, ({ room, text }, ctx: TypedSocketContext<AppEvents>) => {
    check<Equal<typeof room, string>>()
    ctx.broadcast('said', { room, text }, { room })
    ctx.emit('tick', 1)
    // @ts-expect-error: tick carries a number
    ctx.emit('tick', 'one')
    // @ts-expect-error: not an event of the map
    ctx.send(1, 'unknown', null)
    return text.length
  })
  const post = httpRoute('POST', '/tick', (_req, ctx: TypedHttpContext<AppEvents>) => {
    ctx.broadcast('tick', 2)
    // @ts-expect-error: said carries { room, text }
    ctx.send(1, 'said', { room: 'r' })
  })
  check<Equal<EventData<typeof say, 'say'>, { room: string; text: string }>>()
  assert.equal([say.event, post.method], ['say', 'POST'])
})

test('types :: AckData and HttpResult map handler results to what the wire carries', () => {
  check<Equal<AckData<void>, void>>()
  check<Equal<AckData<Promise<void>>, void>>()
  check<Equal<AckData<undefined>, void>>()
  check<Equal<AckData<string | undefined>, string | null>>()
  check<Equal<AckData<Promise<{ a: 1 }>>, { a: 1 }>>()
  check<Equal<AckData<unknown>, unknown>>()
  // biome-ignore lint: `any` on purpose, to prove it does not leak out
  check<Equal<AckData<any>, unknown>>()
  check<Equal<HttpResult<Response>, unknown>>()
  check<Equal<HttpResult<ReturnType<typeof json<{ n: number }>> | Response>, { n: number }>>()
  // A json() answer with a status outside 2xx is an error: the call rejects with it.
  const answers = (ok: boolean) => (ok ? json({ n: 1 }, 201) : json({ error: 'no' }, 404))
  check<Equal<HttpResult<ReturnType<typeof answers>>, { n: number }>>()
  check<Equal<HttpResult<Promise<{ x: string }>>, { x: string }>>()
  check<Equal<HttpResult<undefined>, void>>()
})

test('client types :: a route body schema types the body a client posts (its encoded form)', () => {
  const table = routes([
    httpRoute('POST', '/n/{id}', { params: t.type({ id: intParam }), body: t.type({ text: t.string, at: intParam }) }, (req) => json({ id: req.input.params.id })),
  ])
  check<Equal<ApiBody<typeof table, 'POST', '/n/{id}'>, { text: string; at: string }>>()
  check<Equal<HttpResult<ReturnType<(typeof table)[number]['handler']>>, { id: number }>>()
  const api = createApi<typeof table>('http://x', { fetch: async () => ({ ok: true, status: 200, headers: { get: () => null }, text: async () => '' }) })
  // @ts-expect-error the body must fit the schema's input
  void api.post('/n/{id}', { params: { id: '1' }, body: { text: 1, at: '2' } })
  void api.post('/n/{id}', { params: { id: '1' }, body: { text: 'a', at: '2' } })
})

test.run()
