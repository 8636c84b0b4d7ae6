import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as t from 'io-ts'
import { openApi } from '../../../lib/core/contract/open-api.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { mount } from '../../../lib/core/route/mount.js'
import { intParam } from '../../../lib/core/route/param-codecs.js'
import { routes } from '../../../lib/core/route/routes.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'
import * as mini from '../../support/mini-schema.js'
import { openApiProblems } from '../../support/validate-documents.js'
import { resolvePointer } from './resolve-pointer.js'
import { Tree } from './tree-schema.js'

const table = routes(
  socketOn('ignored', () => 1),
  httpRoute('GET', '/health', () => ({ ok: true })),
  mount(
    '/api',
    routes(
      httpRoute('GET', '/users/{id}', { params: t.type({ id: intParam }), query: t.partial({ fields: t.string }), headers: t.type({ 'x-api-key': t.string }) }, () => 1),
      httpRoute('POST', '/users/{id}/notes', { body: t.type({ text: t.string }), bodyTypes: ['json', 'form'] }, () => 1),
      httpRoute('PUT', '/files/{name}', { body: 'stream' }, () => 1),
      httpRoute('POST', '/mini', { body: mini.object({ n: mini.number() }) }, () => 1),
      httpRoute('PURGE', '/cache', () => 1),
    ),
  ),
)
const doc = openApi(table, { title: 'Test', version: '1.2.3' }, { servers: [{ url: 'http://127.0.0.1:6001' }] })

test('openApi :: a document the OpenAPI validator accepts', async () => {
  assert.equal(await openApiProblems(doc), [])
  assert.is(doc.openapi, '3.1.0')
  assert.equal(doc['info'], { title: 'Test', version: '1.2.3' })
  assert.equal(doc['servers'], [{ url: 'http://127.0.0.1:6001' }])
  assert.equal(Object.keys(doc['paths'] as object), ['/health', '/api/users/{id}', '/api/users/{id}/notes', '/api/files/{name}', '/api/mini'])
})

test('openApi :: params, query and headers from the schemas; a path param without one is a string', () => {
  const get = resolvePointer(doc, '#/paths/~1api~1users~1{id}/get') as Record<string, unknown>
  assert.equal(get['parameters'], [
    { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
    { name: 'fields', in: 'query', required: false, schema: { type: 'string' } },
    { name: 'x-api-key', in: 'header', required: true, schema: { type: 'string' } },
  ])
  assert.equal(get['responses'], { default: { description: "The handler's answer" }, '422': { $ref: '#/components/responses/InvalidInput' } })
  assert.is(get['operationId'], 'get_api_users_id')
  const post = resolvePointer(doc, '#/paths/~1api~1users~1{id}~1notes/post') as Record<string, unknown>
  assert.equal((post['parameters'] as unknown[])[0], { name: 'id', in: 'path', required: true, schema: { type: 'string' } })
})

test('openApi :: request bodies per media type, 400/415/422 answers; a streamed body is octet-stream', () => {
  const post = resolvePointer(doc, '#/paths/~1api~1users~1{id}~1notes/post') as Record<string, unknown>
  const body = { schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }
  assert.equal(post['requestBody'], { required: true, content: { 'application/json': body, 'application/x-www-form-urlencoded': body } })
  assert.equal(Object.keys(post['responses'] as object).sort(), ['400', '415', '422', 'default'])
  const put = resolvePointer(doc, '#/paths/~1api~1files~1{name}/put') as Record<string, unknown>
  assert.equal(put['requestBody'], { content: { 'application/octet-stream': { schema: {} } } })
  const viaMini = resolvePointer(doc, '#/paths/~1api~1mini/post/requestBody/content/application~1json/schema')
  assert.equal(viaMini, { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] })
})

test('openApi :: a method OpenAPI cannot hold is left out; notes say what a schema could not', async () => {
  assert.is(resolvePointer(doc, '#/paths/~1api~1cache'), undefined)
  const noted = openApi([httpRoute('POST', '/x', { body: mini.string(false) }, () => 1)], { title: 'n', version: '1' })
  assert.equal(resolvePointer(noted, '#/paths/~1x/post/x-twinport-notes'), ['a mini schema without ~standard.jsonSchema'])
  assert.equal(await openApiProblems(noted), [])
})

