/**
 * `RequestBody`: the `BodyStream` of a route declared with `{ body: 'stream' }` (DESIGN §8),
 * fed by the connection with views of the bytes it reads. Once it holds `HIGH_WATER` bytes
 * the handler has not taken, the connection pauses reading the socket, and resumes once the
 * handler has taken half of them, so an upload of any size costs a bounded amount of memory
 * per connection: what the handler is working on, at most `HIGH_WATER` plus one read queued,
 * and what the runtime reads before the pause takes hold. `Expect: 100-continue` is answered
 * when the handler first asks for the body.
 *
 * Portable: no node:* imports, no Buffer.
 */
import { type BodyStream, BodyStreamError } from '../../core/http/body-stream.js'
import type { HttpError } from '../../core/http/http-error.js'
import { joinBytes } from '../../core/join-bytes.js'

/**
 * Bytes held for the handler at which reading the socket pauses: one 64 KiB read queued while
 * the handler works on the one before (the kernel's socket buffer holds what comes next, so
 * a paused socket resumes with bytes ready). It was 256 KiB: 64 uploads to a disk sink then
 * held about 15 MiB in these queues alone (Session 11, bench/RESULTS.md "Session 11: uploads").
 */
export const HIGH_WATER = 64 * 1024

/** What the body asks of its connection. */
export interface BodyControl {
  /** Stop reading the socket: the handler is behind. */
  pause(): void
  /** Read the socket again. */
  resume(): void
  /** The handler asked for the body for the first time (time for `100 Continue`). */
  started(): void
  /** The handler stopped reading before the end: the rest will not be read. */
  abandoned(): void
}

type Waiter = { readonly resolve: (r: IteratorResult<Uint8Array>) => void; readonly reject: (e: unknown) => void }

const decoder = new TextDecoder()

export class RequestBody implements BodyStream {
  private readonly queue: Uint8Array[] = []
  private queued = 0
  private paused = false
  private ended = false
  private failure: BodyStreamError | undefined
  private waiter: Waiter | undefined
  private begun = false
  private taken = false
  private dropped = false
  /** Data bytes received so far. */
  received = 0

  constructor(
    readonly length: number | undefined,
    private readonly control: BodyControl,
  ) {}

  /** A piece of the body arrived (a view the connection will not reuse). */
  push(piece: Uint8Array): void {
    if (this.dropped || this.ended || this.failure !== undefined || piece.length === 0) return
    this.received += piece.length
    const waiter = this.waiter
    if (waiter !== undefined && this.queue.length === 0) {
      this.waiter = undefined
      return waiter.resolve({ done: false, value: piece })
    }
    this.queue.push(piece)
    this.queued += piece.length
    if (this.queued >= HIGH_WATER && !this.paused) {
      this.paused = true
      this.control.pause()
    }
  }

  /** The whole body has arrived. */
  end(): void {
    if (this.ended || this.failure !== undefined) return
    this.ended = true
    this.settleWaiter()
  }

  /** The body cannot be read to its end (too large, bad framing, the client went away). */
  fail(error: HttpError): void {
    if (this.ended || this.failure !== undefined) return
    this.failure = new BodyStreamError(error)
    this.queue.length = 0
    this.queued = 0
    this.settleWaiter()
  }

  /** Whether every byte of the body was received. */
  get complete(): boolean {
    return this.ended
  }

  /** Whether the handler stopped reading (or never started) before the end. */
  get unread(): boolean {
    return !this.ended || this.queue.length > 0
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    this.claim()
    return {
      next: () => this.next(),
      return: () => {
        this.drop()
        return Promise.resolve({ done: true, value: undefined })
      },
    }
  }

  stream(): ReadableStream<Uint8Array> {
    this.claim()
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const step = await this.next()
          if (step.done) controller.close()
          else controller.enqueue(step.value)
        },
        cancel: () => this.drop(),
      },
      { highWaterMark: 0 },
    )
  }

  async bytes(): Promise<Uint8Array> {
    this.claim()
    const parts: Uint8Array[] = []
    let size = 0
    for (let step = await this.next(); !step.done; step = await this.next()) {
      parts.push(step.value)
      size += step.value.length
    }
    return joinBytes(parts, size)
  }

  async text(): Promise<string> {
    return decoder.decode(await this.bytes())
  }

  // One reader: a second way of reading the same body is a programming error, said at once.
  private claim(): void {
    if (this.taken) throw new TypeError('the request body is being read already (read it once, one way)')
    this.taken = true
  }

  private next(): Promise<IteratorResult<Uint8Array>> {
    if (!this.begun) {
      this.begun = true
      this.control.started()
    }
    const piece = this.queue.shift()
    if (piece !== undefined) {
      this.queued -= piece.length
      if (this.paused && this.queued <= HIGH_WATER / 2) {
        this.paused = false
        this.control.resume()
      }
      return Promise.resolve({ done: false, value: piece })
    }
    if (this.failure !== undefined) return Promise.reject(this.failure)
    if (this.ended || this.dropped) return Promise.resolve({ done: true, value: undefined })
    if (this.paused) {
      this.paused = false
      this.control.resume()
    }
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }))
  }

  private drop(): void {
    if (this.dropped) return
    this.dropped = true
    this.queue.length = 0
    this.queued = 0
    this.settleWaiter()
    if (!this.ended) this.control.abandoned()
  }

  private settleWaiter(): void {
    const waiter = this.waiter
    if (waiter === undefined) return
    this.waiter = undefined
    if (this.failure !== undefined) waiter.reject(this.failure)
    else waiter.resolve({ done: true, value: undefined })
  }
}
