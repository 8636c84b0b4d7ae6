/**
 * `HttpCompression` with a made-up codec (each coding wraps its input in `<coding>(…)`), so
 * the engine's part is seen alone: which answers go to the codec, whole or piece by piece,
 * the event stream flushed per piece, the source cancelled when the answer is cut, a codec
 * failure answered uncompressed, and the `paths` scope.
 */
import { test } from 'uvu'
import { eventStream } from '../../../lib/core/sse/event-stream.js'
import * as assert from 'uvu/assert'
import { DEFAULT_COMPRESS_CONFIG } from '../../../lib/core/http/compress/compress-config.js'
import type { CodingStream, HttpCodec } from '../../../lib/core/http/compress/http-codec.js'
import { getResponseHeader } from '../../../lib/core/http/read-response.js'
import { json, text } from '../../../lib/core/http/response.js'
import { stream } from '../../../lib/core/http/stream-response.js'
import { isStreamBody } from '../../../lib/core/http/stream-body.js'
import type { HttpRequest, Response } from '../../../lib/core/http/types.js'
import { HttpCompression } from '../../../lib/engine/http/http-compression.js'
import { createVariantCache } from '../../../lib/core/http/compress/variant-cache.js'

const td = new TextDecoder()
const te = new TextEncoder()

const fakeCodec = (log: string[], fail = false): HttpCodec => ({
  codings: ['br', 'gzip'],
  compress: async (coding, body) => {
    if (fail) throw new Error('zlib broke')
    return te.encode(`${coding}(${td.decode(body)})`)
  },
  stream: (coding, flushEach): CodingStream => {
    let held = ''
    return {
      write: async (piece) => {
        held += td.decode(piece)
        if (!flushEach) return new Uint8Array(0)
        const out = te.encode(`${coding}[${held}]`)
        held = ''
        return out
      },
      end: async () => te.encode(`${coding}[${held}]end`),
      abort: () => void log.push('abort'),
    }
  },
})

const request = (acceptEncoding: string | undefined, method = 'GET', path = '/x'): HttpRequest => ({
  method,
  target: path,
  path,
  rawQuery: '',
  protocol: 'HTTP/1.1',
  headers: acceptEncoding === undefined ? [] : [['Accept-Encoding', acceptEncoding]],
  trailers: [],
  body: new Uint8Array(0),
  keepAlive: true,
  expectContinue: false,
})

const config = { ...DEFAULT_COMPRESS_CONFIG, enabled: true, threshold: 10 }

async function* pieces(...texts: string[]): AsyncGenerator<string> {
  yield* texts
}

const drain = async (res: Response): Promise<string> => {
  if (!isStreamBody(res.body)) throw new Error('not streamed')
  let out = ''
  for await (const piece of res.body.source as AsyncIterable<Uint8Array>) out += `${td.decode(piece)}|`
  return out
}

test('HttpCompression :: a buffered body is compressed whole, JSON included; headers say so', async () => {
  const compression = new HttpCompression(config, fakeCodec([]), () => undefined)
  const res = await compression.apply(request('gzip'), text('hello world, hello'))
  assert.is(td.decode(res.body as Uint8Array), 'gzip(hello world, hello)')
  assert.is(getResponseHeader(res, 'content-encoding'), 'gzip')
  assert.is(getResponseHeader(res, 'vary'), 'Accept-Encoding')
  const data = await compression.apply(request('br'), json({ hello: 'world' }))
  assert.is(td.decode(data.body as Uint8Array), 'br({"hello":"world"})')
})

test('HttpCompression :: synchronous and untouched when nothing is compressed; JSON sent as its text once', () => {
  const compression = new HttpCompression(config, fakeCodec([]), () => undefined)
  const small = text('hi')
  const sent = compression.apply(request('gzip'), small)
  assert.not.instance(sent, Promise)
  assert.is(getResponseHeader(sent as Response, 'vary'), 'Accept-Encoding')
  const data = compression.apply(request(undefined), json({ a: 'bcdefghijkl' })) as Response
  assert.is(td.decode(data.body as Uint8Array), '{"a":"bcdefghijkl"}')
})

test('HttpCompression :: a streamed body is compressed as pulled; an event stream is flushed per piece', async () => {
  const compression = new HttpCompression(config, fakeCodec([]), () => undefined)
  const plain = (await compression.apply(request('gzip'), stream(pieces('aaaaa', 'bbbbb', 'ccccc'), { contentType: 'text/plain', length: 15 }))) as Response
  assert.is((plain.body as { length?: number }).length, undefined)
  assert.is(await drain(plain), 'gzip[aaaaabbbbbccccc]end|')
  const events = (await compression.apply(request('br'), stream(pieces('data: 1\n\n', 'data: 2\n\n'), { contentType: 'text/event-stream' }))) as Response
  assert.is(await drain(events), 'br[data: 1\n\n]|br[data: 2\n\n]|br[]end|')
})

