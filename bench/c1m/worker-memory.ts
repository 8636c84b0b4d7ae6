/**
 * Memory per connection for bench/c1m, on settled heaps: `workerMemory` asks one server
 * worker (its probe port, bench/c1m/server.ts `GET /mem`) to run a full garbage collection
 * and tell its heap; `memorySlope` turns two readings of the whole step (after a first wave
 * of connections and after the rest) into bytes per connection. A slope needs no base: what
 * the workers grew by on their own after start-up (the JIT, the heap's first pages) is in
 * both readings and falls out, where a base taken seconds after start-up gave negative
 * figures at 250k and 500k. `memorySlope` is pure; `workerMemory` does one HTTP request.
 * Must not import the driver (bench/c1m/run.ts).
 */
import { request } from 'node:http'

/** One worker's answer: bytes after its full GC. */
export interface WorkerMemory {
  readonly rss: number
  readonly heapTotal: number
  readonly heapUsed: number
  readonly external: number
  /** whether it could collect (it runs with --expose-gc) */
  readonly gc: boolean
}

/** A reading of the step: connections open, Σ worker RSS and heap after GC, the kernel's memory (bytes). */
export interface MemoryPoint {
  readonly opened: number
  readonly rss: number
  readonly heapUsed: number
  /** Σ the workers' heap committed but free after the GC (heapTotal − heapUsed): resident room the next allocations reuse */
  readonly heapFree: number
  readonly slab: number
  readonly sunreclaim: number
  readonly tcpMem: number
}

/** Per connection between two readings, KiB (NaN when no connection opened in between). */
export interface MemorySlope {
  readonly rssKiB: number
  /** RSS less the heap's free committed room: what stays resident for the connections alone */
  readonly liveKiB: number
  readonly heapKiB: number
  /** kernel memory per client+server socket pair */
  readonly slabKiB: number
  readonly sunreclaimKiB: number
  readonly tcpMemKiB: number
}

/**
 * The slope between two readings, KiB per connection.
 *
 * @example
 * memorySlope({ opened: 1000, rss: 4096e3, heapUsed: 0, heapFree: 0, slab: 0, sunreclaim: 0, tcpMem: 0 },
 *             { opened: 2000, rss: 6144e3, heapUsed: 1024e3, heapFree: 0, slab: 2048e3, sunreclaim: 0, tcpMem: 0 }).rssKiB // 2
 */
export const memorySlope = (a: MemoryPoint, b: MemoryPoint): MemorySlope => {
  const d = b.opened - a.opened
  const per = (x: number, y: number): number => (d > 0 ? (y - x) / d / 1024 : Number.NaN)
  return {
    rssKiB: per(a.rss, b.rss),
    liveKiB: per(a.rss - a.heapFree, b.rss - b.heapFree),
    heapKiB: per(a.heapUsed, b.heapUsed),
    slabKiB: per(a.slab, b.slab),
    sunreclaimKiB: per(a.sunreclaim, b.sunreclaim),
    tcpMemKiB: per(a.tcpMem, b.tcpMem),
  }
}

/** Asks the worker whose probe listens on `port` to collect and tell its memory; `undefined` on failure (60 s time-out). */
export const workerMemory = (port: number): Promise<WorkerMemory | undefined> =>
  new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/mem', agent: false, timeout: 60_000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        try {
          resolve(JSON.parse(body) as WorkerMemory)
        } catch {
          resolve(undefined)
        }
      })
      res.on('error', () => resolve(undefined))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(undefined))
    req.end()
  })
