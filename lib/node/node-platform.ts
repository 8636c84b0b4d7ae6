/**
 * The engine's `Platform` on Node: `net.Socket` operations, Node's timers (unref'd, so a
 * server's timers never keep the process alive on their own), Node's native UTF-8 frame
 * writer, SHA-1 and pooled buffers, the console logger, and `node:zlib` for permessage-deflate.
 */
import { Buffer } from 'node:buffer'
import type { Socket } from 'node:net'
import type { Platform, SocketIo, Timers } from '../engine/platform.js'
import { createLogger } from './log/create-logger.js'
import { nativeAcceptKey } from './native-accept-key.js'
import { nodeFrames } from './node-frames.js'
import { createPerMessageDeflate } from './permessage-deflate.js'

// Buffer's latin1 reader works on any Uint8Array; for bytes below 0x80 it reads ASCII.
const latin1Slice = Buffer.prototype.latin1Slice

// `socket.write` wraps a Uint8Array that is not a Buffer in a new Buffer view on every call
// (tens of nanoseconds, and an object for the scavenger). The engine often writes the same
// bytes again and again (a remembered response, a broadcast frame): from an array's second
// write on, its view is kept and reused until another array is written. A first write is
// left to Node's own conversion (cheaper than `Buffer.from`). Only small arrays are kept:
// the view pins their memory.
const REMEMBER_MAX = 64 * 1024
let lastArray: Uint8Array | undefined
let lastView: Buffer | undefined

// `bytes` as `socket.write` takes it best: a Buffer when there is one to reuse.
const asChunk = (bytes: Uint8Array): Uint8Array => {
  if (bytes !== lastArray) {
    lastArray = bytes.buffer.byteLength <= REMEMBER_MAX ? bytes : undefined
    lastView = undefined
    return bytes
  }
  if (lastView !== undefined) return lastView
  if (bytes instanceof Buffer) return bytes
  lastView = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  return lastView
}

export const nodeSocketIo: SocketIo<Socket> = {
  write: (socket, bytes) => void socket.write(asChunk(bytes)),
  buffered: (socket) => socket.writableLength,
  isClosed: (socket) => socket.destroyed,
  isEnded: (socket) => socket.writableEnded,
  end: (socket, bytes) => void (bytes === undefined ? socket.end() : socket.end(asChunk(bytes))),
  destroy: (socket) => void socket.destroy(),
  cork: (socket) => socket.cork(),
  uncork: (socket) => socket.uncork(),
}

export const nodeTimers: Timers = {
  now: Date.now,
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (id) => clearTimeout(id as NodeJS.Timeout),
  setInterval: (run, ms) => setInterval(run, ms).unref(),
  clearInterval: (id) => clearInterval(id as NodeJS.Timeout),
  afterIo: (run) => void setImmediate(run),
}

export const nodePlatform: Platform<Socket> = {
  io: nodeSocketIo,
  timers: nodeTimers,
  frames: nodeFrames,
  acceptKey: nativeAcceptKey,
  allocate: (size) => Buffer.allocUnsafe(size),
  decodeAscii: (bytes, from, to) => latin1Slice.call(bytes, from, to),
  defaultLogger: (debug) => createLogger({ minLevel: debug ? 'debug' : 'info' }),
  deflate: createPerMessageDeflate,
}