test('openApi :: declared responses replace default, beside the input answers', async () => {
  const declared = openApi(
    [httpRoute('GET', '/u/{id}', { params: t.type({ id: intParam }), responses: { 200: t.type({ id: t.number }), 404: t.type({ error: t.string }) } }, () => ({ id: 1 }))],
    { title: 'r', version: '1' },
  )
  assert.equal(await openApiProblems(declared), [])
  assert.equal(resolvePointer(declared, '#/paths/~1u~1{id}/get/responses'), {
    '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] } } } },
    '404': { description: 'Not Found', content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } } } },
    '422': { $ref: '#/components/responses/InvalidInput' },
  })
})

test('openApi :: operation ids unique, rest params as one template with a note, one trailing slash dropped', async () => {
  const odd = openApi(
    [httpRoute('POST', '/a-b', () => 1), httpRoute('POST', '/a_b', () => 1), httpRoute('GET', '/files/{*path}', () => 1), httpRoute('GET', '/users/', () => 1)],
    { title: 'odd', version: '1' },
  )
  assert.equal(await openApiProblems(odd), [])
  assert.equal(Object.keys(odd['paths'] as object), ['/a-b', '/a_b', '/files/{path}', '/users'])
  assert.is(resolvePointer(odd, '#/paths/~1a-b/post/operationId'), 'post_a_b')
  assert.is(resolvePointer(odd, '#/paths/~1a_b/post/operationId'), 'post_a_b_2')
  const files = resolvePointer(odd, '#/paths/~1files~1{path}/get') as Record<string, unknown>
  assert.equal(files['parameters'], [
    { name: 'path', in: 'path', required: true, description: 'The rest of the path: zero or more segments, slashes included', schema: { type: 'string' } },
  ])
  assert.equal(files['x-twinport-notes'], ['{*path} takes the rest of the path, slashes included, and may be empty: more than an OpenAPI path template says'])
})

test('openApi :: query and header parameters from an intersection; a non-object schema and ignored header names are noted', async () => {
  const mixed = openApi(
    [
      httpRoute('GET', '/q', { query: t.intersection([t.type({ a: t.string }), t.partial({ b: intParam })]), headers: t.type({ authorization: t.string }) }, () => 1),
      httpRoute('GET', '/s', { query: t.union([t.type({ a: t.string }), t.type({ b: t.string })]) }, () => 1),
    ],
    { title: 'q', version: '1' },
  )
  assert.equal(await openApiProblems(mixed), [])
  assert.equal(resolvePointer(mixed, '#/paths/~1q/get/parameters'), [
    { name: 'a', in: 'query', required: true, schema: { type: 'string' } },
    { name: 'b', in: 'query', required: false, schema: { type: 'integer' } },
    { name: 'authorization', in: 'header', required: true, schema: { type: 'string' } },
  ])
  assert.equal(resolvePointer(mixed, '#/paths/~1q/get/x-twinport-notes'), ['OpenAPI tools ignore a header parameter named authorization'])
  assert.is(resolvePointer(mixed, '#/paths/~1s/get/parameters'), undefined)
  assert.equal(resolvePointer(mixed, '#/paths/~1s/get/x-twinport-notes'), ['the query schema is not an object: no query parameters listed'])
})

test('openApi :: a schema that refers to itself gets a place in components, its $refs pointing there', async () => {
  const tree = openApi([httpRoute('POST', '/trees', { body: Tree, responses: { 201: Tree } }, () => 1)], { title: 'tree', version: '1' })
  assert.equal(await openApiProblems(tree), [])
  assert.equal(resolvePointer(tree, '#/paths/~1trees/post/requestBody/content/application~1json/schema'), { $ref: '#/components/schemas/post_trees_body' })
  assert.equal(resolvePointer(tree, '#/paths/~1trees/post/responses/201/content/application~1json/schema'), { $ref: '#/components/schemas/post_trees_response_201' })
  assert.equal(resolvePointer(tree, '#/components/schemas/post_trees_body/properties/children/items'), { $ref: '#/components/schemas/post_trees_body' })
  // The error shapes stay beside them.
  assert.ok(resolvePointer(tree, '#/components/schemas/InvalidInput') !== undefined)
})

test.run()
