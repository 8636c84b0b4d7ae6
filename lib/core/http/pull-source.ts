/**
 * `pullOf`: one way to pull the pieces of a streamed body's source, whichever kind it is (an
 * `AsyncIterable` of bytes or text, or a web `ReadableStream`), and to cancel it (iterator
 * `return()`, stream `cancel()`). The engine's pump reads a source through it, and so do the
 * embedding glues (`attach`'s `ServerResponse` writer, `toFetch`'s `ReadableStream`).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import type { BodySource } from './stream-body.js'

/** Pulls a source piece by piece; `cancel` never throws and stops it for good. */
export interface Pull {
  next(): Promise<{ readonly done?: boolean; readonly value?: unknown }>
  cancel(reason: unknown): void
}

// Classes, not closures: a pump's call to `next` then finds the same function for every
// response, and the optimiser's code for the pump stays valid from one response to the next
// (a closure made per source is a new call target each time, and throws that code away).
class ReaderPull implements Pull {
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}
  next(): Promise<ReadableStreamReadResult<Uint8Array>> {
    return this.reader.read()
  }
  cancel(reason: unknown): void {
    void this.reader.cancel(reason).catch(() => undefined)
  }
}

class IteratorPull implements Pull {
  constructor(private readonly iterator: AsyncIterator<Uint8Array | string>) {}
  next(): Promise<IteratorResult<Uint8Array | string>> {
    return this.iterator.next()
  }
  cancel(): void {
    try {
      void Promise.resolve(this.iterator.return?.()).catch(() => undefined)
    } catch {
      // A source whose return() throws is cancelled all the same: nothing more is pulled.
    }
  }
}

/**
 * @example
 * const pull = pullOf(res.body.source)
 * const step = await pull.next() // { done: false, value: <a piece> }
 */
export const pullOf = (source: BodySource): Pull =>
  typeof (source as ReadableStream<Uint8Array>).getReader === 'function'
    ? new ReaderPull((source as ReadableStream<Uint8Array>).getReader())
    : new IteratorPull((source as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]())
