/**
 * `toFetch` and request decompression (issue 30): a route declared `decompress` decodes a gzip
 * or deflate body with the web `DecompressionStream` (the fetch platform brings no zlib of its
 * own), holds `maxBody` on the decoded size, and refuses what it cannot decode.
 * Portable: runs in Node, Bun and Deno.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { toFetch } from '../../lib/fetch/to-fetch.js'

const URL = 'http://app.test'
const enc = (s: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(s)

const compress = async (format: 'gzip' | 'deflate', bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> =>
  new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream(format))).arrayBuffer())

const app = () =>
  toFetch({
    routes: [
      httpRoute('POST', '/text', { decompress: true, maxBody: 64 * 1024 }, (req) => ({ text: new TextDecoder().decode(req.rawBody) })),
      httpRoute('POST', '/count', { body: 'stream', decompress: true, maxBody: 64 * 1024 }, async (req) => ({ size: (await req.body.bytes()).length })),
    ],
  })

const post = (path: string, coding: string, body: Uint8Array<ArrayBuffer>): Request => new Request(`${URL}${path}`, { method: 'POST', headers: { 'Content-Encoding': coding }, body })

test('toFetch :: gzip and deflate bodies decoded, whole and streamed', async () => {
  const handler = app()
  for (const format of ['gzip', 'deflate'] as const) {
    const body = await compress(format, enc('hello '.repeat(1000)))
    assert.equal(await (await handler(post('/text', format, body))).json(), { text: 'hello '.repeat(1000) }, format)
    assert.equal(await (await handler(post('/count', format, body))).json(), { size: 6000 }, format)
  }
  await handler.close()
})

test('toFetch :: inflated past maxBody: 413; corrupt: 400; br without a decoder here, or unknown: 415', async () => {
  const handler = app()
  const bomb = await compress('gzip', new Uint8Array(4 * 1024 * 1024))
  for (const path of ['/text', '/count']) {
    const res = await handler(post(path, 'gzip', bomb))
    assert.equal([res.status, await res.json()], [413, { error: 'body_too_large' }], path)
    const corrupt = await handler(post(path, 'gzip', enc('not gzip')))
    assert.equal([corrupt.status, await corrupt.json()], [400, { error: 'undecodable_body' }], path)
  }
  const unknown = await handler(post('/text', 'compress', enc('x')))
  assert.equal([unknown.status, unknown.headers.get('accept-encoding')], [415, 'gzip, deflate, identity'])
  await handler.close()
})

test.run()
