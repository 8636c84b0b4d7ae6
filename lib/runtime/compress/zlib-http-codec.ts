/**
 * `createZlibHttpCodec`: the `HttpCodec` (lib/core/http/compress/http-codec.ts) on
 * `node:zlib`, for HTTP compression (the `compress` option): gzip and Brotli everywhere, zstd
 * where the runtime's zlib has it (Bun and Deno do; Node from 22.15/23.8, not Node 20).
 *
 * Every zlib job (a whole body, a streamed piece, a stream's end) goes through one
 * `JobLimiter` of `config.concurrency` slots, as permessage-deflate's do: many concurrent
 * zlib jobs fragment the native heap (docs/decisions.md, "permessage-deflate").
 *
 * Part of the shared runtime layer (lib/runtime/): all three adapters use it; imports the
 * core, the engine and `node:*`, never an adapter.
 */
import * as zlib from 'node:zlib'
import type { CompressConfig, ContentCoding } from '../../core/http/compress/compress-config.js'
import type { CodingStream, HttpCodec } from '../../core/http/compress/http-codec.js'
import { createJobLimiter } from '../../engine/deflate/job-limiter.js'

type Coder = zlib.Gzip | zlib.BrotliCompress
type WholeCompress = (body: Uint8Array, options: object, done: (error: Error | null, out: Buffer) => void) => void

// zstd in node:zlib (absent on Node 20): looked up, not imported by name, so the module loads everywhere.
const zstd = zlib as unknown as {
  readonly createZstdCompress?: (options: object) => Coder
  readonly zstdCompress?: WholeCompress
}
const C = zlib.constants as typeof zlib.constants & { readonly ZSTD_e_flush?: number; readonly ZSTD_e_end?: number; readonly ZSTD_c_compressionLevel?: number }

/** The codings this runtime's `node:zlib` can produce, preferred first. */
export const zlibCodings = (): readonly ContentCoding[] =>
  typeof zstd.createZstdCompress === 'function' && typeof zstd.zstdCompress === 'function' && C.ZSTD_c_compressionLevel !== undefined ? ['br', 'zstd', 'gzip'] : ['br', 'gzip']

// A zlib stream's output, gathered from its 'data' events between two calls.
class ZlibStream implements CodingStream {
  private chunks: Buffer[] = []
  private size = 0
  private failed: ((error: Error) => void) | undefined = undefined
  private error: Error | undefined = undefined

  constructor(
    private readonly coder: Coder,
    private readonly run: <T>(job: () => Promise<T>) => Promise<T>,
  ) {
    coder.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk)
      this.size += chunk.length
    })
    coder.on('error', (error: Error) => {
      this.error = error
      this.failed?.(error)
    })
  }

  write(piece: Uint8Array): Promise<Uint8Array> {
    return this.run(
      () =>
        new Promise<Uint8Array>((resolve, reject) => {
          if (this.error !== undefined) return reject(this.error)
          this.failed = reject
          // Called once zlib has handed over the output of this write (and of its flush, when
          // the stream flushes every write).
          this.coder.write(piece, () => {
            this.failed = undefined
            if (this.error !== undefined) return reject(this.error)
            resolve(this.take())
          })
        }),
    )
  }

  end(): Promise<Uint8Array> {
    return this.run(
      () =>
        new Promise<Uint8Array>((resolve, reject) => {
          if (this.error !== undefined) return reject(this.error)
          this.failed = reject
          this.coder.once('end', () => {
            this.failed = undefined
            resolve(this.take())
          })
          this.coder.end()
        }),
    )
  }

  abort(): void {
    this.failed = undefined
    this.coder.removeAllListeners('data')
    this.coder.on('error', () => undefined)
    this.coder.destroy()
  }

  private take(): Uint8Array {
    const { chunks, size } = this
    this.chunks = []
    this.size = 0
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)
  }
}

/**
 * @example
 * const codec = createZlibHttpCodec(config)
 * const gz = await codec.compress('gzip', new TextEncoder().encode('hello'))
 */
export const createZlibHttpCodec = (config: CompressConfig): HttpCodec => {
  const limiter = createJobLimiter(config.concurrency)
  const run = <T>(job: () => Promise<T>): Promise<T> => limiter.run(job)
  const gzipOptions = { level: config.gzipLevel }
  const brotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: config.brotliQuality } }
  const zstdOptions = C.ZSTD_c_compressionLevel === undefined ? {} : { params: { [C.ZSTD_c_compressionLevel]: config.zstdLevel } }

  const whole = (coding: ContentCoding): [WholeCompress, object] =>
    coding === 'br'
      ? [zlib.brotliCompress as WholeCompress, brotliOptions]
      : coding === 'zstd'
        ? [zstd.zstdCompress as WholeCompress, zstdOptions]
        : [zlib.gzip as WholeCompress, gzipOptions]

  return {
    codings: zlibCodings(),
    compress: (coding, body) =>
      run(
        () =>
          new Promise<Uint8Array>((resolve, reject) => {
            const [compress, options] = whole(coding)
            compress(body, options, (error, out) => (error === null ? resolve(out) : reject(error)))
          }),
      ),
    stream: (coding, flushEach) => {
      const coder =
        coding === 'br'
          ? zlib.createBrotliCompress({ ...brotliOptions, ...(flushEach ? { flush: zlib.constants.BROTLI_OPERATION_FLUSH } : {}) })
          : coding === 'zstd'
            ? (zstd.createZstdCompress as (options: object) => Coder)({ ...zstdOptions, ...(flushEach ? { flush: C.ZSTD_e_flush } : {}) })
            : zlib.createGzip({ ...gzipOptions, ...(flushEach ? { flush: zlib.constants.Z_SYNC_FLUSH } : {}) })
      return new ZlibStream(coder, run)
    },
  }
}
