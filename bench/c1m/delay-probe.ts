/**
 * The event-loop delay probe of bench/c1m: a `GET /hello` on a fresh connection every
 * 10 ms through the shared port (so the requests land on every worker in turn), each
 * sample kept with its start time; the driver tags samples with phases afterwards.
 * A request outstanding does not delay the next (at most 200 at once; 5 s time-out).
 */
import { request } from 'node:http'

/** One probe request: when it started (ms, performance clock) and how long it took (NaN: failed). */
export interface DelaySample {
  readonly at: number
  readonly ms: number
}

/** A running probe: its samples so far, and a stop. */
export interface DelayProbe {
  readonly samples: DelaySample[]
  stop(): void
}

/** Starts probing `127.0.0.1:port` every `everyMs`. */
export const startDelayProbe = (port: number, everyMs = 10): DelayProbe => {
  const samples: DelaySample[] = []
  let outstanding = 0
  const timer = setInterval(() => {
    if (outstanding >= 200) return
    outstanding += 1
    const at = performance.now()
    let settled = false
    const done = (ok: boolean): void => {
      if (settled) return
      settled = true
      outstanding -= 1
      samples.push({ at, ms: ok ? performance.now() - at : Number.NaN })
    }
    const req = request({ host: '127.0.0.1', port, path: '/hello', agent: false, timeout: 5000 }, (res) => {
      res.resume()
      res.on('end', () => done(res.statusCode === 200))
      res.on('error', () => done(false))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => done(false))
    req.end()
  }, everyMs)
  return { samples, stop: () => clearInterval(timer) }
}
