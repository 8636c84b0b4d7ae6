import * as zlib from 'node:zlib'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BodyStreamError } from '../../../lib/core/http/body-stream.js'
import { decodeBody } from '../../../lib/core/http/decompress/decode-body.js'
import { bodyStreamOf } from '../../../lib/core/http/in-process-exchange.js'
import { createZlibHttpDecoder } from '../../../lib/runtime/compress/zlib-http-decoder.js'

const decoder = createZlibHttpDecoder()
const text = 'hello, twinport '.repeat(4096)
const bytes = new TextEncoder().encode(text)

// `whole` cut into pieces of `size` bytes, with the count of pieces read so far.
const piecesOf = (whole: Uint8Array, size: number): { source: AsyncIterable<Uint8Array>; read: () => number } => {
  let read = 0
  return {
    source: (async function* () {
      for (let at = 0; at < whole.length; at += size) {
        read++
        yield whole.subarray(at, at + size)
      }
    })(),
    read: () => read,
  }
}

const failure = async (run: () => Promise<unknown>): Promise<BodyStreamError> => {
  try {
    await run()
  } catch (error) {
    if (error instanceof BodyStreamError) return error
    throw error
  }
  throw new Error('expected a BodyStreamError')
}

test('createZlibHttpDecoder :: gzip, deflate and br decode, whole and cut into small pieces', async () => {
  assert.ok(decoder.codings.includes('gzip') && decoder.codings.includes('deflate') && decoder.codings.includes('br'))
  for (const [coding, encoded] of [
    ['gzip', zlib.gzipSync(bytes)],
    ['deflate', zlib.deflateSync(bytes)],
    ['br', zlib.brotliCompressSync(bytes)],
  ] as const) {
    assert.is(await decodeBody(bodyStreamOf([encoded]), [coding], decoder, 1 << 20).text(), text, coding)
    assert.is(await decodeBody(piecesOf(encoded, 7).source, [coding], decoder, 1 << 20).text(), text, `${coding} in pieces`)
  }
})

test('createZlibHttpDecoder :: stacked codings: gzip then br, undone br first', async () => {
  const encoded = zlib.brotliCompressSync(zlib.gzipSync(bytes))
  assert.is(await decodeBody(bodyStreamOf([encoded]), ['br', 'gzip'], decoder, 1 << 20).text(), text)
})

test('decodeBody :: a bomb (64 MiB of zeros gzipped) past maxBody 1 MiB: 413 before much more is inflated or read', async () => {
  const bomb = zlib.gzipSync(new Uint8Array(64 << 20))
  assert.ok(bomb.length < 100 * 1024)
  const { source, read } = piecesOf(bomb, 1024)
  let inflated = 0
  const error = await failure(async () => {
    for await (const piece of decodeBody(source, ['gzip'], decoder, 1 << 20)) inflated += piece.length
  })
  assert.equal([error.error._tag, error.error.status], ['BodyTooLarge', 413])
  assert.ok(inflated <= 1 << 20, `handed over ${inflated}`)
  // About 1 MiB of zeros is ~1 KiB gzipped: the source was read little beyond that (what
  // zlib's input buffer holds), not to its end.
  assert.ok(read() < bomb.length / 1024 / 2, `read ${read()} pieces of ${Math.ceil(bomb.length / 1024)}`)
})

test('decodeBody :: corrupt or truncated input: 400 undecodable_body', async () => {
  const gz = zlib.gzipSync(bytes)
  const corrupt = Uint8Array.from(gz)
  corrupt.fill(0x55, 20, 40)
  for (const [name, input, coding] of [
    ['corrupt', corrupt, 'gzip'],
    ['truncated', gz.subarray(0, gz.length - 10), 'gzip'],
    ['not gzip', new TextEncoder().encode('plain text'), 'gzip'],
    ['not br', new TextEncoder().encode('plain text, not brotli at all'), 'br'],
  ] as const) {
    const error = await failure(() => decodeBody(bodyStreamOf([input]), [coding], decoder, 1 << 20).bytes())
    assert.equal([error.error._tag, error.error.status, error.error.reason], ['UndecodableBody', 400, 'undecodable_body'], name)
  }
})

test("decodeBody :: what the source throws passes as is (the wire's 413, a client gone), not as 'undecodable'", async () => {
  const gz = zlib.gzipSync(bytes)
  const source = (async function* () {
    yield gz.subarray(0, 10)
    throw new BodyStreamError({ _tag: 'BodyIncomplete', status: 400, reason: 'body_incomplete', received: 10 })
  })()
  const error = await failure(() => decodeBody(source, ['gzip'], decoder, 1 << 20).bytes())
  assert.is(error.error._tag, 'BodyIncomplete')
})

test.run()
