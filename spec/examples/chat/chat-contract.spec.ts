/**
 * The chat demo's documents: `GET /openapi.json` and `GET /asyncapi.json` answer the
 * OpenAPI 3.1 and AsyncAPI 3.0 documents of its own route table, which the real validators
 * accept and which name the demo's routes and events.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { AsyncApiParser, asyncApiProblems, openApiProblems } from '../../support/validate-documents.js'
import { chatUrl, startTestChat } from './chat-client.js'

const fetchJson = async (url: string): Promise<{ status: number; type: string | null; body: Record<string, unknown> }> => {
  const res = await fetch(url)
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, unknown> }
}

test('GET /openapi.json :: the HTTP routes of the chat, a document @readme/openapi-parser accepts', async () => {
  const chat = await startTestChat()
  try {
    const { status, type, body } = await fetchJson(`${chatUrl(chat)}/openapi.json`)
    assert.is(status, 200)
    assert.match(type ?? '', /^application\/json/)
    assert.equal(await openApiProblems(body), [])
    assert.is(body['openapi'], '3.1.0')
    assert.is((body['info'] as { title: string }).title, 'twinport chat demo')
    const paths = body['paths'] as Record<string, Record<string, { responses: Record<string, unknown> }>>
    assert.equal(Object.keys(paths), ['/api/rooms', '/api/rooms/{room}/messages', '/events', '/openapi.json', '/asyncapi.json', '/{path}'])
    assert.equal(Object.keys(paths['/events'] ?? {}), ['get', 'post'])
    assert.equal(Object.keys(paths['/api/rooms/{room}/messages']?.['post']?.responses ?? {}), ['201', '400', '403', '404', '415', '422'])
    // Asked again: the same document (made once).
    assert.equal((await fetchJson(`${chatUrl(chat)}/openapi.json`)).body, body)
  } finally {
    await chat.close()
  }
})

test('GET /asyncapi.json :: the WebSocket events of the chat, a document @asyncapi/parser accepts', async () => {
  const chat = await startTestChat()
  try {
    const { status, type, body } = await fetchJson(`${chatUrl(chat)}/asyncapi.json`)
    assert.is(status, 200)
    assert.match(type ?? '', /^application\/json/)
    assert.equal(await asyncApiProblems(new AsyncApiParser(), body), [])
    assert.is(body['asyncapi'], '3.0.0')
    const operations = body['operations'] as Record<string, { action: string; messages: { $ref: string }[] }>
    const events = (action: string): string[] =>
      Object.values(operations)
        .filter((op) => op.action === action)
        .map((op) => {
          const key = op.messages[0]?.$ref.split('/').pop() ?? ''
          return ((body['components'] as { messages: Record<string, { name: string }> }).messages[key] as { name: string }).name
        })
    assert.equal(events('receive'), ['hello', 'join', 'leave', 'message'])
    assert.equal(events('send'), ['joined', 'left', 'renamed', 'message', 'rooms', 'error'])
    const hello = (body['components'] as { messages: Record<string, { payload: { properties: { data: unknown } } }> }).messages['hello']
    assert.equal(hello?.payload.properties.data, {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, pattern: '\\S', description: '1-32 characters once trimmed, one line (no control characters)' },
        resume: { type: 'string', minLength: 1, pattern: '\\S', description: '1-64 characters once trimmed, one line (no control characters)' },
      },
      required: ['name'],
    })
    assert.is(body['x-twinport-notes'], undefined)
  } finally {
    await chat.close()
  }
})

test.run()
