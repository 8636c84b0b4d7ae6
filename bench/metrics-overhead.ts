/**
 * Benchmark (not a test): what the server's metrics cost (issue 25, "Measured"), metrics on
 * (the default, with `/metrics` and `/health` in the route table) against `metrics: false`, in
 * the same process, rounds interleaved (off, on, on, off, …) so drift on a shared machine falls
 * on both. The engine runs the echo example's routes in process over counting sockets (as
 * bench/http-engine.ts and bench/ws-echo-engine.ts do): HTTP keep-alive, 10 pipelined
 * `GET /hello` per chunk (wrk's head), and WebSocket echo with 10 masked 32-byte text frames
 * in flight per chunk. A third engine has metrics on and an OpenTelemetry SDK attached
 * (`otelInstrumentation`, exporters that drop: bench/load/otel-sdk.ts), in the same rounds.
 * Figures: ns of this process's CPU per request / message (median of the rounds), and each
 * against off. The end-to-end figures are bench/metrics-overhead-e2e.ts's.
 *
 * Run: `npx tsx bench/metrics-overhead.ts [--conns 50] [--rounds 9] [--ms 300] [--modes off,on,otel]`
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { encodeFrameBytes } from '../lib/core/ws/encode-frame.js'
import { OPCODE } from '../lib/core/ws/frame.js'
import { createEngine } from '../lib/engine/create-engine.js'
import { receivedBytes } from '../lib/engine/connection/received-bytes.js'
import { echoOptions, echoRoutes } from '../examples/echo-routes.js'
import { type CountingSocket, countingPlatform, countingSocket, upgradeRequest } from './load/counting-platform.js'
import { cpuNs } from './load/engine-rounds.js'
import { attachedSdk } from './load/otel-sdk.js'

const { values: opt } = parseArgs({
  options: {
    conns: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '9' },
    ms: { type: 'string', default: '300' },
    // Which engines share the process: an OTel engine beside the others makes the engine's
    // instrumentation call sites see three shapes (polymorphic), which a real server never does.
    modes: { type: 'string', default: 'off,on,otel' },
  },
})
const conns = Number(opt.conns)
const rounds = Number(opt.rounds)
const ms = Number(opt.ms)
const BATCH = 10

// The 1-minute load average (Linux), written beside the figures.
const loadAverage = (): string => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'
  } catch {
    return '?'
  }
}

type Mode = 'off' | 'on' | 'otel'
const MODES: readonly Mode[] = opt.modes.split(',').filter((m): m is Mode => m === 'off' || m === 'on' || m === 'otel')
if (!MODES.includes('off')) throw new Error('--modes must include off (the figures are against it)')

const engineWith = (mode: Mode) => {
  const options = { ...echoOptions, routes: echoRoutes, metrics: mode !== 'off', limits: { ...echoOptions.limits, heartbeatIntervalMs: 600_000 } }
  const engine = createEngine(mode === 'otel' ? { ...options, instrumentation: attachedSdk() } : options, countingPlatform)
  const sockets: CountingSocket[] = []
  const clients = Array.from({ length: conns }, () => {
    const socket = countingSocket()
    sockets.push(socket)
    const client = engine.accept(socket)
    if (client === undefined) throw new Error('refused')
    return client
  })
  return { engine, sockets, clients }
}

const copyOf = (bytes: Uint8Array): Uint8Array => {
  const copy = Buffer.allocUnsafe(bytes.length)
  copy.set(bytes)
  return copy
}

// HTTP: 10 pipelined GET /hello per chunk.
const httpChunk = new TextEncoder().encode('GET /hello HTTP/1.1\r\nHost: 127.0.0.1:6001\r\n\r\n'.repeat(BATCH))
const httpWorkload = (mode: Mode) => {
  const { engine, clients } = engineWith(mode)
  const step = (): number => {
    for (const client of clients) {
      const copy = copyOf(httpChunk)
      client.receiver.receive(new Uint8Array(copy.buffer, copy.byteOffset, copy.length))
    }
    return conns * BATCH
  }
  return { engine, clients, step }
}

// WebSocket echo: 10 masked 32-byte text frames per chunk.
const frame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new TextEncoder().encode('x'.repeat(32)) }, Uint8Array.of(1, 2, 3, 4))
const wsChunk = new Uint8Array(frame.length * BATCH)
for (let i = 0; i < BATCH; i++) wsChunk.set(frame, i * frame.length)
const wsWorkload = async (mode: Mode) => {
  const { engine, clients } = engineWith(mode)
  for (const client of clients) client.receiver.receive(upgradeRequest('/echo'))
  await new Promise((resolve) => setTimeout(resolve, 20))
  const step = (): number => {
    for (const client of clients) client.receiver.receive(receivedBytes(client, copyOf(wsChunk) as Buffer))
    return conns * BATCH
  }
  return { engine, clients, step }
}

// One round of `ms` ms of CPU: ns per operation.
const round = (step: () => number): number => {
  let ops = 0
  const start = cpuNs()
  let elapsed = 0
  while (elapsed < ms * 1e6) {
    for (let i = 0; i < 20; i++) ops += step()
    elapsed = cpuNs() - start
  }
  return elapsed / ops
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number

type Workload = { step: () => number; engine: { closed(c: never): void; handle: { close(): Promise<void> } }; clients: readonly unknown[] }

const compare = async (name: string, make: (mode: Mode) => Promise<Workload>): Promise<string> => {
  const made = {} as Record<Mode, Workload>
  for (const mode of MODES) made[mode] = await make(mode)
  for (const mode of MODES) round(made[mode].step)
  const figures: Record<Mode, number[]> = { off: [], on: [], otel: [] }
  for (let r = 0; r < rounds; r++) {
    // The order turns every round, so drift falls on every mode alike.
    for (let i = 0; i < MODES.length; i++) {
      const mode = MODES[(i + r) % MODES.length] as Mode
      figures[mode].push(round(made[mode].step))
    }
  }
  for (const w of Object.values(made)) {
    const closing = w.engine.handle.close()
    for (const c of w.clients) w.engine.closed(c as never)
    await closing
  }
  const of = (m: Mode): number | undefined => (figures[m].length === 0 ? undefined : median(figures[m]))
  const off = of('off') as number
  const ns = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(0))
  const vs = (x: number | undefined): string => (x === undefined ? '–' : `${((x / off - 1) * 100).toFixed(1)}%`)
  return `| ${name} | ${ns(off)} | ${ns(of('on'))} | ${vs(of('on'))} | ${ns(of('otel'))} | ${vs(of('otel'))} |`
}

console.log(`metrics overhead, engine in process, ${conns} connections, ${rounds} interleaved rounds of ${ms} ms CPU each, engines ${MODES.join(', ')}, Node ${process.version}, load ${loadAverage()}`)
console.log('| workload | off, ns/op | metrics on, ns/op | on vs off | on + OTel SDK, ns/op | OTel vs off |')
console.log('|---|--:|--:|--:|--:|--:|')
console.log(await compare('HTTP keep-alive, 10 pipelined GET /hello', async (m) => httpWorkload(m)))
console.log(await compare('WebSocket echo, 10 in flight (32 B text)', wsWorkload))
