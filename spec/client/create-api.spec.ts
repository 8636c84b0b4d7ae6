/**
 * `createApi` against a real twinport server: path params, query, JSON body, JSON and text
 * answers, 204, non-2xx as ApiError; and over an injected fetch for what a twinport server
 * does not send (broken JSON).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ApiError } from '../../lib/client/api-error.js'
import { createApi, type FetchLike } from '../../lib/client/create-api.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import { type ClientApp, clientApp } from '../support/client-app.js'
import { startServer } from '../support/server.js'

interface Ctx {
  server: ServerHandle
  base: string
}

const test = suite<Ctx>('createApi')

test.before.each(async (ctx) => {
  const { server, url } = await startServer({ routes: clientApp().table })
  Object.assign(ctx, { server, base: url })
})

test.after.each(async (ctx) => {
  await ctx.server.close()
})

const rejection = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.catch((err: unknown) => err)
  assert.instance(e, ApiError)
  return e as ApiError
}

test('createApi :: GET fills the path params, percent-encoded', async (ctx) => {
  const api = createApi<ClientApp>(ctx.base)
  assert.equal(await api.get('/api/rooms/{room}', { params: { room: 'lobby' } }), { room: 'lobby', members: 2 })
  assert.equal(await api.get('/api/rooms/{room}', { params: { room: 'a b/c' } }), { room: 'a b/c', members: 2 })
})

test('createApi :: query values are appended, numbers and booleans as text', async (ctx) => {
  const api = createApi<ClientApp>(ctx.base)
  assert.equal(await api.get('/api/search', { query: { q: 'x&y' } }), { q: 'x&y' })
  assert.equal(await api.get('/api/search', { query: { q: 3, more: true } }), { q: '3' })
  assert.equal(await api.get('/api/search'), { q: null })
})

test('createApi :: POST sends the body as JSON and resolves with the json() data', async (ctx) => {
  const api = createApi<ClientApp>(ctx.base)
  assert.equal(await api.post('/api/rooms/{room}/notes', { params: { room: 'r' }, body: { text: 'hello' } }), { room: 'r', text: 'hello', id: 1 })
})

test('createApi :: a status outside 2xx rejects with ApiError carrying status and body', async (ctx) => {
  const api = createApi<ClientApp>(ctx.base)
  const bad = await rejection(api.post('/api/rooms/{room}/notes', { params: { room: 'r' }, body: { text: 5 } as unknown as { text: string } }))
  assert.equal([bad.status, bad.body, bad.method, bad.message], [400, { error: 'invalid_payload' }, 'POST', `POST ${ctx.base}/api/rooms/r/notes: 400`])
  const untyped = createApi(ctx.base)
  const missing = await rejection(untyped.get('/nowhere'))
  assert.equal([missing.status, missing.body], [404, { error: 'not_found' }])
  const wrongMethod = await rejection(untyped.put('/api/search', { body: {} }))
  assert.is(wrongMethod.status, 405)
})

test('createApi :: 204 resolves undefined; a text answer resolves its text', async (ctx) => {
  const api = createApi<ClientApp>(ctx.base)
  assert.is(await api.delete('/api/rooms/{room}', { params: { room: 'r' } }), undefined)
  assert.is(await api.get('/plain'), 'plain words')
})

test('createApi :: a missing path param rejects with a TypeError before any request', async () => {
  let calls = 0
  const fetch: FetchLike = async () => {
    calls += 1
    throw new Error('not called')
  }
  const api = createApi('http://x', { fetch })
  // @ts-expect-error: the path names a param, so params are required
  const err = await api.get('/a/{b}', {}).catch((e: unknown) => e)
  assert.instance(err, TypeError)
  assert.is((err as Error).message, '/a/{b}: missing param "b"')
  assert.is(calls, 0)
})

test('createApi :: sends the default and per-call headers; a body gets content-type JSON unless set', async () => {
  const seen: Parameters<FetchLike>[] = []
  const fetch: FetchLike = async (url, init) => {
    seen.push([url, init])
    return { ok: true, status: 200, headers: { get: () => 'application/json; charset=utf-8' }, text: async () => '{"ok":true}' }
  }
  const ac = new AbortController()
  const api = createApi('http://x', { fetch, headers: { authorization: 'Bearer t', 'x-a': '1' } })
  assert.equal(await api.post('/p', { body: [1], headers: { 'x-a': '2' }, signal: ac.signal }), { ok: true })
  await api.put('/p', { body: 'raw', headers: { 'content-type': 'text/plain' } })
  await api.patch('/p')
  assert.equal(seen, [
    ['http://x/p', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t', 'x-a': '2' }, body: '[1]', signal: ac.signal }],
    ['http://x/p', { method: 'PUT', headers: { 'content-type': 'text/plain', authorization: 'Bearer t', 'x-a': '1' }, body: '"raw"' }],
    ['http://x/p', { method: 'PATCH', headers: { authorization: 'Bearer t', 'x-a': '1' } }],
  ])
})

test('createApi :: an answer that says JSON but is not rejects with ApiError', async () => {
  const fetch: FetchLike = async () => ({ ok: true, status: 200, headers: { get: () => 'application/json' }, text: async () => '{"broken' })
  const err = await rejection(createApi('http://x', { fetch }).get('/p'))
  assert.equal([err.status, err.body, err.message], [200, '{"broken', 'GET http://x/p: 200 invalid JSON'])
})

test('createApi :: without a fetch the call rejects with a TypeError', async () => {
  const saved = globalThis.fetch
  ;(globalThis as { fetch?: unknown }).fetch = undefined
  try {
    const err = await createApi('http://x').get('/p').catch((e: unknown) => e)
    assert.instance(err, TypeError)
  } finally {
    globalThis.fetch = saved
  }
})

test.run()
