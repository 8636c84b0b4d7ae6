import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as t from 'io-ts'
import { asyncApi } from '../../../lib/core/contract/async-api.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { onConnect } from '../../../lib/core/route/on-connect.js'
import { routes } from '../../../lib/core/route/routes.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'
import * as mini from '../../support/mini-schema.js'
import { checkAsyncApi, resolvePointer } from './check-documents.js'

const table = routes(
  onConnect(() => undefined),
  httpRoute('GET', '/x', () => 1),
  socketOn('join', t.type({ room: t.string }), () => 1),
  socketOn('chat:message', mini.object({ text: mini.string() }), () => 1),
  socketOn('ping', () => 'pong'),
)
const doc = asyncApi(table, { title: 'Chat', version: '2.0.0', description: 'rooms' }, { address: '/ws', emits: { message: t.type({ from: t.number, text: t.string }), error: t.string } })

test('asyncApi :: a document the structural check accepts', () => {
  assert.equal(checkAsyncApi(doc), [])
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

test('asyncApi :: defaults: address /, no notes when all was described; a note otherwise', () => {
  const plain = asyncApi([socketOn('a', () => 1)], { title: 't', version: '1' })
  assert.is(resolvePointer(plain, '#/channels/events/address'), '/')
  assert.is(plain['x-twinport-notes'], undefined)
  const noted = asyncApi([socketOn('a', mini.string(false), () => 1)], { title: 't', version: '1' })
  assert.equal(noted['x-twinport-notes'], ['a mini schema without ~standard.jsonSchema'])
  assert.equal(checkAsyncApi(noted), [])
})

test('checkAsyncApi :: finds what is wrong in made-up documents', () => {
  const broken = {
    asyncapi: '2.6.0',
    info: { title: 't', version: '1' },
    channels: { 'a b': { address: 1, messages: { m: { $ref: '#/components/messages/none' } } }, other: { messages: {} } },
    operations: { o: { action: 'publish', channel: { $ref: '#/channels/other' }, messages: [{ $ref: '#/channels/a b/messages/m' }] } },
  }
  assert.equal(checkAsyncApi(broken), [
    '#/channels/a b/messages/m: $ref #/components/messages/none does not resolve',
    'asyncapi must be 3.0.0',
    'channel key a b',
    'a b: address',
    'a b/m: a message needs a payload',
    'o: action must be send or receive',
    'o: message #/channels/a b/messages/m is not of #/channels/other',
  ])
})

test.run()
