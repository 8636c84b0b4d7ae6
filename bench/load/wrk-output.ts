/**
 * Parses the text `wrk` prints into numbers. Pure; imports nothing.
 */

/** What one wrk run measured. */
export interface WrkResult {
  readonly requests: number
  readonly seconds: number
  readonly requestsPerSecond: number
  /** connect + read + write + timeout socket errors. */
  readonly socketErrors: number
  /** responses that were not 2xx or 3xx. */
  readonly non2xx: number
}

const UNITS: Readonly<Record<string, number>> = { us: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 }

/**
 * The result of a run from wrk's standard output; `undefined` when the text has
 * no `N requests in T` line (wrk failed or printed only an error).
 */
export const parseWrk = (text: string): WrkResult | undefined => {
  const done = /(\d+) requests in ([\d.]+)(us|ms|s|m|h)\b/.exec(text)
  if (done?.[1] === undefined || done[2] === undefined || done[3] === undefined) return undefined
  const requests = Number(done[1])
  const seconds = Number(done[2]) * (UNITS[done[3]] ?? 1)
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text)
  const socketErrors = errors === null ? 0 : errors.slice(1).reduce((sum, n) => sum + Number(n), 0)
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0)
  return {
    requests,
    seconds,
    requestsPerSecond: rps === undefined ? requests / seconds : Number(rps),
    socketErrors,
    non2xx,
  }
}
