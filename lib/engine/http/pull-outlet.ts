/**
 * `PullOutlet`: an event-stream client's output under a host that owns the HTTP response
 * (`attach`'s `ServerResponse`, `toFetch`'s `ReadableStream`): it stands where a socket stands
 * (the engine writes, ends and destroys it through `SocketIo`, `withPullOutlets`), and it is
 * the source the host's streamed answer pulls from (an `AsyncIterator` of bytes, read through
 * the engine's `ResponsePump`). What the host has not pulled yet is its send backlog
 * (`buffered`), so the slow-consumer rule and the heartbeat's stall check judge it as they
 * judge a socket's: a reader that does not keep up is cut, never buffered without bound.
 * Pulled empty, it tells the engine (`writable`, as a socket's drain); ended and pulled empty,
 * or destroyed (the host cancelled: the client is gone), it tells the engine it is closed, a
 * turn later, as a socket's close event comes.
 *
 * Portable: no node:* imports, no Buffer, no process.
 */
import { joinBytes } from '../../core/join-bytes.js'
import type { Platform, SocketIo } from '../platform.js'

/** What an outlet tells the engine of its host's reading. */
export interface OutletEvents {
  /** Everything written was pulled (a socket's drain). */
  writable(): void
  /** The outlet is gone: ended and pulled empty, or destroyed (a socket's close). */
  closed(): void
}

const DONE: IteratorResult<Uint8Array> = Object.freeze({ done: true, value: undefined })

export class PullOutlet implements AsyncIterator<Uint8Array>, AsyncIterable<Uint8Array> {
  private queue: Uint8Array[] = []
  private bytes = 0
  private ended = false
  private gone = false
  // The host's pull waiting for bytes.
  private waiting: ((step: IteratorResult<Uint8Array>) => void) | undefined = undefined

  constructor(private readonly events: OutletEvents) {}

  [Symbol.asyncIterator](): this {
    return this
  }

  /** Queues bytes for the host (handed over at once when its pull waits); dropped once ended. */
  write(bytes: Uint8Array): void {
    if (this.ended || bytes.length === 0) return
    const waiting = this.waiting
    if (waiting !== undefined) {
      this.waiting = undefined
      return waiting({ done: false, value: bytes })
    }
    this.queue.push(bytes)
    this.bytes += bytes.length
  }

  /** Bytes written and not yet pulled by the host. */
  buffered(): number {
    return this.bytes
  }

  /** Whether the outlet is gone. */
  isClosed(): boolean {
    return this.gone
  }

  /** Whether the end was written. */
  isEnded(): boolean {
    return this.ended
  }

  /** Ends the stream once what is queued is pulled, optionally after `bytes`. */
  end(bytes?: Uint8Array): void {
    if (bytes !== undefined) this.write(bytes)
    this.ended = true
    if (this.bytes === 0) this.finish()
  }

  /** Drops what is queued and ends the stream now. */
  destroy(): void {
    this.queue = []
    this.bytes = 0
    this.ended = true
    this.finish()
  }

  /** The host's pull: what is queued, as one piece; the end once ended and empty. */
  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.bytes > 0) {
      const queue = this.queue
      const value = joinBytes(queue, this.bytes)
      this.queue = []
      this.bytes = 0
      if (this.ended) this.finish()
      else this.events.writable()
      return Promise.resolve({ done: false, value })
    }
    if (this.ended) {
      this.finish()
      return Promise.resolve(DONE)
    }
    return new Promise((resolve) => (this.waiting = resolve))
  }

  /** The host cancelled (the client went away): destroyed. */
  return(): Promise<IteratorResult<Uint8Array>> {
    this.destroy()
    return Promise.resolve(DONE)
  }

  private finish(): void {
    const waiting = this.waiting
    this.waiting = undefined
    waiting?.(DONE)
    if (this.gone) return
    this.gone = true
    // A turn later, as a socket's close event comes: the engine never hears of it inside its own call.
    void Promise.resolve().then(() => this.events.closed())
  }
}

/** What the engine gets for one outlet: the "socket" it writes to, and the source the host's answer pulls. */
export interface HostStream<S> {
  readonly socket: S
  readonly source: AsyncIterable<Uint8Array>
}

// The platform's operations, told an outlet from the runtime's own sockets.
const outletIo = <S>(io: SocketIo<S>): SocketIo<S> => {
  const is = (socket: S): boolean => socket instanceof PullOutlet
  const as = (socket: S): PullOutlet => socket as unknown as PullOutlet
  return {
    write: (socket, bytes) => (is(socket) ? as(socket).write(bytes) : io.write(socket, bytes)),
    buffered: (socket) => (is(socket) ? as(socket).buffered() : io.buffered(socket)),
    isClosed: (socket) => (is(socket) ? as(socket).isClosed() : io.isClosed(socket)),
    isEnded: (socket) => (is(socket) ? as(socket).isEnded() : io.isEnded(socket)),
    end: (socket, bytes) => (is(socket) ? as(socket).end(bytes) : io.end(socket, bytes)),
    destroy: (socket) => (is(socket) ? as(socket).destroy() : io.destroy(socket)),
    cork: (socket) => (is(socket) ? undefined : io.cork(socket)),
    uncork: (socket) => (is(socket) ? undefined : io.uncork(socket)),
    pause: (socket) => (is(socket) ? undefined : io.pause(socket)),
    resume: (socket) => (is(socket) ? undefined : io.resume(socket)),
    ...(io.remoteAddress === undefined ? {} : { remoteAddress: (socket: S) => (is(socket) ? undefined : io.remoteAddress?.(socket)) }),
  }
}

/**
 * `platform` for a host that owns the HTTP response (`attach`, `toFetch`): its operations also
 * take outlets, and `pullOutlet` makes one, so an event stream the host answers becomes a
 * client of the registry whose bytes the host's response pulls. An outlet stands where the
 * runtime's socket type `S` stands: only these operations ever look inside it. `runServer`'s
 * platforms are not wrapped: their writes pay nothing for it.
 *
 * @example
 * const engine = createEngine(options, withPullOutlets(fetchPlatform))
 */
export const withPullOutlets = <S>(platform: Platform<S>): Platform<S> => ({
  ...platform,
  io: outletIo(platform.io),
  pullOutlet: (events) => {
    const outlet = new PullOutlet(events)
    return { socket: outlet as unknown as S, source: outlet }
  },
})
