/**
 * A FIFO limit on asynchronous jobs in flight: permessage-deflate runs every zlib job
 * (compress and inflate, all connections) through one, so no more than `concurrency` of
 * them sit in libuv's thread pool at once. Without it, many concurrent zlib jobs fragment
 * the native heap until the server's memory grows without bound (ws issue #1202, Node issue
 * #8871; docs/decisions.md, "permessage-deflate").
 *
 * Portable (no node:* import, no runtime API): part of the engine, used by a runtime codec.
 */

/** Runs jobs, at most `concurrency` at a time, the others in the order they came. */
export interface JobLimiter {
  /** Starts `job` when a slot is free; settles as the job does. */
  run<T>(job: () => Promise<T>): Promise<T>
  /** Jobs running now. */
  readonly active: number
  /** Jobs waiting for a slot. */
  readonly waiting: number
}

/**
 * @example
 * const limiter = createJobLimiter(10)
 * const out = await limiter.run(() => deflater.compress(bytes))
 */
export const createJobLimiter = (concurrency: number): JobLimiter => {
  const queue: Array<() => void> = []
  let head = 0
  let active = 0

  const next = (): void => {
    active--
    const start = queue[head]
    if (start === undefined) return
    queue[head++] = undefined as never
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head)
      head = 0
    }
    active++
    start()
  }

  return {
    run<T>(job: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = (): void => {
          let running: Promise<T>
          try {
            running = job()
          } catch (e) {
            running = Promise.reject(e)
          }
          running.then(
            (value) => {
              next()
              resolve(value)
            },
            (error: unknown) => {
              next()
              reject(error)
            },
          )
        }
        if (active < concurrency) {
          active++
          start()
        } else {
          queue.push(start)
        }
      })
    },
    get active() {
      return active
    },
    get waiting() {
      return queue.length - head
    },
  }
}
