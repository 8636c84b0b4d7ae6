import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as t from 'io-ts'
import { toJsonSchema as valibotJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'
import { z } from 'zod'
import { asyncApi } from '../../../lib/core/contract/async-api.js'
import { errorSchema } from '../../../lib/core/contract/document-info.js'
import { openApi } from '../../../lib/core/contract/open-api.js'
import type { JsonSchemaConverter } from '../../../lib/core/contract/to-json-schema.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { describeCodec } from '../../../lib/core/route/json-schema.js'
import { mount } from '../../../lib/core/route/mount.js'
import { onConnect } from '../../../lib/core/route/on-connect.js'
import { intParam, uuidParam } from '../../../lib/core/route/param-codecs.js'
import { routes } from '../../../lib/core/route/routes.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'
import { AsyncApiParser, asyncApiProblems, openApiProblems } from '../../support/validate-documents.js'
import { resolvePointer } from './resolve-pointer.js'

const parser = new AsyncApiParser()
const info = { title: 'Rooms', version: '3.1.4', description: 'A realistic table' }
const ErrorBody = describeCodec(t.type({ error: t.string, message: t.union([t.string, t.undefined]) }), errorSchema())

// The same API three times: io-ts, Zod, Valibot. Params, query, headers, JSON and form
// bodies, a streamed body, a rest param, declared answers and error answers; events with
// payloads and acks, and server events.
const ioTs = (): RouteTable => {
  const Room = t.type({ id: t.string, name: t.string, topic: t.union([t.string, t.null]), members: t.array(t.string) })
  const NewRoom = t.intersection([t.type({ name: t.string }), t.partial({ topic: t.string, private: t.boolean })])
  return routes(
    onConnect(() => undefined),
    httpRoute('GET', '/health', () => ({ ok: true })),
    mount(
      '/api/v1',
      routes(
        httpRoute('GET', '/rooms', { query: t.partial({ page: intParam, q: t.string }), headers: t.partial({ 'x-request-id': t.string }), responses: { 200: t.array(Room) } }, () => []),
        httpRoute('POST', '/rooms', { body: NewRoom, bodyTypes: ['json', 'form'], responses: { 201: Room, 409: ErrorBody } }, () => 1),
        httpRoute('GET', '/rooms/{roomId}', { params: t.type({ roomId: uuidParam }), responses: { 200: Room, 404: ErrorBody } }, () => 1),
        httpRoute('DELETE', '/rooms/{roomId}', { params: t.type({ roomId: uuidParam }), headers: t.type({ 'if-match': t.string }) }, () => 1),
        httpRoute('PATCH', '/rooms/{roomId}/members/{userId}', { params: t.type({ roomId: uuidParam, userId: intParam }), body: t.type({ role: t.keyof({ owner: null, member: null }) }) }, () => 1),
        httpRoute('PUT', '/files/{*path}', { body: 'stream' }, () => 1),
        httpRoute('POST', '/rooms/{roomId}/messages', { params: t.type({ roomId: uuidParam }), body: t.type({ text: t.string, at: t.tuple([t.number, t.number]) }) }, () => 1),
      ),
    ),
    socketOn('join', t.type({ room: t.string }), () => ({ joined: true })),
    socketOn('chat:say', t.type({ room: t.string, text: t.string, mentions: t.union([t.array(t.string), t.undefined]) }), () => 1),
    socketOn('leave', () => undefined),
  )
}

const zod = (): RouteTable => {
  const Room = z.object({ id: z.string(), name: z.string(), topic: z.string().nullable(), members: z.array(z.string()) })
  const Failure = z.object({ error: z.string(), message: z.string().optional() })
  return routes(
    httpRoute('GET', '/health', () => ({ ok: true })),
    mount(
      '/api/v1',
      routes(
        httpRoute('GET', '/rooms', { query: z.object({ page: z.coerce.number().int().optional(), q: z.string().optional() }), headers: z.object({ 'x-request-id': z.string().optional() }), responses: { 200: z.array(Room) } }, () => []),
        httpRoute('POST', '/rooms', { body: z.object({ name: z.string().min(1), topic: z.string().optional(), private: z.boolean().optional() }), bodyTypes: ['json', 'form'], responses: { 201: Room, 409: Failure } }, () => 1),
        httpRoute('GET', '/rooms/{roomId}', { params: z.object({ roomId: z.uuid() }), responses: { 200: Room, 404: Failure } }, () => 1),
        httpRoute('DELETE', '/rooms/{roomId}', { params: z.object({ roomId: z.uuid() }), headers: z.object({ 'if-match': z.string() }) }, () => 1),
        httpRoute('PATCH', '/rooms/{roomId}/members/{userId}', { params: z.object({ roomId: z.uuid(), userId: z.coerce.number().int() }), body: z.object({ role: z.enum(['owner', 'member']) }) }, () => 1),
        httpRoute('PUT', '/files/{*path}', { body: 'stream' }, () => 1),
        httpRoute('POST', '/rooms/{roomId}/messages', { params: z.object({ roomId: z.uuid() }), body: z.object({ text: z.string(), at: z.tuple([z.number(), z.number()]) }) }, () => 1),
      ),
    ),
    socketOn('join', z.object({ room: z.string() }), () => ({ joined: true })),
    socketOn('chat:say', z.object({ room: z.string(), text: z.string().max(2000), mentions: z.array(z.string()).optional() }), () => 1),
    socketOn('leave', () => undefined),
  )
}

// Valibot 1.x exposes no `~standard.jsonSchema`: its converter is passed as `jsonSchemaOf`.
const valibot = (): RouteTable => {
  const Room = v.object({ id: v.string(), name: v.string(), topic: v.nullable(v.string()), members: v.array(v.string()) })
  const Failure = v.object({ error: v.string(), message: v.optional(v.string()) })
  const Uuid = v.pipe(v.string(), v.uuid())
  return routes(
    httpRoute('GET', '/health', () => ({ ok: true })),
    mount(
      '/api/v1',
      routes(
        httpRoute('GET', '/rooms', { query: v.object({ page: v.optional(v.pipe(v.string(), v.digits())), q: v.optional(v.string()) }), headers: v.object({ 'x-request-id': v.optional(v.string()) }), responses: { 200: v.array(Room) } }, () => []),
        httpRoute('POST', '/rooms', { body: v.object({ name: v.pipe(v.string(), v.minLength(1)), topic: v.optional(v.string()), private: v.optional(v.boolean()) }), bodyTypes: ['json', 'form'], responses: { 201: Room, 409: Failure } }, () => 1),
        httpRoute('GET', '/rooms/{roomId}', { params: v.object({ roomId: Uuid }), responses: { 200: Room, 404: Failure } }, () => 1),
        httpRoute('DELETE', '/rooms/{roomId}', { params: v.object({ roomId: Uuid }), headers: v.object({ 'if-match': v.string() }) }, () => 1),
        httpRoute('PATCH', '/rooms/{roomId}/members/{userId}', { params: v.object({ roomId: Uuid, userId: v.pipe(v.string(), v.digits()) }), body: v.object({ role: v.picklist(['owner', 'member']) }) }, () => 1),
        httpRoute('PUT', '/files/{*path}', { body: 'stream' }, () => 1),
        httpRoute('POST', '/rooms/{roomId}/messages', { params: v.object({ roomId: Uuid }), body: v.object({ text: v.string(), at: v.tuple([v.number(), v.number()]) }) }, () => 1),
      ),
    ),
    socketOn('join', v.object({ room: v.string() }), () => ({ joined: true })),
    socketOn('chat:say', v.object({ room: v.string(), text: v.pipe(v.string(), v.maxLength(2000)), mentions: v.optional(v.array(v.string())) }), () => 1),
    socketOn('leave', () => undefined),
  )
}

// What docs/guide.md "Contracts" shows: Valibot's own converter, for Valibot's schemas only.
const jsonSchemaOf: JsonSchemaConverter = (schema, { target }) =>
  schema['~standard'].vendor === 'valibot' ? valibotJsonSchema(schema as v.GenericSchema, { target }) : undefined

const emitsIoTs = { message: t.type({ room: t.string, from: t.string, text: t.string, at: t.number }), presence: t.type({ room: t.string, users: t.array(t.string) }) }
const emitsZod = { message: z.object({ room: z.string(), from: z.string(), text: z.string(), at: z.number() }), presence: z.object({ room: z.string(), users: z.array(z.string()) }) }
const emitsValibot = { message: v.object({ room: v.string(), from: v.string(), text: v.string(), at: v.number() }), presence: v.object({ room: v.string(), users: v.array(v.string()) }) }

for (const [library, table, emits] of [
  ['io-ts', ioTs(), emitsIoTs],
  ['zod', zod(), emitsZod],
  ['valibot', valibot(), emitsValibot],
] as const) {
  test(`openApi :: ${library}: the realistic table's document has no error or warning from @readme/openapi-parser, and nothing undescribed`, async () => {
    const doc = openApi(table, info, { servers: [{ url: 'https://rooms.example.com' }], jsonSchemaOf })
    assert.equal(await openApiProblems(doc), [])
    assert.not.match(JSON.stringify(doc), /not described/)
  })

  test(`asyncApi :: ${library}: the realistic table's document has no error or warning from @asyncapi/parser, and nothing undescribed`, async () => {
    const doc = asyncApi(table, info, { address: '/ws', emits, jsonSchemaOf })
    assert.equal(await asyncApiProblems(parser, doc), [])
    assert.not.match(JSON.stringify(doc), /not described/)
  })
}

test('openApi :: Valibot with its converter describes the realistic table as io-ts and Zod do', () => {
  const fromIoTs = openApi(ioTs(), info)
  const fromValibot = openApi(valibot(), info, { jsonSchemaOf })
  assert.equal(Object.keys(fromValibot['paths'] as object), Object.keys(fromIoTs['paths'] as object))
  const parameters = (doc: object, pointer: string): unknown =>
    (resolvePointer(doc, pointer) as { name: string; in: string; required: boolean }[]).map(({ name, in: where, required }) => ({ name, where, required }))
  for (const pointer of ['#/paths/~1api~1v1~1rooms/get/parameters', '#/paths/~1api~1v1~1rooms~1{roomId}~1members~1{userId}/patch/parameters']) {
    assert.equal(parameters(fromValibot, pointer), parameters(fromIoTs, pointer), pointer)
  }
  assert.equal(resolvePointer(fromValibot, '#/paths/~1api~1v1~1rooms~1{roomId}/get/parameters/0/schema'), { type: 'string', format: 'uuid' })
  assert.equal(resolvePointer(fromValibot, '#/paths/~1api~1v1~1rooms/post/requestBody/content/application~1json/schema'), {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1 }, topic: { type: 'string' }, private: { type: 'boolean' } },
    required: ['name'],
  })
  assert.equal(resolvePointer(fromValibot, '#/paths/~1api~1v1~1rooms/post/responses/201/content/application~1json/schema/required'), ['id', 'name', 'topic', 'members'])
  const at = resolvePointer(fromValibot, '#/paths/~1api~1v1~1rooms~1{roomId}~1messages/post/requestBody/content/application~1json/schema/properties/at')
  // Valibot's `tuple` drops extra items rather than refusing them: no `maxItems` (its `strictTuple` has one).
  assert.equal(at, { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2 })
})

