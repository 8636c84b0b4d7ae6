/**
 * `createFileCache`: what `serveStatic` remembers between requests, so that a hot file costs
 * no file-system call at all: the facts of a path (`stat`, links resolved), trusted for
 * `revalidateMs` and then checked again; the whole bytes of small files, keyed by path and
 * ETag; and the validator fields (ETag, Last-Modified) made once per version of a file.
 * Bounded in entries and in bytes; least recently used first out.
 *
 * Pure and portable: no node:* imports (the file access and the clock come in).
 */
import { joinBytes } from '../join-bytes.js'
import { etagOf } from '../http/static/etag-of.js'
import { lastModifiedOf } from '../http/static/last-modified-of.js'
import type { FileInfo, StaticFiles } from '../http/static/static-files.js'

/** The `cache` option of `serveStatic`: every field has a default. */
export interface FileCacheOptions {
  /**
   * How long (ms) the facts of a path are trusted before a request checks them again with one
   * `stat`: a changed, replaced or deleted file is seen at most this long after the change.
   * Default 1000; 0 checks on every request (the bytes are still cached by ETag).
   */
  readonly revalidateMs?: number
  /** The most paths remembered (default 1,000). */
  readonly maxEntries?: number
  /** The most file bytes held, all files together (default 16 MiB). */
  readonly maxBytes?: number
  /** Files larger than this (bytes) are streamed from disk, never held (default 256 KiB: one read piece). */
  readonly maxFileSize?: number
}

/** A file's facts as cached, with its validators made once. */
export interface CachedInfo {
  readonly info: FileInfo
  /** `etagOf(size, mtimeMs)`. */
  readonly etag: string
  /** The Last-Modified value; recomputed while the modification time is in the future. */
  lastModified(nowMs: number | undefined): string
}

/** A server's (one route table's) file cache. */
export interface FileCache {
  /** The facts of `path`: remembered ones while fresh, else a `stat` (an absent file is forgotten). */
  stat(files: StaticFiles, path: string, nowMs: number | undefined): Promise<CachedInfo | undefined>
  /**
   * The remembered facts of `path` while fresh, without a `stat` or a promise (`undefined`
   * when not remembered or due for a `stat`): the static route's answer from memory.
   */
  fresh(path: string, nowMs: number | undefined): CachedInfo | undefined
  /**
   * The whole bytes of a small file whose facts are `cached` (read once per ETag, then from
   * memory), or `undefined` when the file is too large for the cache or changed while read.
   */
  bytes(files: StaticFiles, path: string, cached: CachedInfo): Promise<Uint8Array | undefined>
  /** The bytes of `cached` when already held (nothing is read). */
  held(path: string, cached: CachedInfo): Uint8Array | undefined
  /** How much is held: paths and file bytes. */
  readonly size: { readonly entries: number; readonly bytes: number }
}

interface Entry {
  readonly cached: CachedInfo
  readonly checkedAt: number
  /** The file's bytes for `cached.etag`, once read. */
  bytes: Uint8Array | undefined
}

const DEFAULTS = Object.freeze({ revalidateMs: 1000, maxEntries: 1000, maxBytes: 16 * 1024 * 1024, maxFileSize: 256 * 1024 } as const)

const describe = (info: FileInfo): CachedInfo => {
  const etag = etagOf(info.size, info.mtimeMs)
  // A past modification time stays past: its field is made once. A future one (clock skew, a
  // `touch -d`) is clamped to the answer's time by `lastModifiedOf`, so it is made each time.
  let made: string | undefined
  return {
    info,
    etag,
    lastModified: (nowMs) => {
      if (made !== undefined) return made
      const value = lastModifiedOf(info.mtimeMs, nowMs)
      if (nowMs !== undefined && info.mtimeMs <= nowMs) made = value
      return value
    },
  }
}

const sameVersion = (a: FileInfo, b: FileInfo): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.realPath === b.realPath && a.kind === b.kind && a.links === b.links

