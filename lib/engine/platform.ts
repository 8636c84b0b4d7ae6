/**
 * What the engine needs from a runtime, and nothing more: a way to write to and close one
 * connection, a clock and timers, and a few optional fast paths. Each adapter (Node, Bun,
 * Deno) implements this record once; the engine holds no runtime API of its own.
 * Must not import `node:*`, Buffer or process.
 */
import type { CompressConfig } from '../core/http/compress/compress-config.js'
import type { HttpCodec } from '../core/http/compress/http-codec.js'
import type { HttpDecoder } from '../core/http/decompress/http-decoder.js'
import type { StaticFiles } from '../core/http/static/static-files.js'
import type { Logger } from '../core/log/logger.js'
import type { DeflateConfig } from '../core/ws/extensions/deflate-config.js'
import type { DeflateCodec } from '../core/ws/extensions/message-codec.js'
import type { HostStream, OutletEvents } from './http/pull-outlet.js'

/**
 * The operations on one connection. `S` is the runtime's own socket (a `net.Socket`, a Bun
 * socket, a small Deno record), passed through untouched: no wrapper object per
 * connection, so an idle connection costs what its socket costs.
 */
export interface SocketIo<S> {
  /** Queues bytes for the peer; never blocks and never throws. */
  write(socket: S, bytes: Uint8Array): void
  /**
   * Writes the same `bytes` to each of `sockets[0..count)`, exactly as a `write` to each in
   * that order would, in one go (a broadcast's receivers: the native transport hands them to
   * its addon in one call). Absent: the engine calls `write` per socket. `sockets` is the
   * caller's scratch array: read it now, keep no reference to it.
   */
  writeShared?(sockets: readonly S[], count: number, bytes: Uint8Array): void
  /** Bytes accepted by `write` that have not reached the kernel yet (the send backlog). */
  buffered(socket: S): number
  /** Whether the connection is gone: destroyed, or closed by both sides. */
  isClosed(socket: S): boolean
  /** Whether our side has ended (no more writes will be accepted). */
  isEnded(socket: S): boolean
  /** Ends our side once what is queued is sent, optionally after `bytes`. */
  end(socket: S, bytes?: Uint8Array): void
  /** Drops the connection now, discarding what is queued. */
  destroy(socket: S): void
  /** Holds writes together until `uncork` (one system call for a batch of frames). */
  cork(socket: S): void
  uncork(socket: S): void
  /**
   * Stops reading the socket (no more `receive` calls) until `resume`: the peer then sees
   * TCP backpressure. A streamed request body that its handler is not consuming uses it.
   */
  pause(socket: S): void
  /** Reads the socket again after `pause`. */
  resume(socket: S): void
  /**
   * The peer's address (`203.0.113.7`, `::1`), read once when the connection is accepted, for
   * rate limits by address and the connections per address; absent or `undefined`: unknown.
   */
  remoteAddress?(socket: S): string | undefined
}

/** An opaque timer handle, whatever the runtime returns. */
export type TimerId = unknown

/** The clock and timers. Timers never keep the process alive on their own. */
export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number
  setTimeout(run: () => void, ms: number): TimerId
  clearTimeout(id: TimerId): void
  setInterval(run: () => void, ms: number): TimerId
  clearInterval(id: TimerId): void
  /** Runs `run` once the current batch of I/O callbacks and microtasks is done. */
  afterIo(run: () => void): void
}

/** Server frames; the portable writer is `portableFrames`, an adapter may bring a faster one. */
export interface FrameWriter {
  /** An unmasked text frame holding `text`. */
  text(text: string): Uint8Array
  /** An unmasked binary frame holding a copy of `data`. */
  binary(data: Uint8Array): Uint8Array
}

export interface Platform<S> {
  readonly io: SocketIo<S>
  readonly timers: Timers
  readonly frames: FrameWriter
  /** `Sec-WebSocket-Accept` from the key; the core's portable SHA-1 when absent. */
  readonly acceptKey?: (key: string) => string
  /** A scratch array to join small writes into (on Node, from its buffer pool). */
  readonly allocate: (size: number) => Uint8Array
  /**
   * The ASCII text in `bytes[from, to)` (on Node, `latin1Slice`: about half the cost of a
   * `TextDecoder` for a short message); a `TextDecoder` when absent.
   */
  readonly decodeAscii?: (bytes: Uint8Array, from: number, to: number) => string
  /** The logger used when the options name none. */
  readonly defaultLogger: (debug: boolean) => Logger
  /**
   * The runtime's DEFLATE for permessage-deflate (RFC 7692), made once per server from its
   * settings when compression is on (`createPerMessageDeflate` on `node:zlib`). Absent: the
   * server declines the extension and says so at start-up.
   */
  readonly deflate?: (config: DeflateConfig) => DeflateCodec
  /**
   * The runtime's file reading (stat with links resolved, a byte range as it is pulled),
   * handed to HTTP handlers as `ctx.files` for `serveStatic`. Absent: `serveStatic` answers 500.
   */
  readonly files?: StaticFiles
  /**
   * The runtime's gzip, Brotli and (where it has it) zstd for HTTP answers, made once per
   * server from its settings when the `compress` option is on (`createZlibHttpCodec` on
   * `node:zlib`). Absent: answers leave uncompressed, and the start-up log says so.
   */
  readonly compression?: (config: CompressConfig) => HttpCodec
  /**
   * The runtime's decoders for request bodies of routes declared with `decompress` (gzip,
   * deflate, Brotli, zstd where it has it: `createZlibHttpDecoder` on `node:zlib`), made once per
   * server. Absent: the web `DecompressionStream` where the runtime has one (gzip, deflate),
   * else none (an encoded body gets 415).
   */
  readonly decompression?: () => HttpDecoder
  /**
   * The process's open-file limit, read once at start-up where the runtime lets a program
   * read it (`openFileLimit` on Linux's `/proc/self/limits`); `undefined` or absent: unknown.
   * `maxConnections`'s default follows it (options/fd-limit.ts).
   */
  readonly openFileLimit?: () => number | undefined
  /**
   * For a host that owns the HTTP response (`attach`, `toFetch`; `withPullOutlets`): makes the
   * output of one event-stream client, a "socket" these operations write to and the source the
   * host's streamed answer pulls. Absent (`runServer`'s platforms): event streams are served on
   * the engine's own sockets only.
   */
  readonly pullOutlet?: (events: OutletEvents) => HostStream<S>
}
