/**
 * `planCompression`, `encodedHeaders` and `resolveCompressConfig`: what is compressed, with
 * what, and what the headers then say (issue 30).
 */
import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULT_COMPRESS_CONFIG, resolveCompressConfig } from '../../../../lib/core/http/compress/compress-config.js'
import { encodedHeaders, notModifiedHeaders } from '../../../../lib/core/http/compress/encoded-headers.js'
import { planCompression } from '../../../../lib/core/http/compress/plan-compression.js'
import { html, noContent, response, text } from '../../../../lib/core/http/response.js'
import type { Response } from '../../../../lib/core/http/types.js'

const policy = { codings: ['br', 'zstd', 'gzip'] as const, threshold: 1024 }
const get = (acceptEncoding: string | undefined, method = 'GET') => ({ method, acceptEncoding })
const page = html('x'.repeat(2000))
const tag = (res: Response, ae: string | undefined = 'gzip, br', size: number | undefined = 2000, method = 'GET'): string => {
  const plan = planCompression(get(ae, method), res, size, policy)
  return plan._tag === 'Compress' ? plan.coding : plan._tag
}

test('planCompression :: the coding the request prefers by its q-values, the server order breaking ties', () => {
  assert.is(tag(page, 'gzip, deflate, br'), 'br')
  assert.is(tag(page, 'gzip;q=1, br;q=0.5'), 'gzip')
  assert.is(tag(page, 'zstd, gzip'), 'zstd')
  assert.is(tag(page, '*'), 'br')
  assert.is(tag(page, 'br;q=0, *;q=0.1'), 'zstd')
  assert.is(tag(page, 'x-gzip'), 'gzip')
})

test('planCompression :: Vary only: no Accept-Encoding, identity preferred, under the threshold, HEAD', () => {
  assert.is(planCompression(get(undefined), page, 2000, policy)._tag, 'Vary')
  assert.is(tag(page, ''), 'Vary')
  assert.is(tag(page, 'deflate'), 'Vary')
  assert.is(tag(page, 'gzip', 1023), 'Vary')
  assert.is(tag(page, 'gzip', 2000, 'HEAD'), 'Vary')
  // A streamed body of unknown length is compressed whatever its size.
  assert.is(tag(page, 'gzip', undefined), 'gzip')
})

test('planCompression :: left alone: 1xx, 204, 206, 304, types already compressed, no-transform, an encoding already there', () => {
  for (const status of [101, 204, 206, 304]) assert.is(tag({ ...page, status }), 'Leave', String(status))
  assert.is(tag(noContent()), 'Leave')
  assert.is(tag(response(new Uint8Array(4000), 200, { 'Content-Type': 'image/png' })), 'Leave')
  assert.is(tag(response(new Uint8Array(4000))), 'Leave') // application/octet-stream
  assert.is(tag(text('x'.repeat(4000), 200, { 'Cache-Control': 'public, no-transform' })), 'Leave')
  assert.is(tag(text('x'.repeat(4000), 200, { 'Cache-Control': 'no-transformer' })), 'br')
  assert.is(tag(text('x'.repeat(4000), 200, { 'Content-Encoding': 'br' })), 'Leave')
  assert.is(planCompression(get('gzip'), page, 2000, { codings: [], threshold: 0 })._tag, 'Leave')
})

test('encodedHeaders :: Content-Encoding and Vary added, a strong ETag weakened, Accept-Ranges dropped', () => {
  assert.equal(encodedHeaders([['ETag', '"5-a"'], ['Accept-Ranges', 'bytes'], ['X-A', '1']], 'gzip'), [
    ['ETag', 'W/"5-a"'],
    ['X-A', '1'],
    ['Content-Encoding', 'gzip'],
    ['Vary', 'Accept-Encoding'],
  ])
  assert.equal(encodedHeaders([['ETag', 'W/"5-a"']], 'br'), [['ETag', 'W/"5-a"'], ['Content-Encoding', 'br'], ['Vary', 'Accept-Encoding']])
})

test('encodedHeaders :: an existing Vary is extended once, or kept when it names Accept-Encoding or *', () => {
  assert.equal(encodedHeaders([['Vary', 'Origin']], undefined), [['Vary', 'Origin, Accept-Encoding']])
  assert.equal(encodedHeaders([['vary', 'accept-encoding']], undefined), [['vary', 'accept-encoding']])
  assert.equal(encodedHeaders([['Vary', '*']], 'gzip'), [['Vary', '*'], ['Content-Encoding', 'gzip']])
  assert.equal(encodedHeaders([['ETag', '"1"']], undefined), [['ETag', '"1"'], ['Vary', 'Accept-Encoding']])
})

test('notModifiedHeaders :: a 304 to a client holding the compressed copy keeps its weak ETag and the Vary', () => {
  assert.equal(notModifiedHeaders([['ETag', '"5-a"'], ['Cache-Control', 'no-cache']], 'W/"5-a"'), [['ETag', 'W/"5-a"'], ['Cache-Control', 'no-cache'], ['Vary', 'Accept-Encoding']])
  assert.is(notModifiedHeaders([['ETag', '"5-a"']], '"5-a"'), undefined)
  assert.is(notModifiedHeaders([['ETag', '"5-a"']], undefined), undefined)
  assert.is(notModifiedHeaders([], 'W/"5-a"'), undefined)
})

test('resolveCompressConfig :: off, on, settings over the defaults, and a line naming a bad one', () => {
  assert.equal(resolveCompressConfig(undefined), E.right(DEFAULT_COMPRESS_CONFIG))
  assert.equal(resolveCompressConfig(false), E.right(DEFAULT_COMPRESS_CONFIG))
  assert.equal(resolveCompressConfig(true), E.right({ ...DEFAULT_COMPRESS_CONFIG, enabled: true }))
  assert.equal(resolveCompressConfig({ threshold: 0, codings: ['gzip', 'gzip'], paths: ['/static/'] }), E.right({ ...DEFAULT_COMPRESS_CONFIG, enabled: true, threshold: 0, codings: ['gzip'], paths: ['/static/'] }))
  assert.equal(resolveCompressConfig({ codings: ['lzma'] }), E.left('compress.codings: expected a list of "br", "gzip", "zstd", got ["lzma"]'))
  assert.equal(resolveCompressConfig({ gzipLevel: 10 }), E.left('compress.gzipLevel: expected an integer from 0 to 9, got 10'))
  assert.equal(resolveCompressConfig({ paths: ['static'] }), E.left('compress.paths: expected a list of paths starting with "/", got ["static"]'))
  assert.equal(resolveCompressConfig({ levle: 1 })._tag, 'Left')
  assert.equal(resolveCompressConfig('yes'), E.left('compress: expected true, false or an object of settings, got "yes"'))
})

test.run()
