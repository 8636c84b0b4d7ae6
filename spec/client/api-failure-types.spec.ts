/**
 * `createApi`'s types in the docs' own patterns (issue 27), proved by `tsc` (the type check
 * covers every spec): a handler that answers `httpErrorResponse(...)` / `errorResponse(...)` /
 * `notFound()` beside `json(x, 201)` resolves with `x`, and its failures are the union
 * `ApiFailure` of `ApiError<status, body>`, from the handler's error answers and the route's
 * declared `responses`. `Equal` checks types; each `@ts-expect-error` line must be an error.
 * The same calls then run against a real server, so the types and the wire agree.
 */
import { isLeft } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ApiError } from '../../lib/client/api-error.js'
import type { ApiFailure, ApiResult, HttpFailure, HttpResult } from '../../lib/client/api-types.js'
import { createApi } from '../../lib/client/create-api.js'
import type { ErrorBody } from '../../lib/core/http/types.js'
import {
  errorResponse,
  httpErrorResponse,
  httpRoute,
  intParam,
  json,
  notFound,
  readJsonBody,
  response,
  routes,
  withHeader,
} from '../../lib/index.js'
import { startServer } from '../support/server.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const check = <T extends true>(): T => true as T

interface Room {
  name: string
  members: number
}

const NewRoom = t.type({ name: t.string })
const RoomCodec = t.type({ name: t.string, members: t.number })
const Missing = t.type({ error: t.literal('no_such_room'), room: t.string })

const rooms = new Map<string, Room>([['lobby', { name: 'lobby', members: 2 }]])

// The guide's pattern, written by hand: read the body, answer its errors, then 201.
const create = httpRoute('POST', '/rooms', (req) => {
  const body = readJsonBody(req)
  if (isLeft(body)) return httpErrorResponse(body.left)
  const room = NewRoom.decode(body.right)
  if (isLeft(room)) return errorResponse(422, 'expected {"name": string}')
  if (rooms.has(room.right.name)) return errorResponse(409, 'room_exists')
  const made: Room = { name: room.right.name, members: 0 }
  return json(made, 201)
})

// Declared responses type the failures, and the success when the handler answers a bare Response.
const show = httpRoute('GET', '/rooms/{name}', { responses: { 200: RoomCodec, 404: Missing } }, (req) => {
  const room = rooms.get(req.params.name)
  return room === undefined ? notFound({ error: 'no_such_room' as const, room: req.params.name }) : response({ ...room })
})

// Typed inputs: the input check's own failures are the server's, not the handler's (see the docs).
const rename = httpRoute(
  'PUT',
  '/rooms/{id}',
  { params: t.type({ id: intParam }), body: NewRoom, responses: { 409: t.type({ error: t.string }) } },
  async (req) => (req.input.params.id > 9 ? notFound() : withHeader(json({ id: req.input.params.id, name: req.input.body.name }), 'X-A', '1')),
)

const app = routes({ create, show, rename })
type App = typeof app

interface Ctx {
  base: string
  close: () => Promise<void>
}

const test = suite<Ctx>('createApi result and failure types')

test.before.each(async (ctx) => {
  const { server, url } = await startServer({ routes: app })
  Object.assign(ctx, { base: url, close: () => server.close() })
})

test.after.each(async (ctx) => {
  await ctx.close()
})

const failureOf = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.catch((err: unknown) => err)
  assert.instance(e, ApiError)
  return e as ApiError
}

test('types :: error answers beside json(x, 201) leave x as the result', () => {
  check<Equal<ApiResult<App, 'POST', '/rooms'>, Room>>()
  check<Equal<HttpResult<ReturnType<typeof create.handler>>, Room>>()
  // httpErrorResponse of a readJsonBody Left can be 400 or 415; errorResponse keeps its status.
  check<Equal<HttpFailure<ReturnType<typeof create.handler>>, ApiError<400 | 415, ErrorBody> | ApiError<422, ErrorBody> | ApiError<409, ErrorBody>>>()
  check<Equal<ApiFailure<App, 'POST', '/rooms'>['status'], 400 | 415 | 422 | 409>>()
  // A handler that answers only errors has no known result.
  check<Equal<HttpResult<ReturnType<typeof errorResponse<404>>>, unknown>>()
})

test('types :: declared responses type the failures, and the result of a bare Response', () => {
  check<Equal<ApiResult<App, 'GET', '/rooms/{name}'>, { name: string; members: number }>>()
  const failure = null as unknown as ApiFailure<App, 'GET', '/rooms/{name}'>
  check<Equal<typeof failure.status, 404>>()
  // Both the handler's notFound(data) and the declared 404 name the body.
  check<Equal<typeof failure.body, { error: 'no_such_room'; room: string }>>()
  check<Equal<ApiResult<App, 'PUT', '/rooms/{id}'>, { id: number; name: string }>>()
  check<Equal<ApiFailure<App, 'PUT', '/rooms/{id}'>, ApiError<404, ErrorBody> | ApiError<409, { error: string }>>>()
})

test('types :: ErrorResponse is an error whatever helper made it', () => {
  const e = errorResponse(409, 'x')
  check<Equal<typeof e.status, 409>>()
  check<Equal<HttpFailure<typeof e>, ApiError<409, ErrorBody>>>()
  check<Equal<HttpFailure<ReturnType<typeof json<{ a: 1 }, 404>>>, ApiError<404, { a: 1 }>>>()
  check<Equal<HttpFailure<ReturnType<typeof json<{ a: 1 }, 201>>>, never>>()
  // A status only known as a number: errorResponse stays a failure, json(x, status) a result.
  const anyStatus = (status: number) => (status > 1 ? errorResponse(status, 'x') : json({ a: 1 }, status))
  check<Equal<HttpResult<ReturnType<typeof anyStatus>>, { a: number }>>()
  check<Equal<HttpFailure<ReturnType<typeof anyStatus>>, ApiError<number, ErrorBody>>>()
})

test('createApi :: the typed calls agree with the wire', async (ctx) => {
  const api = createApi<App>(ctx.base)
  const made = await api.post('/rooms', { body: { name: 'den' } })
  check<Equal<typeof made, Room>>()
  assert.equal(made, { name: 'den', members: 0 })

  const taken = (await failureOf(api.post('/rooms', { body: { name: 'lobby' } }))) as ApiFailure<App, 'POST', '/rooms'>
  assert.is(taken.status, 409)
  if (taken.status === 409) {
    check<Equal<typeof taken.body, ErrorBody>>()
    assert.is(taken.body.error, 'room_exists')
  }
  // @ts-expect-error: this route never answers 404
  if (taken.status === 404) assert.unreachable()

  const room = await api.get('/rooms/{name}', { params: { name: 'lobby' } })
  assert.equal(room, { name: 'lobby', members: 2 })
  const missing = (await failureOf(api.get('/rooms/{name}', { params: { name: 'attic' } }))) as ApiFailure<App, 'GET', '/rooms/{name}'>
  assert.equal([missing.status, missing.body], [404, { error: 'no_such_room', room: 'attic' }])

  const renamed = await api.put('/rooms/{id}', { params: { id: '3' }, body: { name: 'hall' } })
  assert.equal(renamed, { id: 3, name: 'hall' })
  const far = await failureOf(api.put('/rooms/{id}', { params: { id: '10' }, body: { name: 'hall' } }))
  assert.equal([far.status, far.body], [404, { error: 'Not Found' }])
})

test.run()
