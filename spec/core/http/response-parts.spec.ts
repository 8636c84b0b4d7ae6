import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { responseParts } from '../../../lib/core/http/response-parts.js'
import { json, noContent, response, text } from '../../../lib/core/http/response.js'
import { stream } from '../../../lib/core/http/stream-response.js'

const bytesOf = (s: string): Uint8Array => new TextEncoder().encode(s)

test('responseParts :: text: Content-Type and Content-Length derived, framing headers of the app dropped', () => {
  const parts = responseParts(response('hé', 201, { 'X-A': '1', 'Content-Length': '99', Connection: 'close', 'Transfer-Encoding': 'chunked' }), false)
  assert.is(parts.status, 201)
  assert.equal(parts.headers, [['Content-Type', 'text/plain; charset=utf-8'], ['Content-Length', '3'], ['X-A', '1']])
  assert.equal(parts.body, bytesOf('hé'))
})

test('responseParts :: JSON data as its text; bytes as they are; no body: none sent, length 0', () => {
  assert.equal(responseParts(json({ a: 1 }), false).body, bytesOf('{"a":1}'))
  const bytes = new Uint8Array([1, 2])
  assert.is(responseParts(response(bytes), false).body, bytes)
  const empty = responseParts(response(null), false)
  assert.equal([empty.body, empty.headers.find(([n]) => n === 'Content-Length')], [undefined, ['Content-Length', '0']])
})

test('responseParts :: HEAD keeps the headers of GET and sends no body; 204 has neither type nor length', () => {
  const head = responseParts(text('hi'), true)
  assert.equal([head.body, head.headers], [undefined, [['Content-Type', 'text/plain; charset=utf-8'], ['Content-Length', '2']]])
  assert.equal(responseParts(noContent(), false), { status: 204, headers: [], body: undefined })
})

test('responseParts :: a status outside 100-599 is sent as 500', () => {
  assert.is(responseParts(response('x', 42), false).status, 500)
})

test('responseParts :: a body JSON cannot encode: 500 unserializable_body, with the reason', () => {
  const cycle: Record<string, unknown> = {}
  cycle['self'] = cycle
  const parts = responseParts(json(cycle as never), false)
  assert.is(parts.status, 500)
  assert.equal(parts.body, bytesOf('{"error":"unserializable_body"}'))
  assert.ok(parts.unserializable instanceof TypeError)
  assert.instance(responseParts(json((() => 1) as never), false).unserializable, TypeError)
})

test('responseParts :: a streamed body is given to pump, its length announced when known; unsent under HEAD', async () => {
  async function* pieces(): AsyncGenerator<string> {
    yield 'a'
  }
  const unknown = responseParts(stream(pieces()), false)
  assert.equal(unknown.headers, [['Content-Type', 'application/octet-stream']])
  assert.ok(unknown.body !== undefined && !(unknown.body instanceof Uint8Array))
  const known = responseParts(stream(pieces(), { length: 1 }), false)
  assert.equal(known.headers[1], ['Content-Length', '1'])
  const head = responseParts(stream(pieces()), true)
  assert.equal([head.body, head.unsent !== undefined], [undefined, true])
})

test.run()
