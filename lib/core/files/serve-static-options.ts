/**
 * `ServeStaticOptions`: how `serveStatic` answers, and `cacheControlOf`, its Cache-Control
 * policy. Pure and portable: no node:* imports.
 */
import type { HeaderInput } from '../http/normalize-headers.js'
import type { FileCacheOptions } from './file-cache.js'
import { isFingerprinted } from '../http/static/is-fingerprinted.js'
import type { RangeOptions } from '../http/static/select-ranges.js'
import type { StaticPathOptions } from '../http/static/resolve-static-path.js'

/** A precompressed sibling's coding: `app.js.br`, `app.js.gz`, `app.js.zst`. */
export type PrecompressedCoding = 'br' | 'gzip' | 'zstd'

/** Options of `serveStatic`; every one has a default. */
export interface ServeStaticOptions extends StaticPathOptions {
  /**
   * Where a path may lead once symbolic links are resolved: `'inside'` (the default) refuses
   * (403) a file whose real path is outside the root's, and a file with more than one hard
   * link (another name for it may be outside the root: a hard link cannot be traced back);
   * `'follow'` serves both.
   */
  readonly links?: 'inside' | 'follow'
  /**
   * A single-page app's entry (`'index.html'`, relative to the root): served with 200 for a
   * GET or HEAD whose path names no file and whose `Accept` has `text/html`, so client-side
   * routes load the app while a missing asset is still 404. None by default.
   */
  readonly fallback?: string
  /**
   * Cache-Control of files not fingerprinted (default `public, max-age=0`: cache, but
   * revalidate with the ETag every time), or a function of the served path (root-relative,
   * decoded) answering the value for every file (`undefined`: no Cache-Control).
   */
  readonly cacheControl?: string | ((path: string) => string | undefined)
  /**
   * Cache-Control of fingerprinted names (`app.3f9a1c2e.js`, see `isFingerprinted`):
   * default `public, max-age=31536000, immutable`; `false` treats them as any other file.
   */
  readonly immutable?: string | false
  /**
   * Precompressed siblings to look for, in the server's order of preference (`['br',
   * 'gzip']`): `app.js.br` is sent for `app.js` with `Content-Encoding: br` when the
   * request's Accept-Encoding prefers it, and every answer carries `Vary: Accept-Encoding`.
   * None by default (no extra look-ups).
   */
  readonly precompressed?: readonly PrecompressedCoding[]
  /** Range limits (`maxRanges`, `coalesceGap`); `false` ignores Range (always 200). */
  readonly ranges?: RangeOptions | false
  /** Headers added to every file answer (not to errors). */
  readonly headers?: HeaderInput
  /**
   * What is remembered between requests (see `FileCacheOptions`): a path's facts for
   * `revalidateMs` (default 1000 ms: a changed or deleted file is seen at most that late), and
   * the bytes of files up to `maxFileSize` (256 KiB), at most `maxEntries` paths (1,000) and
   * `maxBytes` (16 MiB) in all. `false`: a `stat` per request and every body read from disk.
   */
  readonly cache?: FileCacheOptions | false
  /** The multipart/byteranges boundary maker (default: 16 random bytes in hexadecimal). */
  readonly boundary?: () => string
}

const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'public, max-age=0'

/**
 * The Cache-Control value for a served file (root-relative path), or `undefined` for none.
 *
 * @example
 * cacheControlOf('app.3f9a1c2e.js', {}) // 'public, max-age=31536000, immutable'
 * cacheControlOf('index.html', {}) // 'public, max-age=0'
 * cacheControlOf('index.html', { cacheControl: 'no-cache' }) // 'no-cache'
 */
export const cacheControlOf = (path: string, options: ServeStaticOptions): string | undefined => {
  const policy = options.cacheControl
  if (typeof policy === 'function') return policy(path)
  const immutable = options.immutable ?? IMMUTABLE
  if (immutable !== false && isFingerprinted(path)) return immutable
  return policy ?? REVALIDATE
}
