/**
 * `eventStream`: a push source turned into an async iterator, for `for await (const m of
 * client.events('message'))`. Messages that arrive while the loop is busy wait in a bounded
 * buffer; past it the iteration fails with a `RangeError` rather than grow without bound.
 * Pure (no I/O).
 */

/** What `eventStream` needs: a way to listen, and when to stop. */
export interface StreamSource<T> {
  /** Starts listening; the answer stops. */
  subscribe(push: (value: T) => void): () => void
  /** Messages kept while nobody reads. */
  readonly buffer: number
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
 * An iterator that yields what `subscribe` pushes, in order.
 *
 * @example
 * let push = (_: number) => {}
 * const s = eventStream<number>({ subscribe: (p) => ((push = p), () => {}), buffer: 8, name: 'n' })
 * push(1)
 * await s.next() // { value: 1, done: false }
 */
export const eventStream = <T>({ subscribe, buffer, name, signal }: StreamSource<T>): EventStream<T> => {
  const items: T[] = []
  let waiting: ((result: IteratorResult<T>) => void) | undefined
  let done = false
  let failure: Error | undefined
  const take = (): ((result: IteratorResult<T>) => void) | undefined => {
    const w = waiting
    waiting = undefined
    return w
  }
  const end = (): void => {
    if (done) return
    done = true
    unsubscribe()
    signal?.removeEventListener('abort', end)
    take()?.({ value: undefined, done: true })
  }
  const unsubscribe = subscribe((value) => {
    const w = take()
    if (w !== undefined) w({ value, done: false })
    else if (items.length < buffer) items.push(value)
    else {
      failure = new RangeError(`events("${name}"): over ${buffer} messages waiting`)
      end()
    }
  })
  if (signal?.aborted === true) end()
  else signal?.addEventListener('abort', end)
  const stream: EventStream<T> = {
    next: () => {
      if (items.length > 0) return Promise.resolve({ value: items.shift() as T, done: false })
      const f = failure
      failure = undefined
      return f !== undefined ? Promise.reject(f) : done ? Promise.resolve({ value: undefined, done: true }) : new Promise((resolve) => (waiting = resolve))
    },
    return: () => {
      items.length = 0
      end()
      return Promise.resolve({ value: undefined, done: true })
    },
    end,
    [Symbol.asyncIterator]: () => stream,
  }
  return stream
}
