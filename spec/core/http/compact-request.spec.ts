import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { compactRequest } from '../../../lib/core/http/compact-request.js'
import type { Header, HttpRequest } from '../../../lib/core/http/types.js'

const upgrade: HttpRequest = {
  method: 'GET',
  target: '/chat?room=a',
  path: '/chat',
  rawQuery: 'room=a',
  protocol: 'HTTP/1.1',
  headers: [['Host', 'example.com:8080'], ['Upgrade', 'websocket'], ['Cookie', 'a=1'], ['cookie', 'b=2'], ['X-Empty', '']],
  trailers: [],
  body: new Uint8Array(0),
  keepAlive: true,
  expectContinue: false,
}

const plain = (r: HttpRequest): HttpRequest => ({
  method: r.method, target: r.target, path: r.path, rawQuery: r.rawQuery, protocol: r.protocol,
  headers: r.headers, trailers: r.trailers, body: r.body, keepAlive: r.keepAlive, expectContinue: r.expectContinue,
})

test('compactRequest :: every field and every header line, in order, repeated names and empty values kept', () => {
  const kept = compactRequest(upgrade)
  assert.equal(plain(kept), upgrade)
  assert.is(kept.headers, kept.headers, 'the pairs are rebuilt once, then kept')
})

test('compactRequest :: no headers, a body and trailers are kept as given', () => {
  const body = new Uint8Array([1, 2, 3])
  const trailers: readonly Header[] = [['X-Sum', 'abc']]
  const kept = compactRequest({ ...upgrade, headers: [], body, trailers })
  assert.equal(kept.headers, [])
  assert.is(kept.body, body)
  assert.is(kept.trailers, trailers)
})

test('compactRequest :: compacting twice gives the same value; JSON carries the headers', () => {
  const kept = compactRequest(upgrade)
  assert.is(compactRequest(kept), kept)
  const json = JSON.parse(JSON.stringify(kept)) as { headers: unknown; path: unknown }
  assert.equal([json.headers, json.path], [upgrade.headers.map((h) => [...h]), '/chat'])
})

test('compactRequest :: the usual names and values come back in the case they came in', () => {
  const headers: readonly Header[] = [['host', 'a'], ['Host', 'b'], ['upgrade', 'WebSocket'], ['Connection', 'upgrade'], ['sec-websocket-version', '13'], ['Origin', 'websocket']]
  assert.equal(compactRequest({ ...upgrade, headers }).headers, headers)
})

test('compactRequest :: a request built by hand with a line feed or a lone control character keeps its pairs', () => {
  for (const headers of [[['X-A', 'one\ntwo']], [['X-A', '\u0001']], [['\u0002', 'v']], [['X-A', '\t']]] as const) {
    const kept = compactRequest({ ...upgrade, headers })
    assert.equal(kept.headers, headers)
  }
})

test('compactRequest :: the request line and its facts read back from the packed string, before and after the headers are read', () => {
  const cases: readonly HttpRequest[] = [
    { ...upgrade, protocol: 'HTTP/1.0', keepAlive: false, expectContinue: true },
    { ...upgrade, method: 'M-SEARCH', target: '/', path: '/', rawQuery: '', headers: [] },
    { ...upgrade, target: '/a?b?c=%20', path: '/a', rawQuery: 'b?c=%20' },
    { ...upgrade, target: 'http://h.test/p?q', path: '/p', rawQuery: 'q' },
    { ...upgrade, target: '/x?', path: '/x', rawQuery: '' },
  ]
  for (const request of cases) {
    const kept = compactRequest(request)
    const { headers: _, ...line } = plain(request)
    const { headers: __, ...before } = plain(kept)
    assert.equal(before, line, 'read from the string')
    assert.equal(plain(kept), request)
    assert.equal(plain(kept), request, 'read from the record the headers made')
  }
})

test('compactRequest :: a query that is not the target\'s, or a line feed in the target, keeps the request as given', () => {
  for (const request of [{ ...upgrade, rawQuery: 'other' }, { ...upgrade, target: '/a\nb' }]) assert.equal(plain(compactRequest(request)), request)
})

test.run()
