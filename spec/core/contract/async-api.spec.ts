import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as t from 'io-ts'
import { asyncApi } from '../../../lib/core/contract/async-api.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { onConnect } from '../../../lib/core/route/on-connect.js'
import { routes } from '../../../lib/core/route/routes.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'
import * as mini from '../../support/mini-schema.js'
import { AsyncApiParser, asyncApiProblems } from '../../support/validate-documents.js'
import { resolvePointer } from './resolve-pointer.js'
import { Tree } from './tree-schema.js'

const parser = new AsyncApiParser()

const table = routes(
  onConnect(() => undefined),
  httpRoute('GET', '/x', () => 1),
  socketOn('join', t.type({ room: t.string }), () => 1),
  socketOn('chat:message', mini.object({ text: mini.string() }), () => 1),
  socketOn('ping', () => 'pong'),
)
const doc = asyncApi(table, { title: 'Chat', version: '2.0.0', description: 'rooms' }, { address: '/ws', emits: { message: t.type({ from: t.number, text: t.string }), error: t.string } })

test('asyncApi :: a document the AsyncAPI parser accepts', async () => {
  assert.equal(await asyncApiProblems(parser, doc), [])
  assert.is(doc.asyncapi, '3.0.0')
  assert.equal(doc['info'], { title: 'Chat', version: '2.0.0', description: 'rooms' })
  assert.is(resolvePointer(doc, '#/channels/events/address'), '/ws')
  assert.equal(Object.keys(resolvePointer(doc, '#/channels/events/messages') as object), ['ack', 'error', 'join', 'chat_message', 'ping', 'message', 'error_2'])
})

test('asyncApi :: each socketOn event is the envelope with its data schema, received and answered with the ack', () => {
  assert.equal(resolvePointer(doc, '#/components/messages/join/payload'), {
    type: 'object',
    properties: { event: { const: 'join' }, data: { type: 'object', properties: { room: { type: 'string' } }, required: ['room'] }, id: { type: ['string', 'number'] } },
    required: ['event'],
  })
  assert.is(resolvePointer(doc, '#/components/messages/chat_message/name'), 'chat:message')
  assert.equal(resolvePointer(doc, '#/components/messages/ping/payload/properties/data'), {})
  assert.equal(resolvePointer(doc, '#/operations/receive_join'), {
    action: 'receive',
    channel: { $ref: '#/channels/events' },
    messages: [{ $ref: '#/channels/events/messages/join' }],
    reply: { channel: { $ref: '#/channels/events' }, messages: [{ $ref: '#/channels/events/messages/ack' }] },
  })
})

test('asyncApi :: declared server events and the error event are sent', () => {
  assert.equal(resolvePointer(doc, '#/operations/send_message/action'), 'send')
  assert.equal(resolvePointer(doc, '#/components/messages/message/payload/required'), ['event'])
  assert.equal(resolvePointer(doc, '#/operations/send_error/messages'), [{ $ref: '#/channels/events/messages/error' }])
  assert.equal(resolvePointer(doc, '#/components/messages/error/payload/properties/data/properties/error/enum'), [
    'invalid_json',
    'invalid_message',
    'unknown_event',
    'invalid_payload',
    'handler_error',
  ])
  assert.is(resolvePointer(doc, '#/components/messages/error_2/name'), 'error')
})

test('asyncApi :: defaults: address /, no notes when all was described; a note otherwise', async () => {
  const plain = asyncApi([socketOn('a', () => 1)], { title: 't', version: '1' })
  assert.is(resolvePointer(plain, '#/channels/events/address'), '/')
  assert.is(plain['x-twinport-notes'], undefined)
  const noted = asyncApi([socketOn('a', mini.string(false), () => 1)], { title: 't', version: '1' })
  assert.equal(noted['x-twinport-notes'], ['a mini schema without ~standard.jsonSchema'])
  assert.equal(await asyncApiProblems(parser, noted), [])
})

test('asyncApi :: payloads in draft-07 (tuples as an items array); a schema that refers to itself gets a place in components', async () => {
  const shaped = asyncApi([socketOn('move', t.tuple([t.number, t.number]), () => 1), socketOn('tree:put', Tree, () => 1)], { title: 't', version: '1' }, { emits: { tree: Tree } })
  assert.equal(await asyncApiProblems(parser, shaped), [])
  assert.equal(resolvePointer(shaped, '#/components/messages/move/payload/properties/data'), {
    type: 'array',
    items: [{ type: 'number' }, { type: 'number' }],
    minItems: 2,
    maxItems: 2,
  })
  assert.equal(resolvePointer(shaped, '#/components/messages/tree_put/payload/properties/data'), { $ref: '#/components/schemas/tree_put_data' })
  assert.equal(resolvePointer(shaped, '#/components/messages/tree/payload/properties/data'), { $ref: '#/components/schemas/tree_data' })
  assert.equal(resolvePointer(shaped, '#/components/schemas/tree_put_data/properties/children/items'), { $ref: '#/components/schemas/tree_put_data' })
})

test.run()