test('asyncApi :: Valibot with its converter gives draft-07 payloads; without it, `{}` with a note', () => {
  const say = '#/components/messages/chat_say/payload/properties/data'
  assert.equal(resolvePointer(asyncApi(valibot(), info, { jsonSchemaOf }), say), {
    type: 'object',
    properties: { room: { type: 'string' }, text: { type: 'string', maxLength: 2000 }, mentions: { type: 'array', items: { type: 'string' } } },
    required: ['room', 'text'],
  })
  const bare = asyncApi(valibot(), info)
  assert.equal(resolvePointer(bare, say), { description: 'not described: a valibot schema without ~standard.jsonSchema' })
  assert.ok((bare['x-twinport-notes'] as string[]).length > 0)
})

test('openApi :: a converter that does not know a schema, or throws, leaves `{}` with a note', () => {
  const table = routes(httpRoute('POST', '/a', { body: v.object({ a: v.string() }) }, () => 1), httpRoute('POST', '/b', { body: v.object({ b: v.string() }) }, () => 1))
  const doc = openApi(table, info, {
    jsonSchemaOf: (schema) => {
      if ('b' in (schema as v.ObjectSchema<v.ObjectEntries, undefined>).entries) throw new Error('no')
      return undefined
    },
  })
  assert.equal(resolvePointer(doc, '#/paths/~1a/post/x-twinport-notes'), ['a valibot schema without ~standard.jsonSchema, which jsonSchemaOf did not convert'])
  assert.equal(resolvePointer(doc, '#/paths/~1b/post/x-twinport-notes'), ['a valibot schema that its library could not convert'])
})

