/**
 * `eventStream`: a push source turned into an async iterator, for `for await (const m of
 * events(client, 'message'))`. Messages that arrive while the loop is busy wait in a bounded
 * buffer; past it the iteration fails with a `RangeError` rather than grow without bound.
 * Pure (no I/O).
 */

/** What `eventStream` needs: a way to listen, and when to stop. */
export interface StreamSource<T> {
  /** Starts listening; the answer stops. */
  subscribe(push: (value: T) => void): () => void
  /** Messages kept while nobody reads (default 1024). */
  readonly buffer?: number | undefined
  /** The name, for the overflow message. */
  readonly name: string
  /** Ends the iteration when it fires. */
  readonly signal?: AbortSignal | undefined
}

/** An iterator over pushed values, plus `end()` to finish it from outside. */
export interface EventStream<T> extends AsyncIterableIterator<T> {
  /** Finishes the iteration: buffered values are still read, then it is done. */
  end(): void
}

/**
 * An iterator that yields what `subscribe` pushes, in order. It subscribes at once, so
 * nothing pushed before the first read is missed.
 *
 * @example
 * let push = (_: number) => {}
 * const s = eventStream<number>({ subscribe: (p) => ((push = p), () => {}), buffer: 8, name: 'n' })
 * push(1)
 * await s.next() // { value: 1, done: false }
 */
export const eventStream = <T>({ subscribe, buffer = 1024, name, signal }: StreamSource<T>): EventStream<T> => {
  const items: T[] = []
  let wake = (): void => undefined
  let done = false
  let failure: Error | undefined
  const end = (): void => {
    if (!done) {
      done = true
      unsubscribe()
      signal?.removeEventListener('abort', end)
    }
    wake()
  }
  const unsubscribe = subscribe((value) => {
    if (items.length < buffer) items.push(value)
    else {
      failure = new RangeError(`events("${name}"): over ${buffer} messages waiting`)
      end()
    }
    wake()
  })
  if (signal?.aborted) end()
  else signal?.addEventListener('abort', end)
  async function* read(): AsyncGenerator<T, undefined> {
    try {
      for (;;) {
        if (items.length) yield items.shift() as T
        else if (failure) throw failure
        else if (done) return
        else await new Promise<void>((resolve) => (wake = resolve))
      }
    } finally {
      end()
    }
  }
  const stream: AsyncGenerator<T, undefined> & Partial<EventStream<T>> = read()
  const stop = stream.return.bind(stream)
  stream.end = end
  // Returning before the first read still lets go of the listener.
  stream.return = (value?: undefined) => {
    items.length = 0
    end()
    return stop(value)
  }
  return stream as EventStream<T>
}
