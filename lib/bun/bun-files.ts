/**
 * `bunFiles`: the Platform's `files` on Bun: `Bun.file(path).slice(…)` for the bytes (Bun's
 * own file reading, nothing read until the first pull), and
 * `node:fs`'s realpath and stat (Bun's file reference has no link count or real path) from
 * the shared runtime layer. Imports the core, lib/runtime and this folder, never another
 * adapter.
 */
import type { StaticFiles } from '../core/http/static/static-files.js'
import { FILE_PIECE, readRange, statFile } from '../runtime/node-files.js'
import { bunApi } from './bun-api.js'

/**
 * Bytes `first` to `last` of `path` through `Bun.file(path).slice(…).arrayBuffer()`, one
 * piece of at most FILE_PIECE bytes per pull (a positional read each; a file of up to 64 KiB
 * is one call). Nothing stays open between pulls, so a cancelled answer leaves nothing to
 * close. (Bun's `stream()` of a slice was tried first: after an earlier stream was
 * cancelled, the next one stalled after its first piece, with Bun 1.x.)
 *
 * @example
 * for await (const piece of bunRead('/srv/www/app.js', 0, 99)) socket.write(piece)
 */
export async function* bunRead(path: string, first: number, last: number): AsyncGenerator<Uint8Array> {
  const bun = bunApi()
  if (bun === undefined) return yield* readRange(path, first, last)
  const file = bun.file(path)
  let position = first
  while (position <= last) {
    const end = Math.min(last + 1, position + FILE_PIECE)
    const piece = new Uint8Array(await file.slice(position, end).arrayBuffer())
    // The file got shorter since its stat: end here, never pad.
    if (piece.length === 0) return
    position += piece.length
    yield piece
  }
}

/** The Platform's `files` on Bun. */
export const bunFiles: StaticFiles = { stat: statFile, read: bunRead }
