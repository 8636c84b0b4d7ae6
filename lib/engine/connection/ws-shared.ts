/**
 * `WsShared`: what every WebSocket connection of one server shares, one object per server
 * (a connection holds it as `shared`): the platform's writer, timers and scratch, the limits,
 * the route table and its middleware, and the server's operations a connection calls
 * (delivery, the flush batcher, the logger). A class so that each of those is a method
 * defined here, not a field of a record of functions. Must not import `node:*`, Buffer or process.
 */
import type { AbuseLog } from '../limit/abuse-log.js'
import type { Logger } from '../../core/log/logger.js'
import type { WsMiddleware } from '../../core/route/ws-middleware.js'
import type { CompiledRoutes } from '../../core/route/compiled-routes.js'
import type { RawMessage } from '../../core/route/raw-message.js'
import type { WsErrorReporter } from '../../core/route/ws-error-reporter.js'
import type { AssemblyLimits } from '../../core/ws/assemble-message.js'
import type { FrameLimits } from '../../core/ws/frame.js'
import type { Masker } from '../../core/ws/mask.js'
import { HEARTBEAT_MESSAGE } from '../../core/ws/session-wire.js'
import type { ServerOps } from '../server-ops.js'
import type { Delivery } from '../delivery/delivery.js'
import type { FlushBatcher } from '../delivery/flush-batcher.js'
import type { Limits } from '../options/limits.js'
import type { FrameWriter, Platform, SocketIo, Timers } from '../platform.js'
import type { WsConnection } from './ws-connection.js'

// Without a faster reader from the platform, ASCII is read as the UTF-8 it also is.
const asciiDecoder = new TextDecoder()
const decodeAsciiPortably = (bytes: Uint8Array, from: number, to: number): string => asciiDecoder.decode(bytes.subarray(from, to))

export class WsShared<S> {
  readonly io: SocketIo<S>
  readonly timers: Timers
  readonly frames: FrameWriter
  readonly messageLimits: AssemblyLimits
  /** A scratch array for the frames out of one chunk (on Node, from its buffer pool). */
  readonly allocate: (size: number) => Uint8Array
  /** The ASCII text in `bytes[from, to)` (the platform's fastest reader). */
  readonly decodeAscii: (bytes: Uint8Array, from: number, to: number) => string
  /** The `tp:heartbeat` message a session client gets with each ping, framed once for the server. */
  readonly heartbeatFrame: Uint8Array
  constructor(
    platform: Platform<S>,
    readonly limits: Limits,
    readonly frameLimits: FrameLimits,
    /**
     * Whether the small-frame path is taken (`EngineInternals.smallFrames`, on by default);
     * off, every frame goes through the general decoder.
     */
    readonly smallFrames: boolean,
    /** Unmasks the frames clients send: the server's own (`createMasker`), so no other server shares its WebAssembly memory. */
    readonly masker: Masker,
    readonly compiled: CompiledRoutes,
    readonly wsMiddleware: readonly WsMiddleware[],
    /** Reports a handler's failure (given to the core's dispatch as it is). */
    readonly onError: WsErrorReporter,
    private readonly delivery: Delivery<S>,
    readonly ops: ServerOps<S>,
    private readonly batcher: FlushBatcher<S>,
    private readonly logger: Logger,
    private readonly debugOn: boolean,
    /** Where protocol violations are counted, logged once per window (`AbuseLog`). */
    readonly abuse: AbuseLog | undefined = undefined,
  ) {
    this.io = platform.io
    this.timers = platform.timers
    this.frames = platform.frames
    this.messageLimits = { maxMessage: limits.maxMessage }
    this.allocate = platform.allocate
    this.decodeAscii = platform.decodeAscii ?? decodeAsciiPortably
    this.heartbeatFrame = platform.frames.text(HEARTBEAT_MESSAGE)
  }

  /** Writes bytes to a client (through its compression, if any), respecting its send-buffer limit. */
  write(connection: WsConnection<S>, bytes: Uint8Array): void {
    this.delivery.write(connection, bytes)
  }

  /** Writes a finished frame to a client, respecting its send-buffer limit. */
  admit(connection: WsConnection<S>, bytes: Uint8Array): void {
    this.delivery.admit(connection, bytes)
  }

  /** Writes a batching connection's waiting envelopes now (before its close frame). */
  flushOut(connection: WsConnection<S>): void {
    this.delivery.flushOut(connection)
  }

  /** A raw route's reply, as `ctx.sendRaw` sends it (without a closure per message). */
  sendRaw(clientId: number, message: RawMessage): void {
    this.ops.sendRaw(clientId, message)
  }

  /** Sends an envelope, numbered, to the connection that holds client `clientId`'s session now. */
  sendToSession(clientId: number, text: string): void {
    this.delivery.sendToSession(clientId, text)
  }

  /** Corks the socket until the current batch of work is flushed. */
  hold(socket: S): void {
    this.batcher.hold(socket)
  }

  /** Logs a protocol failure (debug level: it is the client's fault, not the server's). */
  debug(message: string, context: Readonly<Record<string, unknown>>): void {
    if (this.debugOn) this.logger.debug(message, context)
  }

  /** Logs a failure of the server's own (zlib failing to compress). */
  exception(error: unknown, context: Readonly<Record<string, unknown>>): void {
    this.logger.exception(error, context)
  }
}
