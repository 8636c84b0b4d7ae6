/**
 * `requestLoops`: the server side of `bench/server-requests.ts`, shared by its two peers so both
 * measure alike. Given one `ask` per connected client (a server→client request answering a
 * number), `start(inFlight)` keeps `inFlight` requests going to each: every loop asks `n`,
 * checks the answer is `n + 1`, and asks again. `mark()` answers what happened since the
 * previous mark (answered round trips, failures, the server's elapsed ms, p50/p99 round trip in
 * µs from a preallocated sample buffer) and starts a new window; `stop()` ends the loops after
 * the requests in flight. Bench code: imports nothing.
 */

/** One client as the loops ask it: settles to its answer, or rejects / answers `undefined` on failure. */
export type Ask = (n: number) => Promise<number | undefined>

/** What one window between two marks gave. */
export interface LoopWindow {
  readonly answered: number
  readonly failed: number
  readonly ms: number
  readonly p50Us: number
  readonly p99Us: number
}

/** The control of the loops, driven by the bench over HTTP. */
export interface RequestLoops {
  readonly start: (asks: readonly Ask[], inFlight: number) => number
  readonly mark: () => LoopWindow
  readonly stop: () => void
}

// Room for ~2 M round-trip samples per window; further ones are counted, not sampled.
const SAMPLES = 1 << 21

/**
 * A fresh set of loops (none running).
 *
 * @example
 * const loops = requestLoops()
 * loops.start(clients.map((c) => (n) => c.ask(n)), 10)
 */
export const requestLoops = (): RequestLoops => {
  const samples = new Float64Array(SAMPLES)
  let sampled = 0
  let answered = 0
  let failed = 0
  let since = performance.now()
  let running = false
  const loop = async (ask: Ask, seed: number): Promise<void> => {
    let n = seed
    while (running) {
      const t = performance.now()
      let got: number | undefined
      try {
        got = await ask(n)
      } catch {
        got = undefined
      }
      // A failed request ends its loop: one answered at once would otherwise spin in microtasks.
      if (got !== n + 1) {
        failed += 1
        return
      }
      answered += 1
      if (sampled < SAMPLES) samples[sampled++] = performance.now() - t
      n = got
    }
  }
  const quantile = (sorted: Float64Array, q: number): number =>
    sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) * 1000
  return {
    start: (asks, inFlight) => {
      running = true
      let seed = 0
      for (const ask of asks) for (let i = 0; i < inFlight; i++) void loop(ask, (seed += 1000))
      return asks.length
    },
    mark: () => {
      const now = performance.now()
      const sorted = samples.slice(0, sampled).sort()
      const window: LoopWindow = { answered, failed, ms: now - since, p50Us: quantile(sorted, 0.5), p99Us: quantile(sorted, 0.99) }
      answered = 0
      failed = 0
      sampled = 0
      since = performance.now()
      return window
    },
    stop: () => {
      running = false
    },
  }
}