test('HttpCompression :: the SSE transport\'s answer is left as it is (the connection must still see an event stream)', () => {
  const compression = new HttpCompression(config, fakeCodec([]), () => undefined)
  const answer = eventStream({ rooms: ['news'] })
  assert.is(compression.apply(request('br'), answer), answer)
})

test('HttpCompression :: cutting the answer cancels the source at once and aborts the coder', async () => {
  const log: string[] = []
  const compression = new HttpCompression(config, fakeCodec(log), () => undefined)
  let cancelled = false
  const source = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined), cancel: () => void (cancelled = true) })
  const res = (await compression.apply(request('gzip'), stream(source, { contentType: 'text/plain' }))) as Response
  const iterator = (res.body as { source: AsyncIterable<Uint8Array> }).source[Symbol.asyncIterator]()
  void iterator.next()
  await iterator.return?.()
  assert.ok(cancelled)
  assert.equal(log, ['abort'])
})

test('HttpCompression :: a codec failure sends the answer uncompressed and reports it', async () => {
  const errors: unknown[] = []
  const compression = new HttpCompression(config, fakeCodec([], true), (e) => errors.push(e))
  const res = await compression.apply(request('gzip'), text('hello world, hello'))
  assert.is(res.body, 'hello world, hello')
  assert.is(getResponseHeader(res, 'content-encoding'), undefined)
  assert.is(errors.length, 1)
})

test('HttpCompression :: only the codings the runtime has; only the paths asked for', async () => {
  const compression = new HttpCompression({ ...config, codings: ['zstd', 'gzip'], paths: ['/static/'] }, fakeCodec([]), () => undefined)
  assert.equal(compression.codings, ['gzip'])
  const other = text('hello world, hello')
  assert.is(compression.apply(request('zstd, gzip', 'GET', '/api'), other), other)
  const res = await compression.apply(request('zstd, gzip', 'GET', '/static/a.css'), other)
  assert.is(getResponseHeader(res, 'content-encoding'), 'gzip')
})

test('HttpCompression :: an answer with a strong ETag is compressed once per target, ETag, type and coding', async () => {
  let calls = 0
  const codec = fakeCodec([])
  const counting: HttpCodec = { ...codec, compress: (coding, body) => ((calls += 1), codec.compress(coding, body)) }
  const compression = new HttpCompression(config, counting, () => undefined)
  const answer = (etag: string | undefined): Response => ({ _tag: 'Response', status: 200, headers: etag === undefined ? [] : [['ETag', etag]], contentType: 'text/plain', body: te.encode('a file of some length') })
  const send = async (etag: string | undefined, accept = 'gzip', path = '/x') => td.decode((await compression.apply(request(accept, 'GET', path), answer(etag))).body as Uint8Array)
  const both = await Promise.all([send('"1-a"'), send('"1-a"')])
  assert.equal(both, ['gzip(a file of some length)', 'gzip(a file of some length)'])
  assert.is(calls, 1, 'two requests at once share one compression')
  await send('"1-a"')
  assert.is(calls, 1)
  await send('"1-a"', 'br')
  await send('"1-b"')
  await send('"1-a"', 'gzip', '/y')
  assert.is(calls, 4, 'another coding, ETag or target is compressed anew')
  await send('W/"1-a"')
  await send('W/"1-a"')
  await send(undefined)
  assert.is(calls, 7, 'weak or no ETag: never kept')
  const off = new HttpCompression({ ...config, cacheBytes: 0 }, counting, () => undefined)
  await off.apply(request('gzip'), answer('"1-a"'))
  await off.apply(request('gzip'), answer('"1-a"'))
  assert.is(calls, 9, 'cacheBytes 0 keeps nothing')
})

test('createVariantCache :: bounded in bytes; a failure is not kept', async () => {
  const cache = createVariantCache(40)
  for (let i = 0; i < 10; i++) await cache.get(`k${i}`, async () => new Uint8Array(10))
  assert.ok(cache.size.bytes <= 40)
  assert.is(cache.size.entries, 4)
  await cache.get('big', async () => new Uint8Array(11))
  assert.is(cache.size.entries, 4, 'over a quarter of the bound: not kept')
  let made = 0
  await cache.get('bad', async () => ((made += 1), Promise.reject(new Error('no')))).catch(() => undefined)
  await cache.get('bad', async () => ((made += 1), new Uint8Array(1)))
  assert.is(made, 2)
})

test.run()
