/**
 * The engine's `Platform` over Node's API: `net.Socket` operations (node-socket-io.ts),
 * Node's timers (unref'd, so a server's timers never keep the process alive on their own),
 * Node's native UTF-8 frame writer, SHA-1 and pooled buffers, the console logger, and
 * `node:zlib` for permessage-deflate, and the open-file limit from `/proc/self/limits`. Node's adapter serves with it, and so does Deno's
 * with TLS (on Deno's `node:net` and `node:tls`). Part of the shared runtime layer
 * (lib/runtime/): imports the core, the engine and `node:*`, never an adapter.
 */
import { Buffer } from 'node:buffer'
import type { Socket } from 'node:net'
import type { Platform } from '../engine/platform.js'
import { nodeCompatParts } from './node-compat-parts.js'
import { nodeFiles } from './node-files.js'
import { nodeFrames } from './node-frames.js'
import { nodeSocketIo } from './node-socket-io.js'
import { nodeTimers } from './node-timers.js'
import { openFileLimit } from './open-file-limit.js'

// Buffer's latin1 reader works on any Uint8Array; for bytes below 0x80 it reads ASCII.
const latin1Slice = Buffer.prototype.latin1Slice

/** The Platform over Node's API, for a server on `node:net`. */
export const nodePlatform: Platform<Socket> = {
  ...nodeCompatParts,
  io: nodeSocketIo,
  timers: nodeTimers,
  frames: nodeFrames,
  allocate: (size) => Buffer.allocUnsafe(size),
  decodeAscii: (bytes, from, to) => latin1Slice.call(bytes, from, to),
  files: nodeFiles,
  openFileLimit,
}
