import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { pipe } from 'fp-ts/lib/function.js'
import {
  badRequest, download, errorResponse, forbidden, html, isResponse, json, noContent, notFound, ok, redirect, response, serverError, text, unauthorized,
} from '../../../lib/core/http/response.js'
import { appendHeader, setBody, setContentType, setHeader, setStatus, withBody, withHeader } from '../../../lib/core/http/response-updates.js'
import { getBodyString, getResponseHeader, getResponseHeaders, responseToString } from '../../../lib/core/http/read-response.js'
import { serializeResponse } from '../../../lib/core/http/serialize-response.js'
import { statusText } from '../../../lib/core/http/status-text.js'
import { httpErrorResponse } from '../../../lib/core/http/http-error-response.js'
import { invalidJson } from '../../../lib/core/http/http-error.js'

const wire = (b: Uint8Array): string => new TextDecoder().decode(b)

test('response :: object and array bodies are JSON, strings text, bytes octets, none empty', () => {
  assert.is(response({ a: 1 }).contentType, 'application/json')
  assert.is(response([1]).contentType, 'application/json')
  assert.is(response('hi').contentType, 'text/plain; charset=utf-8')
  assert.is(response(new Uint8Array([1])).contentType, 'application/octet-stream')
  assert.is(response().contentType, '')
  assert.is(response(null, 201).status, 201)
})

test('response :: a Content-Type header becomes the content type; framing headers are dropped; CRLF sanitised', () => {
  const r = response('x', 200, { 'content-type': 'text/csv', 'Content-Length': '99', 'X-A': 'a\r\nEvil: 1' })
  assert.is(r.contentType, 'text/csv')
  assert.equal(r.headers, [['X-A', 'a  Evil: 1']])
  assert.equal(response('x', 200, [['Set-Cookie', 'a'], ['Set-Cookie', 'b']]).headers, [['Set-Cookie', 'a'], ['Set-Cookie', 'b']])
})

test('factories :: statuses, bodies and types of the seed', () => {
  assert.equal([json({ a: 1 }).body, json({ a: 1 }).status], [{ a: 1 }, 200])
  assert.is(json('s').body, '"s"')
  assert.is(html('<p>').contentType, 'text/html; charset=utf-8')
  assert.is(text('t', 202).status, 202)
  assert.is(ok().status, 200)
  assert.equal([redirect('/x').status, getResponseHeader(redirect('/x', 301, { Location: '/y' }), 'location')], [302, '/x'])
  assert.equal(notFound().body, { error: 'Not Found' })
  assert.equal(notFound({ why: 1 }).body, { why: 1 })
  assert.equal([serverError().status, unauthorized().status, forbidden().status, badRequest('no').status], [500, 401, 403, 400])
  assert.equal(badRequest('no').body, { error: 'no' })
  assert.equal(noContent(), { _tag: 'Response', status: 204, headers: [], contentType: '', body: undefined })
  assert.equal(errorResponse(409, 'taken').body, { error: 'taken' })
  assert.equal(httpErrorResponse(invalidJson()).body, { error: 'invalid_json', message: 'the body is not valid JSON' })
})

test('download :: attachment with ASCII filename and RFC 8187 filename*', () => {
  const r = download('a,b', 'r\u00e9p"ort.csv', 'text/csv', { 'Content-Disposition': 'inline' })
  assert.is(r.contentType, 'text/csv')
  assert.is(getResponseHeader(r, 'content-disposition'), `attachment; filename="r_p_ort.csv"; filename*=UTF-8''r%C3%A9p%22ort.csv`)
  assert.is(download(new Uint8Array([1]), 'a').contentType, 'application/octet-stream')
})

test('isResponse :: checks the tag', () => {
  assert.ok(isResponse(text('x')))
  assert.not.ok(isResponse({ status: 200 }))
  assert.not.ok(isResponse(null))
  assert.not.ok(isResponse('Response'))
})

test('updates :: return new values and leave the original', () => {
  const base = text('hi')
  const next = pipe(base, setStatus(201), setHeader('X-A', '1'), setHeader('x-a', '2'), setContentType('text/x'), setBody('yo'))
  assert.equal(next, { _tag: 'Response', status: 201, headers: [['x-a', '2']], contentType: 'text/x', body: 'yo' })
  assert.equal(base, text('hi'))
  assert.is(withHeader(base, 'Content-Type', 'a/b').contentType, 'a/b')
  assert.is(withHeader(base, 'Content-Length', '9'), base)
  assert.equal(appendHeader(appendHeader(base, 'Set-Cookie', 'a'), 'Set-Cookie', 'b').headers.length, 2)
  assert.is(appendHeader(base, 'content-type', 'q/r').contentType, 'q/r')
  assert.is(withBody(noContent(), { a: 1 }).contentType, 'application/json')
  assert.is(withBody(text('x'), { a: 1 }).contentType, 'text/plain; charset=utf-8')
})

