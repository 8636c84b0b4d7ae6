/**
 * A pool of up to `size` zlib streams that runs jobs on them, each job with a stream of its
 * own, and settles the jobs' promises in the order they were submitted, whichever finishes
 * first. A pool of one is a connection's stream with context takeover (jobs one after the
 * other, never reset); a larger pool serves many connections without context takeover
 * (streams reset after every job, so any stream may take any message).
 *
 * Streams are made on first need, so a pool nobody uses holds no zlib memory. A stream the
 * last job broke (destroyed, or ended by a final DEFLATE block) is dropped and replaced.
 *
 * Portable (no node:* import): the streams come from `make`, a runtime codec's zlib.
 */
import type { JobLimiter } from './job-limiter.js'

/** What the pool needs to know about its streams. */
export interface PoolStream {
  /** The stream can take no further job (an error, a zip bomb cut short, a final block). */
  readonly broken: boolean
  /** Forgets the LZ77 window, ready for an unrelated message. */
  reset(): void
  /** Frees the zlib state. */
  close(): void
}

export interface PoolOptions<S extends PoolStream> {
  /** Makes a stream, when a job needs one and fewer than `size` exist. */
  readonly make: () => S
  /** The most streams at once. */
  readonly size: number
  /** Reset a stream after each job (no context takeover). */
  readonly resetAfterJob: boolean
  /** The limit every zlib job of the server goes through. */
  readonly limiter: JobLimiter
}

/** Runs jobs on pooled streams; promises settle in submission order. */
export interface StreamPool<S extends PoolStream> {
  run<T>(job: (stream: S) => Promise<T>): Promise<T>
  /** Frees every stream once the jobs submitted so far have settled; later jobs are refused. */
  close(): void
  /** Streams that exist now (busy or idle). */
  readonly streams: number
}

interface Entry {
  done: boolean
  ok: boolean
  value: unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * @example
 * const pool = createStreamPool({ make: () => new Deflater(options), size: 10, resetAfterJob: true, limiter })
 * const payload = await pool.run((deflater) => deflater.compress(bytes))
 */
export const createStreamPool = <S extends PoolStream>(options: PoolOptions<S>): StreamPool<S> => {
  const { make, size, resetAfterJob, limiter } = options
  const idle: S[] = []
  const waiting: Array<(stream: S) => void> = []
  const order: Entry[] = []
  let count = 0
  let pending = 0
  let closed = false

  const freeAll = (): void => {
    for (const stream of idle) stream.close()
    count -= idle.length
    idle.length = 0
  }

  // Settles, in submission order, every job at the front that has finished.
  const settle = (): void => {
    while (order.length > 0 && order[0]!.done) {
      const entry = order.shift()!
      if (entry.ok) entry.resolve(entry.value)
      else entry.reject(entry.value)
    }
  }

  const acquire = (use: (stream: S) => void): void => {
    const stream = idle.pop()
    if (stream !== undefined) return use(stream)
    if (count < size) {
      count++
      return use(make())
    }
    waiting.push(use)
  }

  const release = (stream: S): void => {
    let keep: S | undefined = stream
    if (stream.broken) {
      stream.close()
      count--
      keep = undefined
    } else if (resetAfterJob) {
      stream.reset()
    }
    const next = waiting.shift()
    if (next !== undefined) {
      if (keep === undefined) {
        count++
        keep = make()
      }
      next(keep)
    } else if (keep !== undefined) {
      idle.push(keep)
    }
  }

  return {
    run<T>(job: (stream: S) => Promise<T>): Promise<T> {
      if (closed) return Promise.reject(new Error('permessage-deflate: the zlib stream pool is closed'))
      pending++
      const entry: Entry = { done: false, ok: true, value: undefined, resolve: () => {}, reject: () => {} }
      const promise = new Promise<T>((resolve, reject) => {
        entry.resolve = resolve as (value: unknown) => void
        entry.reject = reject
      })
      order.push(entry)
      acquire((stream) => {
        void limiter
          .run(() => job(stream))
          .then(
            (value) => {
              entry.value = value
            },
            (error: unknown) => {
              entry.ok = false
              entry.value = error
            },
          )
          .then(() => {
            entry.done = true
            pending--
            release(stream)
            settle()
            if (closed && pending === 0) freeAll()
          })
      })
      return promise
    },
    close(): void {
      closed = true
      if (pending === 0) freeAll()
    },
    get streams() {
      return count
    },
  }
}
