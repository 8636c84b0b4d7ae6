/**
 * `bunFiles`: the Platform's `files` on Bun: the shared runtime layer's `node:fs` reader
 * (`statFile`, and `rangeReader`: a FileHandle read at positions), which Bun runs natively, in
 * pieces of 64 KiB, not Node's 256 KiB: with 256 KiB pieces a 1 MiB file under 50 keep-alive
 * connections stalled on Bun 1.4.5 (answers after more than 10 s, 34 req/s against 290 with
 * 64 KiB; bench/static-files.ts, session 10). Imports lib/runtime and the core, never another adapter.
 *
 * Not `Bun.file(path).slice(a, b)`: both its `stream()` and its `arrayBuffer()` were seen to
 * hang on a later piece of a file (Bun 1.4.5: the second 64 KiB read of the first request in a
 * process whose stdin is a pipe never settled), where the positional `node:fs` read does not.
 * docs/decisions.md "Static files" has the measurements.
 */
import type { StaticFiles } from '../core/http/static/static-files.js'
import { rangeReader, statFile } from '../runtime/node-files.js'

/** Bun's piece: see above. */
export const BUN_FILE_PIECE = 64 * 1024

/** The Platform's `files` on Bun. */
export const bunFiles: StaticFiles = { stat: statFile, read: rangeReader(BUN_FILE_PIECE) }
