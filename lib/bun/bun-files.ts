/**
 * `bunFiles`: the Platform's `files` on Bun: the shared runtime layer's `node:fs` reader
 * (`statFile`, `readRange`: a FileHandle read at positions, 256 KiB at most per pull), which Bun runs
 * natively. Imports lib/runtime and the core, never another adapter.
 *
 * Not `Bun.file(path).slice(a, b)`: both its `stream()` and its `arrayBuffer()` were seen to
 * hang on a later piece of a file (Bun 1.4.5: the second 64 KiB read of the first request in a
 * process whose stdin is a pipe never settled), where the positional `node:fs` read does not.
 * docs/decisions.md "Static files" has the measurements.
 */
import type { StaticFiles } from '../core/http/static/static-files.js'
import { readRange, statFile } from '../runtime/node-files.js'

/** The Platform's `files` on Bun. */
export const bunFiles: StaticFiles = { stat: statFile, read: readRange }