/**
 * A file cache with `options`' bounds. Without a clock (`nowMs` undefined, a context made in
 * a test) every request stats; the bytes are still kept per ETag.
 *
 * @example
 * const cache = createFileCache({ revalidateMs: 500 })
 * const found = await cache.stat(files, '/srv/www/app.js', Date.now())
 * const bytes = found === undefined ? undefined : await cache.bytes(files, '/srv/www/app.js', found)
 */
export const createFileCache = (options: FileCacheOptions = {}): FileCache => {
  const revalidateMs = Math.max(0, options.revalidateMs ?? DEFAULTS.revalidateMs)
  const maxEntries = Math.max(0, options.maxEntries ?? DEFAULTS.maxEntries)
  const maxBytes = Math.max(0, options.maxBytes ?? DEFAULTS.maxBytes)
  const maxFileSize = Math.min(maxBytes, Math.max(0, options.maxFileSize ?? DEFAULTS.maxFileSize))
  // Insertion order is recency: a hit moves its entry to the end, eviction takes the first.
  const entries = new Map<string, Entry>()
  let heldBytes = 0

  const drop = (path: string): void => {
    const entry = entries.get(path)
    if (entry === undefined) return
    heldBytes -= entry.bytes?.length ?? 0
    entries.delete(path)
  }

  const evict = (): void => {
    for (const path of entries.keys()) {
      if (entries.size <= maxEntries && heldBytes <= maxBytes) return
      drop(path)
    }
  }

  const remember = (path: string, entry: Entry): void => {
    drop(path)
    if (maxEntries === 0) return
    entries.set(path, entry)
    heldBytes += entry.bytes?.length ?? 0
    evict()
  }

  const fresh = (path: string, nowMs: number | undefined): CachedInfo | undefined => {
    const entry = entries.get(path)
    if (entry === undefined || nowMs === undefined || nowMs - entry.checkedAt >= revalidateMs || nowMs < entry.checkedAt) return undefined
    entries.delete(path)
    entries.set(path, entry)
    return entry.cached
  }

  const stat = async (files: StaticFiles, path: string, nowMs: number | undefined): Promise<CachedInfo | undefined> => {
    const remembered = fresh(path, nowMs)
    if (remembered !== undefined) return remembered
    const info = await files.stat(path)
    if (info === undefined) {
      drop(path)
      return undefined
    }
    // The same version: keep its bytes and validators, trust it for another window.
    const current = entries.get(path)
    const cached = current !== undefined && sameVersion(current.cached.info, info) ? current.cached : describe(info)
    const bytes = current !== undefined && current.cached === cached ? current.bytes : undefined
    remember(path, { cached, checkedAt: nowMs ?? Number.NEGATIVE_INFINITY, bytes })
    return cached
  }

  const held = (path: string, cached: CachedInfo): Uint8Array | undefined => {
    const entry = entries.get(path)
    return entry !== undefined && entry.cached === cached ? entry.bytes : undefined
  }

  const bytes = async (files: StaticFiles, path: string, cached: CachedInfo): Promise<Uint8Array | undefined> => {
    const { info } = cached
    if (info.kind !== 'file' || info.size > maxFileSize || maxEntries === 0) return undefined
    const kept = held(path, cached)
    if (kept !== undefined) return kept
    const pieces: Uint8Array[] = []
    let total = 0
    for await (const piece of files.read(info.realPath, 0, info.size - 1)) {
      pieces.push(piece)
      total += piece.length
      if (total > info.size) break
    }
    // A file written while it was read (shorter, longer): send nothing from it; the stream
    // path reads it again and its length check ends the answer.
    if (total !== info.size) return undefined
    // Own the bytes: a runtime's piece may be a view into a buffer it reuses.
    const whole = pieces.length === 1 ? (pieces[0] as Uint8Array).slice() : joinBytes(pieces, total)
    const now = entries.get(path)
    if (now !== undefined && now.cached === cached) {
      heldBytes += whole.length - (now.bytes?.length ?? 0)
      now.bytes = whole
      evict()
    }
    return whole
  }

  return {
    stat,
    fresh,
    bytes,
    held,
    get size() {
      return { entries: entries.size, bytes: heldBytes }
    },
  }
}
