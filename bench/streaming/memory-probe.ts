/**
 * A streaming bench peer seen from inside: runs `stream-twinport.ts`, `stream-fastify.ts` or
 * `upload-raw-net.ts` (node:net discarding upload bodies: the floor; compiled, from
 * `bench/.tmp/<dir>`, or the sources under tsx) in this process and samples
 * `process.memoryUsage()` every 2 ms, so an upload's RSS growth can be split into JavaScript
 * heap and array buffers (the socket reads, live or waiting for GC). `SIGUSR2` (what
 * `upload-runs.ts --gc` sends) collects twice and restarts the peaks from there; `SIGUSR1`
 * prints the peak growth of each figure since (`heapTotal`: the heap V8 has committed, young
 * generation included, which `heapUsed` does not show). Node only; run with `--expose-gc`.
 *
 *   PORT=6101 node --expose-gc --import tsx bench/streaming/memory-probe.ts twinport|fastify|raw-net [dist]
 *   node --import tsx bench/streaming/upload-runs.ts 6101 64 16 <pid> --gc; kill -USR1 <pid>
 *
 * With `SERIES_MS=<ms>` in the environment it also prints, every that many ms after a
 * `SIGUSR2`, one line of RSS, heap used and array buffers (MiB, absolute): memory over time
 * during a long upload, to see that it stays flat.
 *
 * The samples are taken on the server's own loop, so a busy loop samples less often than
 * 2 ms: the peaks are lower bounds. Imports the peers only.
 */
const PEERS = { twinport: 'stream-twinport', fastify: 'stream-fastify', 'raw-net': 'upload-raw-net' } as const
const asked = process.argv[2]
const which: keyof typeof PEERS = asked === 'fastify' || asked === 'raw-net' ? asked : 'twinport'
const compiled = process.argv[3]
const gc = (globalThis as { gc?: () => void }).gc
const KEYS = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'] as const
type Figures = Record<(typeof KEYS)[number], number>

let base: Figures = process.memoryUsage()
let peak: Figures = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }
let samples = 0
setInterval(() => {
  const now = process.memoryUsage()
  samples += 1
  for (const k of KEYS) peak[k] = Math.max(peak[k], now[k] - base[k])
}, 2).unref()

const seriesMs = Number(process.env['SERIES_MS'] ?? 0)
let seriesFrom = 0
if (seriesMs > 0) {
  setInterval(() => {
    if (seriesFrom === 0) return
    const m = process.memoryUsage()
    const mib = (n: number): string => (n / 1048576).toFixed(1)
    console.log(`series t=${((performance.now() - seriesFrom) / 1000).toFixed(1)}s rss ${mib(m.rss)} heapUsed ${mib(m.heapUsed)} arrayBuffers ${mib(m.arrayBuffers)}`)
  }, seriesMs).unref()
}

// Installed before the peer's own (gcOnSignal leaves an existing handler alone).
process.on('SIGUSR2', () => {
  gc?.()
  gc?.()
  base = process.memoryUsage()
  peak = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }
  samples = 0
  seriesFrom = performance.now()
})
process.on('SIGUSR1', () => {
  const mib = (n: number): string => (n / 1048576).toFixed(1)
  console.log(`${which} peak growth MiB: ${KEYS.map((k) => `${k} ${mib(peak[k])}`).join(', ')} (${samples} samples)`)
})

const peer = PEERS[which]
await import(compiled === undefined ? `../peers/${peer}.js` : new URL(`../.tmp/${compiled}/bench/peers/${peer}.js`, import.meta.url).href)
console.log(`memory probe ${process.pid} around ${peer}`)
