/**
 * `createPerMessageDeflate`: the `DeflateCodec` (lib/core/ws/extensions/message-codec.ts)
 * on `node:zlib`, for permessage-deflate (RFC 7692). The engine negotiates with the pure
 * core and frames the messages; this file only compresses and inflates.
 *
 * Memory follows the negotiated context takeover (docs/decisions.md, "permessage-deflate"):
 *
 * - `server_no_context_takeover`: the connections share one pool of compressors per window
 *   size, reset after every message; a connection holds none (and a broadcast is compressed
 *   once). With context takeover, a connection gets its own compressor on its first
 *   compressed message, and keeps it (about 256 KiB of zlib state at the default window).
 * - `client_no_context_takeover`: inflaters come from a shared pool too. With context
 *   takeover, a connection gets its own inflater on its first compressed message (about
 *   40 KiB at the default window).
 *
 * Every zlib job of the codec goes through one `JobLimiter` of `config.concurrency` slots.
 * Each compressor and decompressor settles its promises in the order of the calls.
 *
 * Part of the shared runtime layer (lib/runtime/): all three adapters use it (Bun and Deno provide `node:zlib`);
 * imports the core, the engine and `node:*`, never an adapter.
 */
import type { Either } from 'fp-ts/lib/Either.js'
import type { DeflateConfig } from '../../core/ws/extensions/deflate-config.js'
import type { DeflateParams } from '../../core/ws/extensions/deflate-params.js'
import type { DeflateCodec, MessageCompressor, MessageDecompressor } from '../../core/ws/extensions/message-codec.js'
import type { WsError } from '../../core/ws/ws-error.js'
import { Deflater, type DeflaterOptions } from './deflater.js'
import { Inflater } from './inflater.js'
import { createJobLimiter, type JobLimiter } from '../../engine/deflate/job-limiter.js'
import { createStreamPool, type StreamPool } from '../../engine/deflate/stream-pool.js'

// Streams in one shared pool: enough to keep every limiter slot busy, and a bound when the
// limit is Infinity.
const MAX_SHARED_STREAMS = 16

// A connection's own compressor (context takeover): one stream, made on first use.
class OwnCompressor implements MessageCompressor {
  private pool: StreamPool<Deflater> | undefined = undefined

  constructor(
    private readonly options: DeflaterOptions,
    private readonly limiter: JobLimiter,
  ) {}

  compress(message: Uint8Array): Promise<Uint8Array> {
    const options = this.options
    this.pool ??= createStreamPool({ make: () => new Deflater(options), size: 1, resetAfterJob: false, limiter: this.limiter })
    return this.pool.run((deflater) => deflater.compress(message))
  }

  close(): void {
    this.pool?.close()
  }
}

// A connection's own inflater (context takeover): one stream, made on first use.
class OwnDecompressor implements MessageDecompressor {
  private pool: StreamPool<Inflater> | undefined = undefined

  constructor(
    private readonly windowBits: number,
    private readonly limiter: JobLimiter,
  ) {}

  decompress(payload: Uint8Array, maxMessage: number): Promise<Either<WsError, Uint8Array>> {
    const windowBits = this.windowBits
    this.pool ??= createStreamPool({ make: () => new Inflater(windowBits), size: 1, resetAfterJob: false, limiter: this.limiter })
    return this.pool.run((inflater) => inflater.decompress(payload, maxMessage))
  }

  close(): void {
    this.pool?.close()
  }
}

// A view of a shared pool: closing it through one connection leaves the pool alone.
class SharedCompressor implements MessageCompressor {
  constructor(private readonly pool: StreamPool<Deflater>) {}

  compress(message: Uint8Array): Promise<Uint8Array> {
    return this.pool.run((deflater) => deflater.compress(message))
  }

  close(): void {}
}

class SharedDecompressor implements MessageDecompressor {
  constructor(private readonly pool: StreamPool<Inflater>) {}

  decompress(payload: Uint8Array, maxMessage: number): Promise<Either<WsError, Uint8Array>> {
    return this.pool.run((inflater) => inflater.decompress(payload, maxMessage))
  }

  close(): void {}
}

/**
 * The Node codec for a server's permessage-deflate settings (`resolveDeflateConfig`).
 *
 * @example
 * const codec = createPerMessageDeflate(config)
 * const compressor = codec.createCompressor(agreement.params)
 * const payload = await compressor.compress(new TextEncoder().encode('Hello'))
 * // f2 48 cd c9 c9 07 00: send it with RSV1 set on the first frame
 * const message = await codec.createDecompressor(agreement.params).decompress(payload, 1 << 20)
 * // Right('Hello' as bytes)
 */
export const createPerMessageDeflate = (config: DeflateConfig): DeflateCodec => {
  const limiter = createJobLimiter(config.concurrency)
  const sharedSize = Math.min(config.concurrency, MAX_SHARED_STREAMS)
  const deflaterOptions = (windowBits: number): DeflaterOptions => ({ windowBits, level: config.level, memLevel: config.memLevel })
  const compressors = new Map<number, SharedCompressor>()
  const decompressors = new Map<number, SharedDecompressor>()
  const pools: Array<StreamPool<Deflater> | StreamPool<Inflater>> = []

  const sharedCompressor = (windowBits: number): MessageCompressor => {
    let shared = compressors.get(windowBits)
    if (shared === undefined) {
      const options = deflaterOptions(windowBits)
      const pool = createStreamPool({ make: () => new Deflater(options), size: sharedSize, resetAfterJob: true, limiter })
      pools.push(pool)
      shared = new SharedCompressor(pool)
      compressors.set(windowBits, shared)
    }
    return shared
  }

  const sharedDecompressor = (windowBits: number): MessageDecompressor => {
    let shared = decompressors.get(windowBits)
    if (shared === undefined) {
      const pool = createStreamPool({ make: () => new Inflater(windowBits), size: sharedSize, resetAfterJob: true, limiter })
      pools.push(pool)
      shared = new SharedDecompressor(pool)
      decompressors.set(windowBits, shared)
    }
    return shared
  }

  return {
    createCompressor: (params: DeflateParams) =>
      params.serverNoContextTakeover
        ? sharedCompressor(params.serverMaxWindowBits)
        : new OwnCompressor(deflaterOptions(params.serverMaxWindowBits), limiter),
    createDecompressor: (params: DeflateParams) =>
      params.clientNoContextTakeover ? sharedDecompressor(params.clientMaxWindowBits) : new OwnDecompressor(params.clientMaxWindowBits, limiter),
    sharedCompressor,
    close: () => {
      for (const pool of pools) pool.close()
    },
  }
}