test('openApi :: io-ts and Zod describe the realistic table alike where both can', () => {
  const fromIoTs = openApi(ioTs(), info)
  const fromZod = openApi(zod(), info)
  assert.equal(Object.keys(fromZod['paths'] as object), Object.keys(fromIoTs['paths'] as object))
  const parameters = (doc: object, pointer: string): unknown =>
    (resolvePointer(doc, pointer) as { name: string; in: string; required: boolean }[]).map(({ name, in: where, required }) => ({ name, where, required }))
  for (const pointer of ['#/paths/~1api~1v1~1rooms/get/parameters', '#/paths/~1api~1v1~1rooms~1{roomId}~1members~1{userId}/patch/parameters']) {
    assert.equal(parameters(fromZod, pointer), parameters(fromIoTs, pointer), pointer)
  }
  assert.equal(resolvePointer(fromZod, '#/paths/~1api~1v1~1rooms/post/responses/201/content/application~1json/schema/required'), ['id', 'name', 'topic', 'members'])
})

test('openApiProblems :: the validator does catch a broken document: against the OpenAPI schema, and by its rules', async () => {
  type Operations = Record<string, Record<string, Record<string, unknown>>>
  const doc = openApi(ioTs(), info) as unknown as { paths: Operations }
  const noDescription = structuredClone(doc)
  ;(noDescription.paths['/health']?.['get'] as Record<string, unknown>)['responses'] = { '200': { content: {} } }
  const [schemaError, ...more] = await openApiProblems(noDescription)
  assert.match(schemaError ?? '', /must have required property 'description'/)
  assert.equal(more, [])
  const twice = structuredClone(doc)
  const get = twice.paths['/api/v1/rooms/{roomId}']?.['get'] as Record<string, unknown>
  get['operationId'] = 'get_health'
  delete get['parameters']
  // Its rules run once the document fits the schema; their order is the validator's own.
  assert.equal((await openApiProblems(twice)).sort(), [
    'The operationId `get_health` is duplicated and must be made unique.',
    '`/paths/api/v1/rooms/{roomId}/get` is missing path parameter(s) for `{roomId}`.',
  ])
})

test('asyncApiProblems :: the parser does catch a broken document', async () => {
  const doc = structuredClone(asyncApi(ioTs(), info, { emits: emitsIoTs })) as unknown as {
    operations: Record<string, Record<string, unknown>>
    channels: Record<string, unknown>
  }
  ;(doc.operations['receive_join'] as Record<string, unknown>)['action'] = 'publish'
  ;(doc.operations['send_message'] as Record<string, unknown>)['messages'] = [{ $ref: '#/components/messages/message' }]
  doc.channels['other'] = { address: '/other', messages: { nothing: { $ref: '#/components/messages/none' } } }
  const problems = await asyncApiProblems(parser, doc)
  const text = problems.join('\n')
  assert.match(text, /receive_join\/action/)
  assert.match(text, /none/)
  assert.match(text, /send_message/)
})

test.run()
