/**
 * `nodeSocketIo`: the engine's `SocketIo` over a `node:net` socket (a `TLSSocket` too), with
 * a lazy cork and reused Buffer views. Used wherever a server listens through `node:net`:
 * Node's adapter, and Deno's with TLS (lib/deno/tls-server.ts). Part of the shared runtime
 * layer (lib/runtime/): imports the engine's types and `node:*` only, never an adapter.
 */
import { Buffer } from 'node:buffer'
import type { Socket } from 'node:net'
import type { SocketIo } from '../engine/platform.js'

// `socket.write` wraps a Uint8Array that is not a Buffer in a new Buffer view on every call
// (tens of nanoseconds, and an object for the scavenger). The engine often writes the same
// bytes again and again (a remembered response, a broadcast frame): from an array's second
// write on, its view is kept and reused until another array is written. A first write is
// left to Node's own conversion (cheaper than `Buffer.from`). Only small arrays are kept:
// the view pins their memory.
const REMEMBER_MAX = 64 * 1024
let lastArray: Uint8Array | undefined
let lastView: Buffer | undefined

// `bytes` as `socket.write` takes it best: a Buffer when there is one to reuse. A Buffer (the
// echoes of a chunk, framed into one from the pool) goes as it is and is not remembered: it
// needs no view, and reading its `buffer` to size it up costs more than the check.
const asChunk = (bytes: Uint8Array): Uint8Array => {
  if (bytes instanceof Buffer) return bytes
  if (bytes !== lastArray) {
    lastArray = bytes.buffer.byteLength <= REMEMBER_MAX ? bytes : undefined
    lastView = undefined
    return bytes
  }
  if (lastView !== undefined) return lastView
  lastView = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  return lastView
}

// A cork costs Node a buffered-write record and a pass through `clearBuffer` at the uncork
// (about 0.17 µs of server CPU per WebSocket echo under load), and most corks hold one write
// (one echo for the one frame of a chunk). So one socket at a time is corked lazily: its
// first write is kept aside; a second write, a nested cork or an `end` corks it for real
// (the kept write first); the last uncork writes a lone kept write as it is. Other sockets,
// and a socket that is already corked, are corked for real. What leaves, and in what
// order, is the same either way.
let lazy: Socket | undefined
let lazyDepth = 0 // cork calls on `lazy` not yet uncorked
let lazyReal = false // `lazy` has been corked for real
let kept: Uint8Array | undefined // the one write held aside

const corkForReal = (socket: Socket): void => {
  lazyReal = true
  socket.cork()
  if (kept !== undefined) {
    const bytes = kept
    kept = undefined
    socket.write(asChunk(bytes))
  }
}

/** The engine's socket operations on a `net.Socket`; the lazy cork is one socket at a time, per process. */
export const nodeSocketIo: SocketIo<Socket> = {
  write: (socket, bytes) => {
    if (socket === lazy && !lazyReal && !socket.destroyed) {
      if (kept === undefined) {
        kept = bytes
        return
      }
      corkForReal(socket)
    }
    socket.write(asChunk(bytes))
  },
  buffered: (socket) => socket.writableLength + (socket === lazy && kept !== undefined ? kept.length : 0),
  isClosed: (socket) => socket.destroyed,
  isEnded: (socket) => socket.writableEnded,
  end: (socket, bytes) => {
    if (socket === lazy && !lazyReal) corkForReal(socket)
    if (bytes === undefined) socket.end()
    else socket.end(asChunk(bytes))
  },
  destroy: (socket) => {
    if (socket === lazy) kept = undefined
    socket.destroy()
  },
  cork: (socket) => {
    // A socket left corked when it closed (its batch skips a closed socket) frees the slot.
    if (lazy !== undefined && lazy !== socket && lazy.destroyed) {
      lazy = undefined
      lazyReal = false
      kept = undefined
    }
    if (socket === lazy) {
      lazyDepth += 1
      if (!lazyReal) corkForReal(socket)
      socket.cork()
    } else if (lazy === undefined && socket.writableCorked === 0 && !socket.destroyed) {
      lazy = socket
      lazyDepth = 1
      lazyReal = false
    } else socket.cork()
  },
  pause: (socket) => void socket.pause(),
  resume: (socket) => void socket.resume(),
  remoteAddress: (socket) => socket.remoteAddress,
  uncork: (socket) => {
    if (socket !== lazy) return socket.uncork()
    lazyDepth -= 1
    if (lazyDepth > 0) return socket.uncork()
    const bytes = kept
    const real = lazyReal
    lazy = undefined
    lazyReal = false
    kept = undefined
    if (real) socket.uncork()
    else if (bytes !== undefined && !socket.destroyed) socket.write(asChunk(bytes))
  },
}
