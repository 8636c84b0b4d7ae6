/**
 * `createZlibHttpDecoder`: the `HttpDecoder` (lib/core/http/decompress/http-decoder.ts) on
 * `node:zlib`, for request bodies of routes declared with `decompress`: gzip, deflate (the zlib
 * format) and Brotli everywhere, zstd where the runtime's zlib has it.
 *
 * The body is pulled through a zlib stream with its backpressure: the source is read a piece at
 * a time when zlib wants input, and zlib inflates only while its output is taken (a zlib stream
 * stops mid-input when its readable side is full), so a small body that inflates to much costs
 * what the reader takes, and the reader's `return()` (the core's limit) destroys it at once.
 *
 * Part of the shared runtime layer (lib/runtime/): all three adapters use it; imports the
 * core and `node:*`, never an adapter.
 */
import { Readable } from 'node:stream'
import * as zlib from 'node:zlib'
import type { HttpDecoder, RequestCoding } from '../../core/http/decompress/http-decoder.js'

type Inflater = zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress

// zstd in node:zlib (absent on Node 20): looked up, not imported by name, so the module loads everywhere.
const zstd = zlib as unknown as { readonly createZstdDecompress?: () => Inflater }

/** The codings this runtime's `node:zlib` decodes. */
export const zlibDecodings = (): readonly RequestCoding[] => (typeof zstd.createZstdDecompress === 'function' ? ['gzip', 'deflate', 'br', 'zstd'] : ['gzip', 'deflate', 'br'])

const inflaterOf = (coding: RequestCoding): Inflater =>
  coding === 'gzip'
    ? zlib.createGunzip()
    : coding === 'deflate'
      ? zlib.createInflate()
      : coding === 'br'
        ? zlib.createBrotliDecompress()
        : (zstd.createZstdDecompress as () => Inflater)()

async function* inflated(coding: RequestCoding, source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  // One piece read ahead at most (a high-water mark of one byte).
  const input = Readable.from(source, { objectMode: false, highWaterMark: 1 })
  const inflater = inflaterOf(coding)
  let failure: { readonly error: unknown } | undefined
  input.on('error', (error: unknown) => {
    // What the source threw, not zlib's view of it.
    failure ??= { error }
    inflater.destroy(error instanceof Error ? error : new Error(String(error)))
  })
  input.pipe(inflater)
  try {
    for await (const chunk of inflater as AsyncIterable<Uint8Array>) yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)
  } catch (error) {
    throw failure === undefined ? error : failure.error
  } finally {
    input.unpipe(inflater)
    input.destroy()
    inflater.destroy()
  }
}

/**
 * @example
 * const decoder = createZlibHttpDecoder()
 * for await (const piece of decoder.decode('gzip', body)) hash.update(piece)
 */
export const createZlibHttpDecoder = (): HttpDecoder => ({
  codings: zlibDecodings(),
  decode: (coding, source) => ({ [Symbol.asyncIterator]: () => inflated(coding, source) }),
})
