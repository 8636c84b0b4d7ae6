/**
 * The chat demo over HTTP with `fetch`: the page and its files with their headers,
 * `GET /api/rooms`, `POST /api/rooms/{room}/messages` (201 reaching the WebSocket members,
 * and each refusal with its status: the framework's typed inputs), CORS and the origin rule
 * for writes.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { ServerHandle } from '../../../lib/index.js'
import { type ChatClient, chatUrl, member, startTestChat } from './chat-client.js'

interface Ctx {
  chat: ServerHandle
  base: string
  clients: ChatClient[]
}

const api = suite<Ctx>('chat REST API', { chat: undefined as unknown as ServerHandle, base: '', clients: [] })

api.before(async (ctx) => {
  ctx.chat = await startTestChat({ origins: ['https://partner.example'] })
  ctx.base = chatUrl(ctx.chat)
})
api.after.each(async (ctx) => {
  await Promise.all(ctx.clients.splice(0).map((c) => c.close()))
})
api.after(async (ctx) => {
  await ctx.chat.close()
})

const post = (ctx: Ctx, room: string, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }): Promise<Response> =>
  fetch(`${ctx.base}/api/rooms/${room}/messages`, { method: 'POST', headers, body })

api('GET / :: the page, as HTML, with a strict content security policy', async (ctx) => {
  const res = await fetch(`${ctx.base}/`)
  assert.is(res.status, 200)
  assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8')
  const csp = res.headers.get('content-security-policy') ?? ''
  assert.match(csp, "script-src 'self'")
  assert.match(csp, "default-src 'none'")
  assert.is(res.headers.get('x-content-type-options'), 'nosniff')
  const page = await res.text()
  assert.match(page, '<script type="module" src="/app.js"></script>')
  assert.not.match(page, '<script>')
})

api('GET /app.js and /app.css :: served with their types', async (ctx) => {
  const js = await fetch(`${ctx.base}/app.js`)
  assert.is(js.headers.get('content-type'), 'text/javascript; charset=utf-8')
  const script = await js.text()
  assert.match(script, 'textContent')
  assert.not.match(script, 'innerHTML')
  const css = await fetch(`${ctx.base}/app.css`)
  assert.is(css.headers.get('content-type'), 'text/css; charset=utf-8')
})

api('GET /api/rooms :: rooms by name with their member counts', async (ctx) => {
  const empty = await fetch(`${ctx.base}/api/rooms`)
  assert.is(empty.status, 200)
  assert.equal(await empty.json(), { rooms: [] })
  ctx.clients.push(await member(ctx.chat, 'ada', 'zoo', 'api-rooms'), await member(ctx.chat, 'bob', 'zoo'))
  const res = await fetch(`${ctx.base}/api/rooms`)
  assert.equal(await res.json(), {
    rooms: [
      { room: 'api-rooms', members: 1 },
      { room: 'zoo', members: 2 },
    ],
  })
})

api('POST messages :: 201 with the message, which reaches the members over the WebSocket', async (ctx) => {
  const ada = await member(ctx.chat, 'ada', 'api-post')
  ctx.clients.push(ada)
  const res = await post(ctx, 'api-post', JSON.stringify({ name: ' bot ', text: 'hello over HTTP', extra: 1 }))
  assert.is(res.status, 201)
  assert.is(res.headers.get('content-type'), 'application/json')
  const body = (await res.json()) as { id: number }
  const expected = { id: body.id, room: 'api-post', name: 'bot', text: 'hello over HTTP', at: '2026-01-02T03:04:05.000Z', via: 'http' }
  assert.equal(body, expected)
  assert.equal(await ada.next('message'), expected)
  const joiner = await member(ctx.chat, 'bob')
  ctx.clients.push(joiner)
  assert.equal((await joiner.request('join', { room: 'api-post' })).history, [expected])
})

api('POST messages :: 404 for a room nobody is in', async (ctx) => {
  const res = await post(ctx, 'empty-room', JSON.stringify({ name: 'bot', text: 'anyone?' }))
  assert.is(res.status, 404)
  assert.match(((await res.json()) as { error: string }).error, 'no room "empty-room"')
})

api('POST messages :: 400 invalid_json for a body that is not JSON', async (ctx) => {
  const res = await post(ctx, 'lobby', '{"name": ')
  assert.is(res.status, 400)
  assert.equal(await res.json(), { error: 'invalid_json', message: 'the body is not valid JSON' })
})

for (const [label, body, path] of [
  ['a missing text', { name: 'bot' }, 'body.text'],
  ['an empty name', { name: '', text: 'x' }, 'body.name'],
  ['a text of 501 characters', { name: 'bot', text: 'x'.repeat(501) }, 'body.text'],
  ['an array', [1, 2], 'body'],
] as const) {
  api(`POST messages :: 422 invalid_input for ${label}`, async (ctx) => {
    const res = await post(ctx, 'lobby', JSON.stringify(body))
    assert.is(res.status, 422)
    const answer = (await res.json()) as { error: string; details: { path: string }[] }
    assert.is(answer.error, 'invalid_input')
    assert.ok(answer.details.some((d) => d.path === path), JSON.stringify(answer))
  })
}

api('POST messages :: 422 for a room name the rooms cannot have (as written in the path: not trimmed)', async (ctx) => {
  for (const room of ['two%20words', '%20lobby', 'x'.repeat(33)]) {
    const res = await post(ctx, room, JSON.stringify({ name: 'bot', text: 'x' }))
    assert.is(res.status, 422, room)
    const answer = (await res.json()) as { error: string; details: { path: string }[] }
    assert.equal([answer.error, answer.details.map((d) => d.path)], ['invalid_input', ['params.room']], room)
  }
})

api('POST messages :: 415 without a JSON content type (a cross-site form cannot post)', async (ctx) => {
  const res = await post(ctx, 'lobby', JSON.stringify({ name: 'bot', text: 'x' }), { 'Content-Type': 'text/plain' })
  assert.is(res.status, 415)
  assert.equal(await res.json(), {
    error: 'unsupported_media_type',
    message: 'expected a body of type application/json, got text/plain',
  })
  const form = await post(ctx, 'lobby', 'name=bot&text=x', { 'Content-Type': 'application/x-www-form-urlencoded' })
  assert.is(form.status, 415)
  assert.match(((await form.json()) as { message: string }).message, 'got application/x-www-form-urlencoded')
})

api('POST messages :: 403 from a page of another site, accepted from a listed origin', async (ctx) => {
  ctx.clients.push(await member(ctx.chat, 'ada', 'api-origin'))
  const body = JSON.stringify({ name: 'bot', text: 'x' })
  const evil = await post(ctx, 'api-origin', body, { 'Content-Type': 'application/json', Origin: 'https://evil.example' })
  assert.is(evil.status, 403)
  // Refused before its body is read or checked: a broken body from there is a 403 too.
  const broken = await post(ctx, 'api-origin', '{"name": ', { 'Content-Type': 'text/plain', Origin: 'https://evil.example' })
  assert.is(broken.status, 403)
  const partner = await post(ctx, 'api-origin', body, { 'Content-Type': 'application/json', Origin: 'https://partner.example' })
  assert.is(partner.status, 201)
  assert.is(partner.headers.get('access-control-allow-origin'), 'https://partner.example')
  const own = await post(ctx, 'api-origin', body, { 'Content-Type': 'application/json', Origin: ctx.base })
  assert.is(own.status, 201)
})

api('CORS :: a listed origin gets its preflight granted for JSON posts, without credentials', async (ctx) => {
  const res = await fetch(`${ctx.base}/api/rooms/lobby/messages`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://partner.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
  })
  assert.is(res.status, 204)
  assert.is(res.headers.get('access-control-allow-origin'), 'https://partner.example')
  assert.match(res.headers.get('access-control-allow-methods') ?? '', 'POST')
  assert.match(res.headers.get('access-control-allow-headers') ?? '', 'Content-Type')
  assert.is(res.headers.get('access-control-allow-credentials'), null)
})

api('CORS :: any other origin gets no grant, for preflights and reads', async (ctx) => {
  const pre = await fetch(`${ctx.base}/api/rooms/lobby/messages`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
  })
  assert.is(pre.headers.get('access-control-allow-origin'), null)
  const read = await fetch(`${ctx.base}/api/rooms`, { headers: { Origin: 'https://evil.example' } })
  assert.is(read.status, 200)
  assert.is(read.headers.get('access-control-allow-origin'), null)
  assert.match(read.headers.get('vary') ?? '', 'Origin')
})

api('routes :: 405 with Allow for a wrong method, 404 for an unknown path', async (ctx) => {
  const wrong = await fetch(`${ctx.base}/api/rooms`, { method: 'DELETE' })
  assert.is(wrong.status, 405)
  assert.match(wrong.headers.get('allow') ?? '', 'GET')
  assert.is((await fetch(`${ctx.base}/index.php`)).status, 404)
})

api.run()
