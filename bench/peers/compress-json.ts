/**
 * The answer of bench/static-files.ts's compression workloads: a realistic JSON document of
 * about 100 KiB (a roster, bench/load/json-payload.ts), as bytes made once, so each
 * contender pays for compression and its own framework, not for serialising. Both
 * contenders import it, so they compress the same bytes.
 */
import { constants } from 'node:zlib'
import { jsonPayload } from '../load/json-payload.js'

/** Bytes of the document (UTF-8, ASCII in fact). */
export const JSON_BYTES: Uint8Array = new TextEncoder().encode(jsonPayload(100 * 1024))

/** The levels both contenders use: gzip 6 (zlib's default), Brotli 4 (@fastify/compress's and twinport's default). */
export const GZIP_LEVEL = 6
export const BROTLI_QUALITY = 4

/** `@fastify/compress` at these levels (threshold 1 KiB): the options of both Fastify peers. */
export const FASTIFY_COMPRESS_OPTIONS = {
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  threshold: 1024,
  zlibOptions: { level: GZIP_LEVEL },
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
}
