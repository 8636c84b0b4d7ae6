/**
 * `readJsonBody` by content type: JSON types are read (400 when the body is not JSON), any
 * other type or none is 415; the answer `httpErrorResponse` gives each; and `getHeader` /
 * `hasHeader` on what middleware and `ctx.request` hold as well as on a route's request.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { invalidJson, unsupportedMediaType } from '../../../lib/core/http/http-error.js'
import { httpErrorResponse } from '../../../lib/core/http/http-error-response.js'
import { getBodyString } from '../../../lib/core/http/read-response.js'
import { makeRequest } from '../../../lib/core/http/request.js'
import { compactRequest } from '../../../lib/core/http/compact-request.js'
import { getHeader, hasHeader, readJsonBody } from '../../../lib/core/http/request-accessors.js'
import type { HttpRequest } from '../../../lib/core/http/types.js'

// A POST with `contentType` (none when undefined) and the body given as hex.
const post = (contentType: string | undefined, bodyHex: string): ReturnType<typeof makeRequest> => {
  const body = Uint8Array.from((bodyHex.match(/../g) ?? []).map((b) => parseInt(b, 16)))
  const http: HttpRequest = {
    method: 'POST',
    target: '/users',
    path: '/users',
    rawQuery: '',
    protocol: 'HTTP/1.1',
    headers: contentType === undefined ? [['Host', 'a']] : [['Host', 'a'], ['Content-Type', contentType]],
    trailers: [],
    body,
    keepAlive: true,
    expectContinue: false,
  }
  return makeRequest(http, {})
}

const hex = (text: string): string => [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('')
const OBJECT = hex('{"name":"ada"}') // 7b226e616d65223a22616461227d

test('readJsonBody :: reads an application/json body, parameters and case aside', () => {
  assert.is(OBJECT, '7b226e616d65223a22616461227d')
  for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/json ;charset="UTF-8"']) {
    assert.equal(readJsonBody(post(type, OBJECT)), { _tag: 'Right', right: { name: 'ada' } }, type)
  }
})

test('readJsonBody :: reads +json types (RFC 6839 §3.1)', () => {
  for (const type of ['application/vnd.api+json', 'application/problem+json', 'application/merge-patch+json; charset=utf-8']) {
    assert.equal(readJsonBody(post(type, hex('[1,2]'))), { _tag: 'Right', right: [1, 2] }, type)
  }
})

test('readJsonBody :: rejects a form body with UnsupportedMediaType 415', () => {
  const form = post('application/x-www-form-urlencoded', hex('name=ada'))
  assert.equal(readJsonBody(form), {
    _tag: 'Left',
    left: { _tag: 'UnsupportedMediaType', status: 415, reason: 'unsupported_media_type', contentType: 'application/x-www-form-urlencoded' },
  })
})

test('readJsonBody :: rejects JSON sent as text/plain or multipart with 415, naming the type', () => {
  for (const [type, named] of [
    ['text/plain;charset=UTF-8', 'text/plain'],
    ['multipart/form-data; boundary=x', 'multipart/form-data'],
    ['application/jsonp', 'application/jsonp'],
    ['text/json', 'text/json'],
  ] as const) {
    const read = readJsonBody(post(type, OBJECT))
    assert.ok(read._tag === 'Left' && read.left._tag === 'UnsupportedMediaType' && read.left.status === 415, type)
    assert.is(read._tag === 'Left' && read.left._tag === 'UnsupportedMediaType' ? read.left.contentType : undefined, named)
  }
})

test('readJsonBody :: rejects a body without Content-Type with 415 (contentType "")', () => {
  assert.equal(readJsonBody(post(undefined, OBJECT)), { _tag: 'Left', left: unsupportedMediaType('') })
  assert.equal(readJsonBody(post(undefined, '')), { _tag: 'Left', left: unsupportedMediaType('') })
})

test('readJsonBody :: rejects declared JSON that is empty, not JSON or not UTF-8 with InvalidJson 400', () => {
  for (const body of ['', hex('{nope'), '22ff22', hex('{"a":1} x')]) {
    assert.equal(readJsonBody(post('application/json', body)), { _tag: 'Left', left: invalidJson() }, body)
  }
})

test('httpErrorResponse :: 415 says which type to send and which arrived', () => {
  const form = httpErrorResponse(unsupportedMediaType('application/x-www-form-urlencoded'))
  assert.is(form.status, 415)
  assert.is(form.contentType, 'application/json')
  assert.equal(JSON.parse(getBodyString(form)), {
    error: 'unsupported_media_type',
    message: 'expected a JSON body (Content-Type: application/json), got application/x-www-form-urlencoded',
  })
  const none = httpErrorResponse(unsupportedMediaType(''))
  assert.equal(JSON.parse(getBodyString(none)), {
    error: 'unsupported_media_type',
    message: 'expected a JSON body (Content-Type: application/json), got no Content-Type',
  })
})

test('httpErrorResponse :: 400 invalid_json says the body is not JSON', () => {
  const res = httpErrorResponse(invalidJson())
  assert.equal([res.status, getBodyString(res)], [400, '{"error":"invalid_json","message":"the body is not valid JSON"}'])
})

test('getHeader :: reads a parsed HttpRequest (middleware, ctx.request) as it reads a route request', () => {
  const http: HttpRequest = {
    ...post('application/json', '').http,
    headers: [['Host', 'a'], ['X-Forwarded-For', '203.0.113.7'], ['x-forwarded-for', '10.0.0.2']],
  }
  for (const req of [http, compactRequest(http), makeRequest(http, {})]) {
    assert.is(getHeader(req, 'X-FORWARDED-FOR'), '203.0.113.7, 10.0.0.2')
    assert.is(getHeader(req, 'authorization'), undefined)
    assert.ok(hasHeader(req, 'host'))
    assert.not.ok(hasHeader(req, 'origin'))
  }
})

test.run()
