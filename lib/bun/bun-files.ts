/**
 * `bunFiles`: the Platform's `files` on Bun: the shared runtime layer's `node:fs` reader
 * (`statFile`, and `readRange`: a FileHandle read at positions, in Node's 256 KiB pieces),
 * which Bun runs natively. Imports lib/runtime and the core, never another adapter.
 *
 * Bun once read in 64 KiB pieces because 256 KiB pieces stalled a 1 MiB file under 50
 * keep-alive connections (session 10). That stall was not the reader's: a piece written while
 * the answer's head was still corked put the backlog over the pump's high-water mark, the
 * uncork then gave the kernel all of it, and no `drain` (nor `writable`) ever woke the pump
 * (fixed in lib/bun/bun-socket-io.ts `uncork`; docs/decisions.md "Static files").
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
