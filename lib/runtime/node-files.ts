/**
 * `nodeFiles`: the Platform's `files` over `node:fs` (realpath, stat, a FileHandle read at
 * positions), for Node, for Deno (its `node:fs`), and for Bun (which runs `node:fs` natively). A
 * range is read in pieces of at most 256 KiB, each into a buffer no one else holds (the engine
 * may still hold the last piece while the next is read): lent from a pool when the consumer
 * gives pieces back (the core's `LentSource`: the engine's pump, once the socket took them),
 * else fresh. The file is opened only at the first pull. Part of the shared runtime layer
 * (lib/runtime/): imports the core and `node:*`, never an adapter.
 */
import { Buffer } from 'node:buffer'
import { open, realpath, stat } from 'node:fs/promises'
import type { LentSource } from '../core/http/lent-source.js'
import type { FileInfo, StaticFiles } from '../core/http/static/static-files.js'
import { createOpenFiles, type OpenFiles } from './open-files.js'
import { createPiecePool, type PiecePool } from './piece-pool.js'

/**
 * The largest piece read at once. Each piece is a trip through the runtime's thread pool and
 * one socket write; with the server on one core those trips, not the copying, were most of a
 * large file's cost (bench/static-files.ts, session 10: a 1 MiB file in 64 KiB pieces took
 * about a quarter more server CPU than in 256 KiB pieces). 256 KiB bounds what one answer
 * holds beyond the pump's 64 KiB backlog, and stays well under a loopback socket's buffer.
 */
export const FILE_PIECE = 256 * 1024

/**
 * The facts of `path` with its links resolved, or `undefined` when absent or unreadable.
 *
 * @example
 * const info = await statFile('/srv/www/index.html') // { kind: 'file', realPath: '/srv/www/index.html', size: 512, … }
 */
export const statFile = async (path: string): Promise<FileInfo | undefined> => {
  try {
    const real = await realpath(path)
    const s = await stat(real)
    const kind = s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other'
    return { kind, realPath: real, size: s.size, mtimeMs: s.mtimeMs, links: s.nlink }
  } catch {
    return undefined
  }
}

/**
 * A reader of byte ranges in pieces of at most `piece` bytes (`readRange` is the one of
 * `FILE_PIECE`, which Node, Deno and Bun read with).
 *
 * @example
 * const read = rangeReader(64 * 1024)
 * for await (const piece of read('/srv/www/app.js', 0, 99)) socket.write(piece)
 */
export const rangeReader =
  (piece: number): StaticFiles['read'] =>
  async function* (path: string, first: number, last: number): AsyncGenerator<Uint8Array> {
    const handle = await open(path, 'r')
    try {
      let position = first
      while (position <= last) {
        const want = Math.min(piece, last - position + 1)
        const bytes = Buffer.allocUnsafe(want)
        const { bytesRead } = await handle.read(bytes, 0, want, position)
        // The file got shorter since its stat: end here (the client sees a short body and the
        // connection closed by the engine's length check), never pad.
        if (bytesRead === 0) return
        position += bytesRead
        yield bytesRead === want ? bytes : bytes.subarray(0, bytesRead)
      }
    } finally {
      await handle.close()
    }
  }

/**
 * A reader like `rangeReader`'s whose files stay open between requests (`createOpenFiles`):
 * a read that names the version it expects reuses the handle kept for that version. With a
 * `pool`, its sources lend their pieces (`LentSource`): each read takes a buffer from the pool,
 * and a piece given back returns to it.
 *
 * @example
 * const read = keptRangeReader(FILE_PIECE, createOpenFiles({ maxOpen: 64, idleMs: 5000 }), createPiecePool({ size: FILE_PIECE, max: 32 }))
 * for await (const piece of read('/srv/www/video.mp4', 0, 99, { size, mtimeMs })) socket.write(piece)
 */
export const keptRangeReader =
  (piece: number, files: OpenFiles, pool?: PiecePool): StaticFiles['read'] =>
  (path, first, last, version) => {
    async function* pieces(): AsyncGenerator<Uint8Array> {
      const lease = await files.acquire(path, version)
      try {
        let position = first
        while (position <= last) {
          const want = Math.min(piece, last - position + 1)
          const bytes = pool === undefined ? Buffer.allocUnsafe(want) : pool.take(want)
          const { bytesRead } = await lease.handle.read(bytes, 0, want, position)
          if (bytesRead === 0) return pool?.give(bytes)
          position += bytesRead
          yield bytesRead === want ? bytes : bytes.subarray(0, bytesRead)
        }
      } finally {
        await lease.release()
      }
    }
    if (pool === undefined) return pieces()
    const source: LentSource = Object.assign(pieces(), { releasePiece: (bytes: Uint8Array) => pool.give(bytes) })
    return source
  }

/**
 * Handles kept open at once by the runtimes' shared reader (`nodeFiles`), and how long an unused
 * one stays open. 64 descriptors is little against the open-file limit (the server's
 * `maxConnections` leaves room); 5 s keeps a hot file open across a page load's requests.
 */
export const OPEN_FILES = { maxOpen: 64, idleMs: 5000 } as const

/**
 * Read buffers kept for reuse by the runtimes' shared reader: 32 of `FILE_PIECE` (8 MiB at
 * most, idle). Fifty 1 MiB answers at once hold one or two pieces each; the pool only needs to
 * cover the ebb and flow of that number, not the whole of it.
 */
export const POOLED_PIECES = 32

/**
 * Bytes `first` to `last` of `path`, read as pulled, in pieces of at most `FILE_PIECE`, the
 * file's handle kept open for the next read of the same version (`OPEN_FILES`), the pieces lent
 * from a pool of `POOLED_PIECES` buffers.
 *
 * @example
 * for await (const piece of readRange('/srv/www/app.js', 0, 99)) socket.write(piece)
 */
export const readRange: StaticFiles['read'] = keptRangeReader(FILE_PIECE, createOpenFiles(OPEN_FILES), createPiecePool({ size: FILE_PIECE, max: POOLED_PIECES }))

/** The Platform's `files` over `node:fs`. */
export const nodeFiles: StaticFiles = { stat: statFile, read: readRange }
