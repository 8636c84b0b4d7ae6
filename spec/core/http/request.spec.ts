import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { makeRequest } from '../../../lib/core/http/request.js'
import {
  all, getBody, getData, getHeader, getHeaders, getMethod, getParam, getParams, getPath, getProtocol, getQuery, getQueryParam, getUrl,
  hasHeader, hasInvalidBody, hasParam, hasQueryParam, input, isAjax, isJson, isMethod, readBody, readJsonBody,
} from '../../../lib/core/http/request-accessors.js'
import type { Header, HttpRequest } from '../../../lib/core/http/types.js'
import { parseQuery } from '../../../lib/core/http/parse-query.js'
import { percentDecode } from '../../../lib/core/http/percent-decode.js'
import { headerValue } from '../../../lib/core/http/header-value.js'

const http = (over: Partial<HttpRequest> & { readonly bodyText?: string } = {}): HttpRequest => ({
  method: 'POST',
  target: '/users/a%20b?x=1&x=2&q=a+b',
  path: '/users/a%20b',
  rawQuery: 'x=1&x=2&q=a+b',
  protocol: 'HTTP/1.1',
  headers: [['Host', 'example.com'], ['Content-Type', 'application/json; charset=utf-8'], ['Accept', 'a'], ['accept', 'b']],
  trailers: [],
  body: new TextEncoder().encode(over.bodyText ?? '{"name":"ann","x":"body"}'),
  keepAlive: true,
  expectContinue: false,
  ...over,
})

test('makeRequest :: decodes path and query, keeps headers and params', () => {
  const req = makeRequest(http(), { id: '7' })
  assert.equal([getMethod(req), getPath(req), getProtocol(req)], ['POST', '/users/a b', 'HTTP/1.1'])
  assert.equal(getQuery(req), { x: ['1', '2'], q: 'a b' })
  assert.equal(getParams(req), { id: '7' })
  assert.is(getHeader(req, 'ACCEPT'), 'a, b')
  assert.is(getHeader(req, 'nope'), undefined)
  assert.ok(hasHeader(req, 'host'))
  assert.not.ok(hasHeader(req, 'origin'))
  assert.equal(getHeaders(req), { host: 'example.com', 'content-type': 'application/json; charset=utf-8', accept: 'a, b' })
})

test('accessors :: query and params with defaults', () => {
  const req = makeRequest(http(), { id: '7' })
  assert.equal(getQueryParam(req, 'x'), ['1', '2'])
  assert.is(getQueryParam(req, 'none'), undefined)
  assert.is(getQueryParam(req, 'none', 'd'), 'd')
  assert.ok(hasQueryParam(req, 'q'))
  assert.not.ok(hasQueryParam(req, 'toString'))
  assert.is(getParam(req, 'id'), '7')
  assert.is(getParam(req, 'other', 'dflt'), 'dflt')
  assert.ok(hasParam(req, 'id'))
  assert.not.ok(hasParam(req, 'other'))
})

test('body :: JSON parsed; all and input read body, then query, then params', () => {
  const req = makeRequest(http(), { id: '7', name: 'param' })
  assert.equal(getBody(req), { name: 'ann', x: 'body' })
  assert.equal(all(req), { id: '7', name: 'ann', x: 'body', q: 'a b' })
  assert.is(input(req, 'name'), 'ann')
  assert.is(input(req, 'q'), 'a b')
  assert.is(input(req, 'id'), '7')
  assert.is(input(req, 'none', 5), 5)
  assert.is(getData(req, 'x'), 'body')
  assert.is(getData(req, 'q'), 'a b')
  assert.is(getData(req, 'id', 'd'), 'd')
  assert.equal(getData(req), all(req))
  assert.ok(isJson(req))
  assert.equal(readJsonBody(req), { _tag: 'Right', right: { name: 'ann', x: 'body' } })
})

