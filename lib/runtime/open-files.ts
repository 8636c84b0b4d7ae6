/**
 * `createOpenFiles`: open file handles kept for reuse between requests, as nginx's
 * `open_file_cache` keeps descriptors: a large file served again and again is opened once, not
 * once per request (an open and a close are two trips through the thread pool). A handle is
 * kept only for the version the caller expects (size and modification time, the ETag's own
 * inputs), checked with `fstat` when it is opened, so a file replaced by a rename is opened
 * again under its new version; a handle unused for `idleMs` is closed, and at most `maxOpen`
 * are kept. Part of the shared runtime layer (lib/runtime/): imports `node:*`, never an adapter.
 */
import { type FileHandle, open } from 'node:fs/promises'
import { clearTimeout, setTimeout } from 'node:timers'

/** The version of a file a reader expects: its size and modification time (ms). */
export interface FileVersion {
  readonly size: number
  readonly mtimeMs: number
}

/** A handle lent to one reader; `release()` once done (the handle stays open for the next). */
export interface OpenFileLease {
  readonly handle: FileHandle
  release(): Promise<void>
}

/** The kept handles. */
export interface OpenFiles {
  /** A handle on `path`; kept for reuse when the file is at `version`. */
  acquire(path: string, version: FileVersion | undefined): Promise<OpenFileLease>
  /** How many handles are open and kept. */
  readonly size: number
  /** Closes every kept handle not lent out. */
  closeIdle(): Promise<void>
}

interface Kept {
  readonly key: string
  readonly handle: FileHandle
  users: number
  idle: ReturnType<typeof setTimeout> | undefined
}

const keyOf = (path: string, version: FileVersion): string => `${Math.floor(version.mtimeMs)}:${version.size}:${path}`

/**
 * @example
 * const files = createOpenFiles({ maxOpen: 64, idleMs: 5000 })
 * const lease = await files.acquire('/srv/www/video.mp4', { size, mtimeMs })
 * try { await lease.handle.read(buffer, 0, 65536, 0) } finally { await lease.release() }
 */
export const createOpenFiles = (options: { readonly maxOpen: number; readonly idleMs: number }): OpenFiles => {
  const kept = new Map<string, Kept>()

  const close = (entry: Kept): Promise<void> => {
    if (entry.idle !== undefined) clearTimeout(entry.idle)
    kept.delete(entry.key)
    return entry.handle.close().catch(() => undefined)
  }

  // Over the bound: close the oldest handles nobody is reading.
  const trim = (): void => {
    for (const entry of kept.values()) {
      if (kept.size <= options.maxOpen) return
      if (entry.users === 0) void close(entry)
    }
  }

  const lend = (entry: Kept): OpenFileLease => {
    entry.users++
    if (entry.idle !== undefined) clearTimeout(entry.idle)
    entry.idle = undefined
    let released = false
    return {
      handle: entry.handle,
      release: async () => {
        if (released) return
        released = true
        entry.users--
        if (entry.users > 0 || kept.get(entry.key) !== entry) {
          if (entry.users === 0) await entry.handle.close().catch(() => undefined)
          return
        }
        entry.idle = setTimeout(() => void close(entry), options.idleMs)
        entry.idle.unref()
      },
    }
  }

  const owned = (handle: FileHandle): OpenFileLease => ({ handle, release: () => handle.close().catch(() => undefined) })

  return {
    async acquire(path, version) {
      if (version === undefined || options.maxOpen <= 0) return owned(await open(path, 'r'))
      const key = keyOf(path, version)
      const hit = kept.get(key)
      if (hit !== undefined) return lend(hit)
      const handle = await open(path, 'r')
      let same = false
      try {
        const s = await handle.stat()
        same = s.size === version.size && Math.floor(s.mtimeMs) === Math.floor(version.mtimeMs)
      } catch {
        same = false
      }
      if (!same) return owned(handle)
      // Another reader opened it meanwhile: use that one.
      const raced = kept.get(key)
      if (raced !== undefined) {
        await handle.close().catch(() => undefined)
        return lend(raced)
      }
      const entry: Kept = { key, handle, users: 0, idle: undefined }
      kept.set(key, entry)
      const lease = lend(entry)
      trim()
      return lease
    },
    get size() {
      return kept.size
    },
    async closeIdle() {
      await Promise.all([...kept.values()].filter((e) => e.users === 0).map(close))
    },
  }
}
