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

/**
 * @example
 * const pull = pullOf(res.body.source)
 * const step = await pull.next() // { done: false, value: <a piece> }
 */
export const pullOf = (source: BodySource): Pull => {
  if (typeof (source as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (source as ReadableStream<Uint8Array>).getReader()
    return {
      next: () => reader.read(),
      cancel: (reason) => void reader.cancel(reason).catch(() => undefined),
    }
  }
  const iterator = (source as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]()
  return {
    next: () => iterator.next(),
    cancel: () => {
      try {
        void Promise.resolve(iterator.return?.()).catch(() => undefined)
      } catch {
        // A source whose return() throws is cancelled all the same: nothing more is pulled.
      }
    },
  }
}
