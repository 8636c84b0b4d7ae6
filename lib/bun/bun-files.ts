/**
 * `bunFiles`: the Platform's `files` on Bun: `Bun.file(path).slice(first, last + 1).stream()`
 * for the bytes (Bun's own file reading, nothing opened until the first pull), and
 * `node:fs`'s realpath and stat (Bun's file reference has no link count or real path) from
 * the shared runtime layer. Imports the core, lib/runtime and this folder, never another
 * adapter.
 */
import type { StaticFiles } from '../core/http/static/static-files.js'
import { readRange, statFile } from '../runtime/node-files.js'
import { bunApi } from './bun-api.js'

/**
 * Bytes `first` to `last` of `path` through `Bun.file`, read as pulled; `return()` cancels
 * the stream (and Bun closes the file).
 *
 * @example
 * for await (const piece of bunRead('/srv/www/app.js', 0, 99)) socket.write(piece)
 */
export async function* bunRead(path: string, first: number, last: number): AsyncGenerator<Uint8Array> {
  const bun = bunApi()
  if (bun === undefined) return yield* readRange(path, first, last)
  const reader = bun.file(path).slice(first, last + 1).stream().getReader()
  let done = false
  try {
    for (;;) {
      const next = await reader.read()
      if (next.done) {
        done = true
        return
      }
      yield next.value
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined)
  }
}

/** The Platform's `files` on Bun. */
export const bunFiles: StaticFiles = { stat: statFile, read: bunRead }
