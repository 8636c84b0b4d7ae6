/**
 * `SocketSink`: a `ResponsePump`'s sink on one connection's socket, through the platform's
 * `SocketIo`. A class, so every pump of a server calls the same `write`, `buffered`, `cork` and
 * `uncork` functions: the optimised pump loop of one response stays valid for the next (a
 * record of closures made per response would be new call targets each time).
 *
 * Portable: no node:* imports, no Buffer.
 */
import type { SocketIo } from '../platform.js'
import type { PumpSink } from './response-pump.js'

/**
 * @example
 * const pump = new ResponsePump(body.source, 'chunked', undefined, new SocketSink(io, socket), shared.now, done)
 */
export class SocketSink<S> implements PumpSink {
  /** A socket's `buffered` is its own backlog: bytes out of it were taken by the kernel. */
  readonly releasesTaken = true

  constructor(
    private readonly io: SocketIo<S>,
    private readonly socket: S,
  ) {}

  write(bytes: Uint8Array): void {
    this.io.write(this.socket, bytes)
  }

  buffered(): number {
    return this.io.buffered(this.socket)
  }

  cork(): void {
    this.io.cork(this.socket)
  }

  uncork(): void {
    this.io.uncork(this.socket)
  }
}
