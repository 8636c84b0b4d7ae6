/**
 * Benchmark (not a test; issue 28, "Measured"): server→client request round trips per second,
 * 50 clients × 10 in flight, in the same run:
 * - twinport's `server.requestClient(id, 'work', n)` (`bench/peers/twinport-server-requests.ts`)
 *   answered by `twinport/client`'s `client.handle('work', (n) => n + 1)` (`ws` as its WebSocket);
 * - Socket.IO's `socket.emitWithAck('work', n)` (`bench/peers/socket-io-server-requests.ts`,
 *   WebSocket transport) answered by `socket.io-client`'s `socket.on('work', (n, ack) => ack(n + 1))`.
 * Each side with its defaults otherwise (twinport: a 10 s time-out per request and a session;
 * socket.io: no time-out). Once the clients are connected, `GET /go` starts the server's loops
 * (`bench/load/request-loops.ts`, the same in both peers); after a 1 s warm-up `GET /mark` opens
 * the window and, `--ms` (3000) later, closes it: the server's count of answered round trips and
 * its p50/p99 round trip. Server CPU per round trip from `/proc/<pid>/stat` over the window
 * (server pinned to CPU 0, a fresh one per run), the clients' from this process (pinned to
 * CPU 1). Contenders interleaved over `--rounds` (3), the order rotating; the load average is
 * written beside each run. Target (issue 28): twinport ≥ 2× socket.io's `emitWithAck`.
 *
 *   node --import tsx bench/server-requests.ts            compiles (tsc -p tsconfig.bench.json), then runs itself compiled
 *   node --import tsx bench/server-requests.ts --source   everything from source under tsx (slower clients and server)
 *   node --import tsx bench/server-requests.ts --rounds 1 --prof /tmp/prof   each server's `--cpu-prof` in /tmp/prof/<side>
 *
 * Prints a Markdown section and writes it to `bench/.tmp/server-requests.md` (`--out`).
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { io, type Socket } from 'socket.io-client'
import WebSocket from 'ws'
import { connect } from '../lib/client/index.js'
import { peerScript, pinSelf, runCompiledCopy, runsCompiled } from './load/own-cpu.js'
import { CLK_TCK, processCpuTicks } from './load/proc.js'
import type { LoopWindow } from './load/request-loops.js'
import { int, median, pairedRounds, writeReport } from './load/paired-rounds.js'
import { runBench } from './load/start-server.js'

const { values: opt } = parseArgs({
  options: {
    clients: { type: 'string', default: '50' },
    inflight: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    ms: { type: 'string', default: '3000' },
    source: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/.tmp/server-requests.md' },
    prof: { type: 'string' },
  },
})
const CLIENTS = Number(opt.clients)
const IN_FLIGHT = Number(opt.inflight)
const ROUNDS = Number(opt.rounds)
const WARMUP_MS = 1000
const MEASURE_MS = Number(opt.ms)

type Side = 'twinport' | 'socket.io'
const SIDES: readonly Side[] = ['twinport', 'socket.io']

/** The handlers a twinport client offers the server: `work` answers `n + 1`. */
interface Asks {
  readonly work: (n: number) => number
}

/** What one measured run gave. */
interface Run {
  readonly perSecond: number
  readonly serverCpuUs: number
  readonly clientCpuUs: number
  readonly p50Us: number
  readonly p99Us: number
  readonly failed: number
  readonly load: string
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

// A connected client that answers `work`; resolves with its `close`.
const openTwinport = (port: number): Promise<() => void> =>
  new Promise((resolve, reject) => {
    const client = connect<[], Record<string, unknown>, Asks>(`ws://127.0.0.1:${port}/`, { WebSocket, reconnect: false })
    client.handle('work', (n) => n + 1)
    client.once('open', () => resolve(() => client.close()))
    client.once('close', ({ code }) => reject(new Error(`twinport client closed (${code}) before open`)))
  })

const openSocketIo = (port: number): Promise<() => void> =>
  new Promise((resolve, reject) => {
    const socket: Socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false, forceNew: true })
    socket.on('work', (n: number, ack: (answer: number) => void) => ack(n + 1))
    socket.once('connect', () => resolve(() => socket.close()))
    socket.once('connect_error', reject)
  })

