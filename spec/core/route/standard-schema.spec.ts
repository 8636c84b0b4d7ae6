/**
 * Standard Schema wherever io-ts is accepted: the same route table, written once with io-ts
 * and once with a Standard Schema library (spec/support/mini-schema.ts, whose messages name
 * the expected type as io-ts does), answers the same over HTTP and WebSocket; async schemas
 * are awaited; types are inferred from `~standard`.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { getBodyString } from '../../../lib/core/http/read-response.js'
import type { Response } from '../../../lib/core/http/types.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import type { CompiledRoutes } from '../../../lib/core/route/compiled-routes.js'
import { decodeSchema } from '../../../lib/core/route/decode-schema.js'
import { dispatchEvent } from '../../../lib/core/route/dispatch-event.js'
import { dispatchHttp, dispatchHttpNow } from '../../../lib/core/route/dispatch-http.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { listRoutes } from '../../../lib/core/route/list-routes.js'
import { intParam } from '../../../lib/core/route/param-codecs.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import type { SchemaInput, SchemaOutput } from '../../../lib/core/route/schema.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'
import { isStandardSchema } from '../../../lib/core/route/standard-schema.js'
import * as mini from '../../support/mini-schema.js'
import { httpRequest, recordingContext } from './support.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const check = <T extends true>(): T => true as T

const compile = (table: RouteTable): CompiledRoutes => E.getOrElseW(() => assert.unreachable('compiles') as never)(compileRoutes(table))

const ioTable = compile([
  socketOn('join', t.type({ room: t.string, size: t.number }), ({ room, size }) => ({ room, size })),
  httpRoute('POST', '/rooms/{id}', { params: t.type({ id: intParam }), body: t.type({ name: t.string }) }, (req) => ({ id: req.input.params.id, name: req.input.body.name })),
])
const miniTable = compile([
  socketOn('join', mini.object({ room: mini.string(), size: mini.number() }), ({ room, size }) => ({ room, size })),
  httpRoute('POST', '/rooms/{id}', { params: mini.object({ id: mini.numberFromText() }), body: mini.object({ name: mini.string() }) }, (req) => ({
    id: req.input.params.id,
    name: req.input.body.name,
  })),
])

const post = async (table: CompiledRoutes, target: string, body: string): Promise<[number, string]> => {
  const res: Response = await dispatchHttp(table, httpRequest('POST', target, [['content-type', 'application/json']], body))
  return [res.status, getBodyString(res)]
}

test('Standard Schema :: an HTTP route answers as with io-ts, success and 422 alike', async () => {
  for (const [target, body] of [
    ['/rooms/3', '{"name":"a"}'],
    ['/rooms/x', '{"name":1}'],
    ['/rooms/3', '{}'],
  ] as const) {
    assert.equal(await post(miniTable, target, body), await post(ioTable, target, body), `${target} ${body}`)
  }
  // At the root each library names the type its own way (io-ts: the structure; here 'object').
  const [status, text] = await post(miniTable, '/rooms/3', 'null')
  assert.equal([status, JSON.parse(text).details], [422, [{ path: 'body', expected: 'object' }]])
  assert.equal(await post(miniTable, '/rooms/x', '{"name":1}'), [
    422,
    '{"error":"invalid_input","message":"invalid input: params.id: expected integer; body.name: expected string","details":[{"path":"params.id","expected":"integer"},{"path":"body.name","expected":"string"}]}',
  ])
})

test('Standard Schema :: a socketOn event answers as with io-ts, ack and invalid_payload alike', async () => {
  for (const data of [{ room: 'r', size: 2 }, { room: 1 }, { room: 'r', size: '2' }]) {
    const message = { event: 'join', data, id: 1 }
    const viaMini = await dispatchEvent(miniTable, message, recordingContext().ctx)
    const viaIo = await dispatchEvent(ioTable, message, recordingContext().ctx)
    assert.equal(viaMini, viaIo, JSON.stringify(data))
  }
  const failed = await dispatchEvent(miniTable, { event: 'join', data: { room: 1 }, id: 2 }, recordingContext().ctx)
  assert.equal(failed, {
    _tag: 'Failed',
    error: {
      code: 'invalid_payload',
      message: 'invalid data for "join": room: expected string; size: expected number',
      id: 2,
      details: [
        { path: 'room', expected: 'string' },
        { path: 'size', expected: 'number' },
      ],
    },
  })
})

test('Standard Schema :: a schema answering with a promise is awaited (HTTP and WebSocket)', async () => {
  const table = compile([
    socketOn('a', mini.asyncOf(mini.object({ n: mini.number() })), ({ n }) => n + 1),
    httpRoute('POST', '/a', { body: mini.asyncOf(mini.object({ n: mini.number() })) }, (req) => ({ n: req.input.body.n + 1 })),
  ])
  assert.equal(await dispatchEvent(table, { event: 'a', data: { n: 1 }, id: 1 }, recordingContext().ctx), { _tag: 'Ack', id: 1, value: 2 })
  assert.equal((await dispatchEvent(table, { event: 'a', data: {}, id: 1 }, recordingContext().ctx))._tag, 'Failed')
  const pending = dispatchHttpNow(table, httpRequest('POST', '/a', [['content-type', 'application/json']], '{"n":1}'))
  assert.instance(pending, Promise)
  assert.equal(getBodyString(await pending), '{"n":2}')
  assert.equal(await post(table, '/a', '{"n":"1"}'), [422, '{"error":"invalid_input","message":"invalid input: body.n: expected number","details":[{"path":"body.n","expected":"number"}]}'])
})

test('Standard Schema :: decodeSchema maps issues (plain keys or { key } segments; no path is the root)', () => {
  const plainKeys = {
    '~standard': { version: 1 as const, vendor: 'x', validate: () => ({ issues: [{ message: 'bad', path: ['a', 0, { key: 'b' }] }, { message: 'root' }] }) },
  }
  assert.equal(decodeSchema(plainKeys, 1), E.left([{ path: 'a.0.b', expected: 'bad' }, { path: '', expected: 'root' }]))
  assert.ok(isStandardSchema(plainKeys) && !isStandardSchema(t.string) && !isStandardSchema(null) && !isStandardSchema({ '~standard': {} }))
})

test('Standard Schema :: types come from ~standard: output for handlers, input for senders; listRoutes names the vendor', () => {
  const Room = mini.object({ id: mini.numberFromText(), name: mini.string() })
  check<Equal<SchemaOutput<typeof Room>, { id: number; name: string }>>()
  check<Equal<SchemaInput<typeof Room>, { id: string; name: string }>>()
  socketOn('x', Room, (data) => {
    check<Equal<typeof data, { id: number; name: string }>>()
    // @ts-expect-error not in the schema
    return data.other
  })
  assert.equal(listRoutes([socketOn('x', Room, () => 1)]), ['event x (mini schema)'])
})

test.run()
