/**
 * `httpRoute` with input schemas: the handler runs only for a request that fits and reads
 * the decoded values in `req.input`; anything else is answered 415, 400 or 422 (with the
 * `invalid_payload` details shape) before it. The `@ts-expect-error` lines keep the typing honest.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { getBodyString } from '../../../lib/core/http/read-response.js'
import { json } from '../../../lib/core/http/response.js'
import type { Response } from '../../../lib/core/http/types.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import type { CompiledRoutes } from '../../../lib/core/route/compiled-routes.js'
import { dispatchHttp, dispatchHttpNow } from '../../../lib/core/route/dispatch-http.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { intParam, uuidParam } from '../../../lib/core/route/param-codecs.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import { httpRequest } from './support.js'

const compile = (table: RouteTable): CompiledRoutes => E.getOrElseW(() => assert.unreachable('compiles') as never)(compileRoutes(table))

const Note = t.type({ text: t.string, tags: t.array(t.string) })
const notes = httpRoute(
  'POST',
  '/users/{id}/notes',
  { params: t.type({ id: intParam }), query: t.partial({ draft: t.union([t.literal('yes'), t.literal('no')]) }), body: Note },
  (req) => {
    const id: number = req.input.params.id
    const text: string = req.input.body.text
    const draft: 'yes' | 'no' | undefined = req.input.query.draft
    // @ts-expect-error no headers schema: no req.input.headers
    void req.input.headers
    // The raw values stay as received.
    const raw: string = req.params.id
    return json({ id, text, draft: draft ?? null, raw }, 201)
  },
)
const keyed = httpRoute('GET', '/things/{uuid}', { params: t.type({ uuid: uuidParam }), headers: t.type({ 'x-api-key': t.string }) }, (req) => ({
  uuid: req.input.params.uuid,
  key: req.input.headers['x-api-key'],
}))
const form = httpRoute('POST', '/form', { body: t.type({ name: t.string }), bodyTypes: ['form', 'multipart'] }, (req) => ({ name: req.input.body.name }))
const optional = httpRoute('POST', '/optional', { body: t.union([t.undefined, t.type({ n: t.number })]) }, (req) => ({ n: req.input.body?.n ?? null }))
const app = compile([notes, keyed, form, optional, httpRoute('GET', '/plain', () => ({ plain: true }))])

const JSON_TYPE = [['content-type', 'application/json']] as const
const send = (method: string, target: string, headers: readonly (readonly [string, string])[] = [], body = ''): Promise<Response> =>
  dispatchHttp(app, httpRequest(method, target, headers, body))
const answer = (res: Response): [number, unknown] => [res.status, JSON.parse(getBodyString(res))]

test('httpRoute inputs :: a fitting request reaches the handler with decoded values', async () => {
  const res = await send('POST', '/users/42/notes?draft=yes', JSON_TYPE, '{"text":"hi","tags":["a"]}')
  assert.equal(answer(res), [201, { id: 42, text: 'hi', draft: 'yes', raw: '42' }])
  const thing = await send('GET', '/things/0b9e4c1e-6a7f-4f0e-9f43-2f1d6c3b8a11', [['X-API-Key', 'k1']])
  assert.equal(answer(thing), [200, { uuid: '0b9e4c1e-6a7f-4f0e-9f43-2f1d6c3b8a11', key: 'k1' }])
})

test('httpRoute inputs :: every failing place of every input in one 422, with paths prefixed by the input', async () => {
  const res = await send('POST', '/users/abc/notes?draft=maybe', JSON_TYPE, '{"text":1,"tags":["a",2]}')
  const [status, body] = answer(res)
  assert.is(status, 422)
  assert.equal((body as { details: unknown }).details, [
    { path: 'params.id', expected: 'integer' },
    // io-ts names a union's members by index, as in a WebSocket invalid_payload.
    { path: 'query.draft.0', expected: '"yes"' },
    { path: 'query.draft.1', expected: '"no"' },
    { path: 'body.text', expected: 'string' },
    { path: 'body.tags.1', expected: 'string' },
  ])
  assert.is((body as { error: string }).error, 'invalid_input')
  assert.match((body as { message: string }).message, /^invalid input: params\.id: expected integer; /)
  const missing = answer(await send('GET', '/things/nope'))
  assert.equal(missing, [
    422,
    {
      error: 'invalid_input',
      message: 'invalid input: params.uuid: expected uuid; headers.x-api-key: expected string',
      details: [
        { path: 'params.uuid', expected: 'uuid' },
        { path: 'headers.x-api-key', expected: 'string' },
      ],
    },
  ])
})

test('httpRoute inputs :: 415 for a media type the route does not take, 400 for JSON that does not parse, before any schema', async () => {
  const wrong = answer(await send('POST', '/users/abc/notes', [['content-type', 'text/plain']], 'hi'))
  assert.equal(wrong, [415, { error: 'unsupported_media_type', message: 'expected a body of type application/json, got text/plain' }])
  const none = answer(await send('POST', '/users/1/notes', [], '{}'))
  assert.equal(none[0], 415)
  const broken = answer(await send('POST', '/users/abc/notes', JSON_TYPE, '{"text":'))
  assert.equal(broken, [400, { error: 'invalid_json', message: 'the body is not valid JSON' }])
  const formAsJson = answer(await send('POST', '/form', JSON_TYPE, '{"name":"x"}'))
  assert.equal(formAsJson, [415, { error: 'unsupported_media_type', message: 'expected a body of type application/x-www-form-urlencoded or multipart/form-data, got application/json' }])
})

test('httpRoute inputs :: an empty body is undefined for the schema, whatever the type', async () => {
  assert.equal(answer(await send('POST', '/optional')), [200, { n: null }])
  assert.equal(answer(await send('POST', '/optional', JSON_TYPE, '{"n":2}')), [200, { n: 2 }])
  assert.equal(answer(await send('POST', '/users/1/notes', JSON_TYPE))[1], {
    error: 'invalid_input',
    message: 'invalid input: body: expected { text: string, tags: Array<string> }',
    details: [{ path: 'body', expected: '{ text: string, tags: Array<string> }' }],
  })
})

test('httpRoute inputs :: form and multipart bodies (fields; a repeated name is an array)', async () => {
  const urlencoded = answer(await send('POST', '/form', [['content-type', 'application/x-www-form-urlencoded']], 'name=ann+b'))
  assert.equal(urlencoded, [200, { name: 'ann b' }])
  const boundary = 'XyZ'
  const part = (name: string, value: string): string => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  const multipart = `${part('name', 'zoe')}--${boundary}--\r\n`
  const headers = [['content-type', `multipart/form-data; boundary=${boundary}`]] as const
  assert.equal(answer(await send('POST', '/form', headers, multipart)), [200, { name: 'zoe' }])
  const twice = `${part('name', 'a')}${part('name', 'b')}--${boundary}--\r\n`
  assert.equal(answer(await send('POST', '/form', headers, twice)), [422, {
    error: 'invalid_input',
    message: 'invalid input: body.name: expected string',
    details: [{ path: 'body.name', expected: 'string' }],
  }])
  const noBoundary = await send('POST', '/form', [['content-type', 'multipart/form-data']], multipart)
  assert.is(noBoundary.status, 400)
})

test('httpRoute inputs :: synchronous answers stay synchronous; routes without schemas are unchanged records', () => {
  const res = dispatchHttpNow(app, httpRequest('GET', '/things/x'))
  assert.not.ok(res instanceof Promise)
  assert.is((res as Response).status, 422)
  const plain = httpRoute('GET', '/p', () => 1)
  assert.not.ok('input' in plain || 'bodyTypes' in plain)
  assert.equal(Object.keys(notes.input ?? {}), ['params', 'query', 'body'])
  assert.equal(notes.bodyTypes, ['json'])
  assert.is(keyed.bodyTypes, undefined)
})

test('httpRoute inputs :: a streamed route may check its params and query', async () => {
  const route = httpRoute('PUT', '/files/{n}', { body: 'stream', params: t.type({ n: intParam }) }, async (req) => {
    let size = 0
    for await (const chunk of req.body) size += chunk.length
    return { n: req.input.params.n, size }
  })
  assert.is(route.body, 'stream')
  const streamed = compile([route])
  assert.is((await dispatchHttp(streamed, httpRequest('PUT', '/files/x', [], 'abc'))).status, 422)
})

test.run()
