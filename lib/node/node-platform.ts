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

export const nodeSocketIo: SocketIo<Socket> = {
  write: (socket, bytes) => void socket.write(bytes),
  buffered: (socket) => socket.writableLength,
  isClosed: (socket) => socket.destroyed,
  isEnded: (socket) => socket.writableEnded,
  end: (socket, bytes) => void (bytes === undefined ? socket.end() : socket.end(bytes)),
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