test('reads :: header case-insensitively, all headers, body as string', () => {
  const r = appendHeader(appendHeader(json({ a: 1 }), 'Vary', 'A'), 'vary', 'B')
  assert.is(getResponseHeader(r, 'VARY'), 'A, B')
  assert.is(getResponseHeader(r, 'Content-Type'), 'application/json')
  assert.is(getResponseHeader(noContent(), 'content-type'), undefined)
  assert.is(getResponseHeader(r, 'x-none'), undefined)
  assert.equal(getResponseHeaders(r), { 'Content-Type': 'application/json', Vary: 'A', vary: 'B' })
  assert.equal(getResponseHeaders(appendHeader(appendHeader(noContent(), 'V', 'a'), 'V', 'b')), { V: 'a, b' })
  assert.is(getBodyString(r), '{"a":1}')
  assert.is(getBodyString(noContent()), '')
  assert.is(getBodyString(text('t')), 't')
  assert.is(getBodyString(response(new TextEncoder().encode('\u00e9'))), '\u00e9')
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  assert.is(getBodyString(response(cyclic as never)), '')
  assert.is(responseToString(text('hi')), 'HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\n\r\nhi')
})

test('statusText :: every RFC 9110 code has its phrase, others their class', () => {
  const codes: Record<number, string> = { 100: 'Continue', 200: 'OK', 204: 'No Content', 304: 'Not Modified', 308: 'Permanent Redirect', 404: 'Not Found', 413: 'Content Too Large', 421: 'Misdirected Request', 422: 'Unprocessable Content', 426: 'Upgrade Required', 431: 'Request Header Fields Too Large', 505: 'HTTP Version Not Supported' }
  for (const [code, phrase] of Object.entries(codes)) assert.is(statusText(Number(code)), phrase)
  const rfc9110 = [100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 305, 306, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 421, 422, 426, 500, 501, 502, 503, 504, 505]
  for (const c of rfc9110) assert.not.match(statusText(c), /^(Unknown|Success|Client Error|Server Error|Redirection|Informational|Status)$/)
  assert.equal([statusText(199), statusText(299), statusText(399), statusText(499), statusText(599), statusText(99), statusText(1.5)], ['Informational', 'Success', 'Redirection', 'Client Error', 'Server Error', 'Status', 'Status'])
})

test('serializeResponse :: one Content-Type, Content-Length in bytes, body', () => {
  const out = wire(serializeResponse(response('h\u00e9', 200, { 'X-A': '1', Connection: 'upgrade' }), { keepAlive: true, date: 'Sun, 06 Nov 1994 08:49:37 GMT' }))
  assert.is(out, 'HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 3\r\nX-A: 1\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\nh\u00e9')
  assert.is(out.match(/Content-Type/g)?.length, 1)
  const literal = { _tag: 'Response', status: 200, headers: [['content-type', 'x/y'], ['Transfer-Encoding', 'chunked'], ['content-length', '7']], contentType: 'a/b', body: new Uint8Array([65]) } as const
  assert.is(wire(serializeResponse(literal, { keepAlive: true })), 'HTTP/1.1 200 OK\r\nContent-Type: a/b\r\nContent-Length: 1\r\n\r\nA')
})

test('serializeResponse :: HEAD, 204 and 304 carry no body; 204 no Content-Length', () => {
  assert.is(wire(serializeResponse(text('abc'), { keepAlive: true, head: true })), 'HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 3\r\n\r\n')
  assert.is(wire(serializeResponse(noContent(), { keepAlive: true })), 'HTTP/1.1 204 No Content\r\n\r\n')
  assert.is(wire(serializeResponse(text('x', 304), { keepAlive: true })), 'HTTP/1.1 304 Not Modified\r\n\r\n')
  assert.is(wire(serializeResponse(text('', 200), { keepAlive: true })), 'HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 0\r\n\r\n')
  assert.is(wire(serializeResponse(response(), { keepAlive: true })), 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')
})

test('serializeResponse :: Connection as negotiated', () => {
  assert.match(wire(serializeResponse(ok(), { keepAlive: false })), 'Connection: close\r\n')
  assert.match(wire(serializeResponse(ok(), { keepAlive: true, protocol: 'HTTP/1.0' })), 'Connection: keep-alive\r\n')
  assert.not.match(wire(serializeResponse(ok(), { keepAlive: true, protocol: 'HTTP/1.1' })), 'Connection')
})

test('serializeResponse :: bad status is 500, unserialisable JSON is 500 error', () => {
  assert.match(wire(serializeResponse(text('x', 42), { keepAlive: true })), /^HTTP\/1\.1 500 Internal Server Error\r\n/)
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  const out = wire(serializeResponse(response(cyclic as never), { keepAlive: true }))
  assert.match(out, /^HTTP\/1\.1 500 /)
  assert.ok(out.endsWith('{"error":"unserializable_body"}'))
  assert.ok(wire(serializeResponse(json([1, 2]), { keepAlive: true })).endsWith('\r\n\r\n[1,2]'))
})

test.run()