const get = async <T>(port: number, path: string): Promise<T> => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`)
  return (await res.json()) as T
}

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

// Connects the clients, waits until the server counts them all, runs the loops, measures a window.
const drive = async (side: Side, port: number, pid: number): Promise<Run> => {
  const open = side === 'twinport' ? openTwinport : openSocketIo
  const closes = await Promise.all(Array.from({ length: CLIENTS }, () => open(port)))
  try {
    for (let i = 0; (await get<{ clients: number }>(port, '/clients')).clients < CLIENTS; i++) {
      if (i > 100) throw new Error('the server did not count every client within 5 s')
      await sleep(50)
    }
    const { started } = await get<{ started: number }>(port, '/go')
    if (started !== CLIENTS) throw new Error(`the server started loops for ${started} clients, not ${CLIENTS}`)
    await sleep(WARMUP_MS)
    await get<LoopWindow>(port, '/mark')
    const load0 = loadAverage()
    const server0 = processCpuTicks(pid) ?? 0
    const cpu0 = process.cpuUsage()
    await sleep(MEASURE_MS)
    const server1 = processCpuTicks(pid) ?? 0
    const cpu = process.cpuUsage(cpu0)
    const window = await get<LoopWindow>(port, '/mark')
    await get<unknown>(port, '/stop')
    const n = Math.max(1, window.answered)
    return {
      perSecond: (window.answered / window.ms) * 1000,
      serverCpuUs: (((server1 - server0) / CLK_TCK) * 1e6) / n,
      clientCpuUs: (cpu.user + cpu.system) / n,
      p50Us: window.p50Us,
      p99Us: window.p99Us,
      failed: window.failed,
      load: `${load0} → ${loadAverage()}`,
    }
  } finally {
    // Let the requests in flight settle before the clients go (their loops end on the answer).
    await sleep(200)
    for (const close of closes) close()
  }
}

const measureAll = async (): Promise<string> => {
  pinSelf(1)
  const compiled = runsCompiled(import.meta.url)
  const script: Record<Side, string> = {
    twinport: peerScript('twinport-server-requests', compiled),
    'socket.io': peerScript('socket-io-server-requests', compiled),
  }
  const lines: string[] = []
  const { runs, failures } = await pairedRounds(
    SIDES,
    ROUNDS,
    (side) => ({
      script: script[side],
      flags: opt.prof === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${opt.prof}/${side}`],
      env: { INFLIGHT: String(IN_FLIGHT) },
    }),
    async (side, server, round) => {
      const run = await drive(side, server.port, server.pid)
      const line = `round ${round + 1} ${side}: ${int(run.perSecond)} round trips/s, server ${run.serverCpuUs.toFixed(1)} µs, client ${run.clientCpuUs.toFixed(1)} µs, p50 ${int(run.p50Us)} µs, p99 ${int(run.p99Us)} µs, failed ${run.failed}, load ${run.load}`
      lines.push(line)
      process.stderr.write(`${line}\n`)
      return run
    },
  )
  const reference = median(runs['socket.io'].map((r) => r.perSecond))
  const twinport = median(runs.twinport.map((r) => r.perSecond))
  const cpuRatio = median(runs['socket.io'].map((r) => r.serverCpuUs)) / median(runs.twinport.map((r) => r.serverCpuUs))
  const row = (side: Side, label: string): string => {
    const rs = runs[side]
    const rates = rs.map((r) => r.perSecond)
    const of = (f: (r: Run) => number): number => median(rs.map(f))
    return `| ${label} | ${int(median(rates))} | ${rates.length === 0 ? 'n/a' : `${int(Math.min(...rates))}–${int(Math.max(...rates))}`} | ${(median(rates) / reference).toFixed(2)}× | ${of((r) => r.serverCpuUs).toFixed(1)} | ${of((r) => r.clientCpuUs).toFixed(1)} | ${int(of((r) => r.p50Us))} / ${int(of((r) => r.p99Us))} | ${rs.length} |`
  }
  return [
    `### Server→client requests, ${CLIENTS} clients × ${IN_FLIGHT} in flight`,
    '',
    `\`node --import tsx bench/server-requests.ts${opt.source ? ' --source' : ''} --rounds ${ROUNDS} --ms ${MEASURE_MS}\`${compiled ? ' (compiled)' : ' (from source under tsx)'}: ${ROUNDS} interleaved rounds, 1 s warm-up then ${MEASURE_MS / 1000} s measured; server on CPU 0, clients on CPU 1.`,
    '',
    '| contender | median round trips/s | min–max | vs socket.io | server CPU µs/round trip | client CPU µs/round trip | p50 / p99 µs | runs |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    row('twinport', '`server.requestClient` → `twinport/client` `handle`'),
    row('socket.io', '`socket.emitWithAck` → `socket.io-client` `on`'),
    '',
    `Target (issue 28): twinport ≥ 2× socket.io's \`emitWithAck\`: ${(twinport / reference).toFixed(2)}× round trips/s, ${twinport / reference >= 2 ? 'met' : 'not met'}; server CPU per round trip ${cpuRatio.toFixed(2)}× less.`,
    '',
    'Runs (load average: 1/5/15 min at the window\'s start → end):',
    '',
    ...lines.map((l) => `- ${l}`),
    '',
    ...(failures.length > 0 ? ['Failed runs:', '', ...failures.map((x) => `- ${x}`), ''] : []),
  ].join('\n')
}

const main = async (): Promise<void> => {
  runCompiledCopy(import.meta.url, 'server-requests', opt.source === true)
  writeReport(await measureAll(), opt.out)
}

runBench(main)
