/**
 * The event-loop delay probes of bench/c1m: a `GET` every 10 ms, each sample kept with its
 * start time (the driver tags samples with phases afterwards). Two kinds:
 * - `loop`: to each worker's own probe port in turn (bench/c1m/server.ts), pipelined on one
 *   kept-alive connection per worker: a request written while the worker is blocked waits in
 *   the kernel and is answered when its loop turns, so the time is that wait and nothing else
 *   (no queue of our own: requests are not held back behind an unanswered one);
 * - `shared`: `GET /hello` on a fresh connection through the shared port, so the time also
 *   holds the accept queue and node:cluster's hand-off (what a new client sees).
 * A request outstanding does not delay the next (at most 200 per port at once; 5 s time-out);
 * failures are counted by their error code. `loop` calls `around(target)` just before each
 * request is timed and just after each answer is timed: a caller reading the worker's
 * scheduler times there gets readings that bracket every sample, without sampling every
 * worker every few ms.
 */
import { request } from 'node:http'
import { connect, type Socket } from 'node:net'

/** One probe request: when it started (ms, performance clock), how long it took (NaN: failed), and to which of the ports (index). */
export interface DelaySample {
  readonly at: number
  readonly ms: number
  readonly target: number
}

/** A running probe: its samples so far, and a stop. */
export interface DelayProbe {
  readonly samples: DelaySample[]
  /** why requests failed, with counts */
  readonly errors: Map<string, number>
  /** stops sending (answers still come) until `resume` */
  pause(): void
  resume(): void
  stop(): void
}

const get = (port: number, path: string, agent: false, done: (error?: string) => void): void => {
  const req = request({ host: '127.0.0.1', port, path, agent, timeout: 5000 }, (res) => {
    res.resume()
    res.on('end', () => done(res.statusCode === 200 ? undefined : `status ${res.statusCode ?? 0}`))
    res.on('error', (e) => done(e.message))
  })
  req.on('timeout', () => req.destroy(new Error('no answer in 5 s')))
  req.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message))
  req.end()
}

/** Probes `ports` in turn every `everyMs`: pipelined on one connection each (`loop`), or `port`'s /hello afresh (`shared`). */
export const startDelayProbe = (kind: 'loop' | 'shared', ports: readonly number[], everyMs = 10, around?: (target: number) => void): DelayProbe => {
  const samples: DelaySample[] = []
  const errors = new Map<string, number>()
  const fail = (error: string): void => void errors.set(error, (errors.get(error) ?? 0) + 1)
  // loop: per worker, the send times of requests not yet answered (answers come in order).
  // loop: one kept-alive connection per worker, opened again when the worker closes it (a
  // keep-alive sweep that ran while the worker was starved; a reset): its unanswered requests
  // count as failed, and probing goes on rather than leaving that worker unprobed for good.
  let stopped = false
  type LoopProbe = { socket: Socket; sent: number[]; tail: string }
  const open = (probe: LoopProbe, port: number, target: number): void => {
    const socket = connect(port, '127.0.0.1')
    probe.socket = socket
    probe.sent = []
    probe.tail = ''
    socket.setNoDelay(true)
    socket.on('data', (chunk: Buffer) => {
      const text = probe.tail + chunk.toString('latin1')
      const now = performance.now()
      let at = text.indexOf('HTTP/1.1 ')
      let last = -1
      while (at >= 0) {
        const sentAt = probe.sent.shift()
        if (sentAt !== undefined) samples.push({ at: sentAt, ms: now - sentAt, target })
        last = at
        at = text.indexOf('HTTP/1.1 ', at + 9)
      }
      if (last >= 0) around?.(target)
      probe.tail = text.slice(Math.max(last + 9, text.length - 8))
    })
    socket.on('error', (e: NodeJS.ErrnoException) => fail(e.code ?? e.message))
    socket.on('close', () => {
      if (stopped || probe.socket !== socket) return
      for (const sentAt of probe.sent) samples.push({ at: sentAt, ms: Number.NaN, target })
      probe.sent = []
      fail('closed')
      setTimeout(() => {
        if (!stopped) open(probe, port, target)
      }, 100)
    })
  }
  const sockets: LoopProbe[] = kind === 'shared' ? [] : ports.map((port, target) => {
    const probe = { sent: [] as number[], tail: '' } as unknown as LoopProbe
    open(probe, port, target)
    return probe
  })
  let outstanding = 0
  let next = 0
  let paused = false
  const timer = setInterval(() => {
    if (paused) return
    const i = next++ % ports.length
    const probe = sockets[i]
    if (probe !== undefined) {
      if (probe.sent.length >= 1000 || probe.socket.destroyed) return
      around?.(i)
      probe.sent.push(performance.now())
      probe.socket.write('GET / HTTP/1.1\r\nHost: probe\r\n\r\n')
      return
    }
    if (outstanding >= 200) return
    outstanding += 1
    const at = performance.now()
    let settled = false
    get(ports[i] as number, '/hello', false, (error) => {
      if (settled) return
      settled = true
      outstanding -= 1
      samples.push({ at, ms: error === undefined ? performance.now() - at : Number.NaN, target: i })
      if (error !== undefined) fail(error)
    })
  }, everyMs)
  return {
    samples,
    errors,
    pause: () => void (paused = true),
    resume: () => void (paused = false),
    stop: () => {
      stopped = true
      clearInterval(timer)
      for (const [target, probe] of sockets.entries()) {
        // Unanswered for 5 s: failed; younger ones were merely in flight when the probe stopped.
        const now = performance.now()
        for (const at of probe.sent) if (now - at > 5000) samples.push({ at, ms: Number.NaN, target })
        probe.socket.destroy()
      }
    },
  }
}
