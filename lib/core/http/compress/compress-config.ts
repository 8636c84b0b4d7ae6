/**
 * The server's HTTP compression settings (the `compress` option, issue 30) as a value: which
 * content codings it may send, from what size, at what levels, and how many compression jobs
 * may run at once. `resolveCompressConfig` checks the option once at start-up.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'

/** A content coding the server can produce (RFC 9110 §8.4.1; zstd: RFC 8878). */
export type ContentCoding = 'br' | 'gzip' | 'zstd'

const CODINGS: readonly ContentCoding[] = Object.freeze(['br', 'zstd', 'gzip'] as const)

/** The settings, every field set. */
export interface CompressConfig {
  /** Compress at all. When `false`, answers leave as the handlers made them, at no cost. */
  readonly enabled: boolean
  /**
   * The codings offered, the preferred first (ties in Accept-Encoding go to the earlier one).
   * A coding the runtime lacks (zstd on Node 20) is dropped at start-up, with a log line.
   */
  readonly codings: readonly ContentCoding[]
  /** Bodies under this many bytes leave uncompressed (default 1 KiB); a streamed body of unknown length is compressed. */
  readonly threshold: number
  /** gzip level, 0–9 (default 6, zlib's). */
  readonly gzipLevel: number
  /** Brotli quality, 0–11 (default 4: near gzip's speed, smaller output; 11 is for precompressing). */
  readonly brotliQuality: number
  /** zstd level, 1–19 (default 3, zstd's). */
  readonly zstdLevel: number
  /** Compression jobs in the runtime's thread pool at once, across all answers (default 10). */
  readonly concurrency: number
  /**
   * URL path prefixes whose answers are compressed (`['/static/', '/api/reports']`); empty
   * (the default) for every path. Other paths pay one prefix check and nothing else.
   */
  readonly paths: readonly string[]
  /**
   * Bytes of compressed answers kept for reuse (default 8 MiB; 0: none). Only buffered answers
   * with a strong `ETag` are kept (a `serveStatic` file held in memory is one), keyed by the
   * request target, the ETag, the Content-Type and the coding: a small file is compressed once
   * per version, not once per request. An answer over a quarter of this is never kept.
   */
  readonly cacheBytes: number
}

/** Any subset of the settings; the rest take their defaults. */
export type CompressOptions = Partial<CompressConfig>

/**
 * The defaults, with compression off: `resolveCompressConfig(true)` turns them on.
 *
 * @example DEFAULT_COMPRESS_CONFIG.threshold // 1024
 */
export const DEFAULT_COMPRESS_CONFIG: CompressConfig = Object.freeze({
  enabled: false,
  codings: Object.freeze([...CODINGS]),
  threshold: 1024,
  gzipLevel: 6,
  brotliQuality: 4,
  zstdLevel: 3,
  concurrency: 10,
  paths: Object.freeze([]),
  cacheBytes: 8 * 1024 * 1024,
})

const isIntIn = (value: unknown, min: number, max: number): boolean => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max

const RANGES: ReadonlyArray<readonly [keyof CompressConfig, (v: unknown) => boolean, string]> = [
  ['threshold', (v) => isIntIn(v, 0, Number.MAX_SAFE_INTEGER), 'an integer of 0 or more'],
  ['gzipLevel', (v) => isIntIn(v, 0, 9), 'an integer from 0 to 9'],
  ['brotliQuality', (v) => isIntIn(v, 0, 11), 'an integer from 0 to 11'],
  ['zstdLevel', (v) => isIntIn(v, 1, 19), 'an integer from 1 to 19'],
  ['cacheBytes', (v) => isIntIn(v, 0, Number.MAX_SAFE_INTEGER), 'an integer of 0 or more'],
  ['concurrency', (v) => v === Infinity || isIntIn(v, 1, Number.MAX_SAFE_INTEGER), 'an integer of 1 or more, or Infinity'],
]

/**
 * `undefined` or `false`: off. `true`: on with the defaults. An object: on (unless it says
 * `enabled: false`), its fields over the defaults. `Left` is the line to show for the first
 * bad field (`compress.gzipLevel: expected …`).
 *
 * @example
 * resolveCompressConfig({ threshold: 256 }) // Right({ ...DEFAULT_COMPRESS_CONFIG, enabled: true, threshold: 256 })
 * resolveCompressConfig({ codings: ['lzma'] }) // Left('compress.codings: expected a list of "br", "gzip", "zstd", got ["lzma"]')
 */
export const resolveCompressConfig = (option: unknown): E.Either<string, CompressConfig> => {
  if (option === undefined || option === false) return E.right(DEFAULT_COMPRESS_CONFIG)
  if (option === true) return E.right({ ...DEFAULT_COMPRESS_CONFIG, enabled: true })
  if (typeof option !== 'object' || option === null || Array.isArray(option)) return E.left(`compress: expected true, false or an object of settings, got ${show(option)}`)
  const given = Object.fromEntries(Object.entries(option).filter(([, v]) => v !== undefined)) as Record<string, unknown>
  for (const name of Object.keys(given)) {
    if (!(name in DEFAULT_COMPRESS_CONFIG)) return E.left(`compress.${name}: not a compression setting (known: ${Object.keys(DEFAULT_COMPRESS_CONFIG).join(', ')})`)
  }
  const config = { ...DEFAULT_COMPRESS_CONFIG, enabled: true, ...given } as CompressConfig
  if (typeof config.enabled !== 'boolean') return E.left(`compress.enabled: expected true or false, got ${show(config.enabled)}`)
  const codings: unknown = config.codings
  if (!Array.isArray(codings) || !codings.every((c) => (CODINGS as readonly unknown[]).includes(c))) {
    return E.left(`compress.codings: expected a list of "br", "gzip", "zstd", got ${show(codings)}`)
  }
  const paths: unknown = config.paths
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string' && p.startsWith('/'))) {
    return E.left(`compress.paths: expected a list of paths starting with "/", got ${show(paths)}`)
  }
  for (const [name, ok, expected] of RANGES) {
    if (!ok(config[name])) return E.left(`compress.${name}: expected ${expected}, got ${show(config[name])}`)
  }
  return E.right({ ...config, codings: Object.freeze([...new Set(codings as ContentCoding[])]), paths: Object.freeze([...(paths as string[])]) })
}

const show = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
