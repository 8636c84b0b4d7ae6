import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { bodyStreamOf, exchangeOf } from '../../../lib/core/http/in-process-exchange.js'
import type { HttpRequest } from '../../../lib/core/http/types.js'
import { compileRoutes } from '../../../lib/core/route/compile-routes.js'
import { dispatchHttp } from '../../../lib/core/route/dispatch-http.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { webHttpDecoder } from '../../../lib/engine/http/web-http-decoder.js'

const decoder = webHttpDecoder()
const enc = (s: string): Uint8Array => new TextEncoder().encode(s)

const gzip = async (bytes: Uint8Array): Promise<Uint8Array> =>
  new Uint8Array(await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer())

const request = (path: string, headers: [string, string][], body: Uint8Array): HttpRequest => ({
  method: 'POST',
  target: path,
  path,
  rawQuery: '',
  protocol: 'HTTP/1.1',
  headers: [['Host', 'x'], ...headers],
  trailers: [],
  body,
  keepAlive: true,
  expectContinue: false,
})

const compiledOf = (table: Parameters<typeof compileRoutes>[0]) => {
  const compiled = compileRoutes(table)
  if (E.isLeft(compiled)) throw new Error('the table compiles')
  return compiled.right
}

const compiled = compiledOf([
  httpRoute('POST', '/whole', { decompress: true, maxBody: 4096 }, (req) => ({ text: new TextDecoder().decode(req.rawBody), encoding: req.headerMap.get('content-encoding') ?? null })),
  httpRoute('POST', '/stream', { body: 'stream', decompress: ['gzip'], maxBody: 4096 }, async (req) => ({ text: await req.body.text(), length: req.body.length ?? null })),
  httpRoute('POST', '/plain', (req) => ({ size: req.rawBody.length })),
  httpRoute('POST', '/raw', { decompress: 'raw' }, (req) => ({ size: req.rawBody.length })),
])
const options = { decoding: { decoder, maxBody: 1 << 20 } }
const json = async (res: Response | { body: unknown }): Promise<unknown> => (res as { body: unknown }).body

test('dispatchHttp :: a gzip body to a route declared decompress: the handler gets it decoded, without Content-Encoding', async () => {
  const gz = await gzip(enc('hello gzip'))
  const res = await dispatchHttp(compiled, request('/whole', [['Content-Encoding', 'gzip'], ['Content-Length', String(gz.length)]], gz), options)
  assert.is(res.status, 200)
  assert.equal(await json(res), { text: 'hello gzip', encoding: null })
})

test('dispatchHttp :: a streamed route reads the decoded pieces (length unknown)', async () => {
  const gz = await gzip(enc('streamed '.repeat(100)))
  const body = bodyStreamOf([gz.subarray(0, 10), gz.subarray(10)], gz.length)
  const res = await dispatchHttp(compiled, request('/stream', [['Content-Encoding', 'gzip']], new Uint8Array(0)), options, exchangeOf({ body }))
  assert.equal(await json(res), { text: 'streamed '.repeat(100), length: null })
})

test('dispatchHttp :: inflated past the route maxBody: 413; corrupt: 400 undecodable_body', async () => {
  const big = await gzip(new Uint8Array(64 * 1024))
  const tooLarge = await dispatchHttp(compiled, request('/whole', [['Content-Encoding', 'gzip']], big), options)
  assert.equal([tooLarge.status, await json(tooLarge)], [413, { error: 'body_too_large' }])
  const streamed = await dispatchHttp(compiled, request('/stream', [['Content-Encoding', 'gzip']], new Uint8Array(0)), options, exchangeOf({ body: bodyStreamOf([big]) }))
  assert.is(streamed.status, 413)
  const corrupt = await dispatchHttp(compiled, request('/whole', [['Content-Encoding', 'gzip']], enc('not gzip at all')), options)
  assert.equal([corrupt.status, await json(corrupt)], [400, { error: 'undecodable_body' }])
})

test('dispatchHttp :: 415 with Accept-Encoding: a route that did not opt in, a coding not listed or unknown', async () => {
  const gz = await gzip(enc('x'))
  const plain = await dispatchHttp(compiled, request('/plain', [['Content-Encoding', 'gzip']], gz), options)
  assert.is(plain.status, 415)
  assert.equal(plain.headers, [['Accept-Encoding', 'identity']])
  const listed = await dispatchHttp(compiled, request('/stream', [['Content-Encoding', 'deflate']], new Uint8Array(0)), options, exchangeOf({ body: bodyStreamOf([gz]) }))
  assert.equal([listed.status, listed.headers], [415, [['Accept-Encoding', 'gzip, identity']]])
  const unknown = await dispatchHttp(compiled, request('/whole', [['Content-Encoding', 'compress']], gz), options)
  assert.equal([unknown.status, unknown.headers], [415, [['Accept-Encoding', 'gzip, deflate, identity']]])
  // Without decoders (an in-process dispatch given none): nothing is decoded.
  const none = await dispatchHttp(compiled, request('/whole', [['Content-Encoding', 'gzip']], gz))
  assert.equal([none.status, none.headers], [415, [['Accept-Encoding', 'identity']]])
})

test("dispatchHttp :: identity, no body, or a route declared 'raw': the body as sent", async () => {
  const plain = await dispatchHttp(compiled, request('/plain', [['Content-Encoding', 'identity']], enc('abc')), options)
  assert.equal(await json(plain), { size: 3 })
  const empty = await dispatchHttp(compiled, request('/plain', [['Content-Encoding', 'gzip']], new Uint8Array(0)), options)
  assert.equal(await json(empty), { size: 0 })
  const raw = await dispatchHttp(compiled, request('/raw', [['Content-Encoding', 'gzip']], enc('abcd')), options)
  assert.equal(await json(raw), { size: 4 })
})

test.run()
