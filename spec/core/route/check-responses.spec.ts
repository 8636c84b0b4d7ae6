import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { getBodyString } from '../../../lib/core/http/read-response.js'
import { errorResponse, json, stream, text } from '../../../lib/core/http/index.js'
import type { Response } from '../../../lib/core/http/types.js'
import { checkResponses, type ResponseMismatch } from '../../../lib/core/route/check-responses.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import { dispatchHttp } from '../../../lib/core/route/dispatch-http.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { intParam } from '../../../lib/core/route/param-codecs.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import * as mini from '../../support/mini-schema.js'
import { httpRequest } from './support.js'

const User = t.type({ id: t.number, name: t.string })
const NotFound = t.type({ error: t.string })
const table = [
  httpRoute('GET', '/users/{id}', { params: t.type({ id: intParam }), responses: { 200: User, 404: NotFound } }, (req) => {
    const id = req.input.params.id
    if (id === 1) return { id: 1, name: 'ann' }
    if (id === 2) return { id: 2, name: 2 }
    if (id === 3) return json({ id: 3, name: 'zoe' }, 201)
    if (id === 4) return text('not json')
    if (id === 5) return Promise.resolve(json('"quoted"'))
    return errorResponse(404, 'no such user')
  }),
  httpRoute('GET', '/plain', { responses: { 204: t.undefined } }, () => undefined),
  httpRoute('GET', '/async', { responses: { 200: mini.asyncOf(mini.object({ n: mini.number() })) } }, async () => ({ n: 'x' })),
  httpRoute('GET', '/stream', { responses: { 200: User } }, () => stream((async function* () { yield new Uint8Array([97]) })())),
  httpRoute('GET', '/undeclared', () => ({ anything: true })),
] as const

const run = async (routes: RouteTable, target: string): Promise<[number, unknown]> => {
  const compiled = E.getOrElseW(() => assert.unreachable('compiles') as never)(compileRoutes(routes))
  const res: Response = await dispatchHttp(compiled, httpRequest('GET', target))
  const body = getBodyString(res)
  return [res.status, body === '' ? undefined : body.startsWith('{') ? JSON.parse(body) : body]
}

test('checkResponses :: answers that fit pass unchanged, declared error statuses included', async () => {
  const checked = checkResponses(table)
  assert.equal(await run(checked, '/users/1'), [200, { id: 1, name: 'ann' }])
  assert.equal(await run(checked, '/users/9'), [404, { error: 'no such user' }])
  assert.equal(await run(checked, '/plain'), [204, undefined])
  assert.equal(await run(checked, '/undeclared'), [200, { anything: true }])
  // The input check's own 422 is twinport's answer, not the handler's.
  assert.is((await run(checked, '/users/x'))[0], 422)
  // Bodies that are not JSON are not checked.
  assert.equal(await run(checked, '/users/4'), [200, 'not json'])
  assert.is((await run(checked, '/stream'))[0], 200)
})

test('checkResponses :: a body that does not fit, or an undeclared 2xx, is a 500 saying so, and reported', async () => {
  const seen: ResponseMismatch[] = []
  const checked = checkResponses(table, { onMismatch: (m) => seen.push(m) })
  assert.equal(await run(checked, '/users/2'), [
    500,
    {
      error: 'invalid_response',
      message: 'GET /users/{id} answered 200 with a body that does not fit: name: expected string',
      status: 200,
      details: [{ path: 'name', expected: 'string' }],
    },
  ])
  assert.equal((await run(checked, '/users/3'))[1], {
    error: 'invalid_response',
    message: 'GET /users/{id} answered 201, which it does not declare',
    status: 201,
    details: [],
  })
  assert.equal((await run(checked, '/users/5'))[0], 500, 'a JSON string body is read as JSON')
  assert.equal((await run(checked, '/async'))[1], {
    error: 'invalid_response',
    message: 'GET /async answered 200 with a body that does not fit: n: expected number',
    status: 200,
    details: [{ path: 'n', expected: 'number' }],
  })
  assert.equal(
    seen.map((m) => [m.path, m.status]),
    [
      ['/users/{id}', 200],
      ['/users/{id}', 201],
      ['/users/{id}', 200],
      ['/async', 200],
    ],
  )
})

test('checkResponses :: reportOnly keeps the answer; the table as given is unchecked; routes without responses are the same objects', async () => {
  const seen: ResponseMismatch[] = []
  const quiet = checkResponses(table, { reportOnly: true, onMismatch: (m) => seen.push(m) })
  assert.equal(await run(quiet, '/users/2'), [200, { id: 2, name: 2 }])
  assert.is(seen.length, 1)
  assert.equal(await run(table, '/users/2'), [200, { id: 2, name: 2 }])
  assert.is(quiet[4], table[4])
  assert.is.not(quiet[0], table[0])
  assert.equal(quiet[0].responses, table[0].responses)
})

test.run()