test('body :: invalid JSON is InvalidJson 400 when read, undefined from getBody', () => {
  const req = makeRequest(http({ bodyText: '{nope' }), {})
  assert.is(getBody(req), undefined)
  assert.ok(hasInvalidBody(req))
  const r = readBody(req)
  assert.ok(r._tag === 'Left' && r.left._tag === 'InvalidJson' && r.left.status === 400 && r.left.reason === 'invalid_json')
  const j = readJsonBody(req)
  assert.ok(j._tag === 'Left' && j.left.status === 400)
  const bad = makeRequest(http({ body: new Uint8Array([0x22, 0xff, 0x22]) }), {})
  assert.is(readBody(bad)._tag, 'Left')
})

test('body :: urlencoded form to a record, text otherwise, empty is undefined', () => {
  const form = makeRequest(http({ headers: [['Content-Type', 'application/x-www-form-urlencoded']], bodyText: 'a=1&a=2&b=%C3%A9' }), {})
  assert.equal(getBody(form), { a: ['1', '2'], b: '\u00e9' })
  assert.not.ok(isJson(form))
  const plain = makeRequest(http({ headers: [], bodyText: '{"a":1}' }), {})
  assert.is(getBody(plain), '{"a":1}')
  assert.equal(readJsonBody(plain), { _tag: 'Left', left: { _tag: 'UnsupportedMediaType', status: 415, reason: 'unsupported_media_type', contentType: '' } })
  assert.equal(all(plain), { x: ['1', '2'], q: 'a b' })
  const empty = makeRequest(http({ bodyText: '' }), {})
  assert.is(getBody(empty), undefined)
  assert.is(readJsonBody(empty)._tag, 'Left')
  assert.ok(isJson(makeRequest(http({ headers: [['content-type', 'application/vnd.api+json']] }), {})))
})

test('isAjax / isMethod', () => {
  assert.ok(isAjax(makeRequest(http({ headers: [['X-Requested-With', 'xmlhttprequest']] }), {})))
  assert.not.ok(isAjax(makeRequest(http(), {})))
  assert.ok(isMethod(makeRequest(http(), {}), 'post'))
  assert.not.ok(isMethod(makeRequest(http(), {}), 'GET'))
})

test('getUrl :: scheme and host from the request, path alone when unknown', () => {
  assert.is(getUrl(makeRequest(http(), {})), 'http://example.com/users/a%20b')
  assert.is(getUrl(makeRequest(http(), {}), true), 'http://example.com/users/a%20b?x=1&x=2&q=a+b')
  assert.is(getUrl(makeRequest(http({ headers: [] }), {}), true), '/users/a%20b?x=1&x=2&q=a+b')
  assert.is(getUrl(makeRequest(http({ target: 'https://h.io:8443/p?z', path: '/p', rawQuery: 'z' }), {}), true), 'https://h.io:8443/p?z')
  assert.is(getUrl(makeRequest(http({ target: 'http://h.io', path: '/', rawQuery: '' }), {}), true), 'http://h.io/')
  assert.is(getUrl(makeRequest(http({ target: 'http://h.io?a', path: '/', rawQuery: 'a' }), {}), false), 'http://h.io/')
})

test('parseQuery / percentDecode :: never throw, keep repeats, __proto__ is plain data', () => {
  assert.equal(parseQuery(''), {})
  assert.equal(parseQuery('a&&b=&c=%zz&a=2&a=3'), { a: ['', '2', '3'], b: '', c: '%zz' })
  const q = parseQuery('__proto__=x')
  assert.is(Object.getPrototypeOf(q), Object.prototype)
  assert.is(q.__proto__, 'x')
  assert.is(percentDecode('a+b'), 'a+b')
  assert.is(percentDecode('%E0%A4%A'), '%E0%A4%A')
})

test('headerValue :: case-insensitive, joined', () => {
  const hs: Header[] = [['A', '1'], ['b', '2'], ['a', '3']]
  assert.is(headerValue(hs, 'a'), '1, 3')
  assert.is(headerValue(hs, 'c'), undefined)
})

test.run()
