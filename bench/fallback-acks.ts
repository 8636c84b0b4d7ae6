/**
 * Benchmark (not a test; issue 23, "Measured"): acknowledged requests per second without
 * WebSocket, 50 clients × 10 in flight, 32-byte string payloads, in the same run:
 * - `twinport/client` over `eventStreamSocket()` of `twinport/client/fallback` (Server-Sent
 *   Events for the acks, `POST` for the requests; Node's `fetch`) against
 *   `bench/peers/twinport-fallback-ack.ts` (`sseRoute` + `ssePostRoute` + `socketOn('m')`);
 * - `socket.io-client` forced to HTTP long-polling (`transports: ['polling']`) against
 *   `bench/peers/socket-io-ack.ts` with `TRANSPORT=polling` (acks answered with the data).
 * Each side with its client's defaults otherwise. Each server runs pinned to CPU 0, a fresh one
 * per run; the clients run in this process, pinned to CPU 1 (their CPU per request is
 * reported, to show whether they were the bound). Contenders interleaved over `--rounds`
 * (3), the order rotating, 1 s warm-up then `--ms` (4000) measured. Target (issue 23):
 * twinport ≥ 2× socket.io long-polling.
 *
 *   node --import tsx bench/fallback-acks.ts            compiles (tsc -p tsconfig.bench.json), then runs itself compiled
 *   node --import tsx bench/fallback-acks.ts --source   everything from source under tsx (slower clients and server)
 *
 * Prints a Markdown section and writes it to `bench/.tmp/fallback-acks.md` (`--out`).
 */
import { parseArgs } from 'node:util'
import { io, type Socket } from 'socket.io-client'
import { connect } from '../lib/client/index.js'
import { eventStreamSocket } from '../lib/client/fallback.js'
import { peerScript, pinSelf, runCompiledCopy, runsCompiled } from './load/own-cpu.js'
import { type Driver, driveRequests, type RequestRun } from './load/drive-requests.js'
import { waitForQuiet } from './load/quiet.js'
import { int, median, pairedRounds, writeReport } from './load/paired-rounds.js'
import { runBench } from './load/start-server.js'

const { values: opt } = parseArgs({
  options: {
    clients: { type: 'string', default: '50' },
    inflight: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    ms: { type: 'string', default: '4000' },
    source: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/.tmp/fallback-acks.md' },
  },
})
const CLIENTS = Number(opt.clients)
const IN_FLIGHT = Number(opt.inflight)
const ROUNDS = Number(opt.rounds)
const WARMUP_MS = 1000
const MEASURE_MS = Number(opt.ms)
const PAYLOAD = 'abcdefghijklmnopqrstuvwxyz012345'

type Side = 'twinport' | 'socket.io'
const SIDES: readonly Side[] = ['twinport', 'socket.io']

// A connected client, reduced to what the load needs.
const openTwinport = (port: number): Promise<Driver> =>
  new Promise((resolve, reject) => {
    const client = connect(`http://127.0.0.1:${port}/events`, { WebSocket: eventStreamSocket(), reconnect: false })
    client.once('open', () => resolve({ request: () => client.request('m', PAYLOAD), close: () => client.close() }))
    client.once('close', ({ code }) => reject(new Error(`twinport client closed (${code}) before open`)))
  })

const openSocketIo = (port: number): Promise<Driver> =>
  new Promise((resolve, reject) => {
    const socket: Socket = io(`http://127.0.0.1:${port}`, { transports: ['polling'], reconnection: false, forceNew: true })
    socket.once('connect', () => resolve({ request: () => new Promise((done) => socket.emit('m', PAYLOAD, done)), close: () => socket.close() }))
    socket.once('connect_error', reject)
  })

type Run = RequestRun

// Opens the clients, keeps IN_FLIGHT requests going on each, counts answers in the window.
const drive = async (side: Side, port: number, pid: number): Promise<Run> => {
  const open = side === 'twinport' ? openTwinport : openSocketIo
  const drivers = await Promise.all(Array.from({ length: CLIENTS }, () => open(port)))
  return driveRequests(drivers, { inFlight: IN_FLIGHT, warmupMs: WARMUP_MS, measureMs: MEASURE_MS, pid, tolerateFailures: true })
}

const measureAll = async (): Promise<string> => {
  pinSelf(1)
  const compiled = runsCompiled(import.meta.url)
  const script: Record<Side, string> = { twinport: peerScript('twinport-fallback-ack', compiled), 'socket.io': peerScript('socket-io-ack', compiled) }
  const env: Record<Side, Record<string, string>> = { twinport: {}, 'socket.io': { TRANSPORT: 'polling' } }
  const { runs, failures } = await pairedRounds(SIDES, ROUNDS, (side) => ({ script: script[side], env: env[side] }), async (side, server, round) => {
    await waitForQuiet(3000)
    const run = await drive(side, server.port, server.pid)
    process.stderr.write(`round ${round + 1} ${side}: ${int(run.perSecond)} req/s, server ${run.serverCpuUs.toFixed(1)} µs/req, client ${run.clientCpuUs.toFixed(1)} µs/req\n`)
    return run
  })
  const reference = median(runs['socket.io'].map((r) => r.perSecond))
  const twinport = median(runs.twinport.map((r) => r.perSecond))
  const row = (side: Side, label: string): string => {
    const rates = runs[side].map((r) => r.perSecond)
    return `| ${label} | ${int(median(rates))} | ${rates.length === 0 ? 'n/a' : `${int(Math.min(...rates))}–${int(Math.max(...rates))}`} | ${(median(rates) / reference).toFixed(2)}× | ${median(runs[side].map((r) => r.serverCpuUs)).toFixed(1)} | ${median(runs[side].map((r) => r.clientCpuUs)).toFixed(1)} | ${rates.length} |`
  }
  return [
    `### Acknowledged requests without WebSocket, ${CLIENTS} clients × ${IN_FLIGHT} in flight`,
    '',
    `\`node --import tsx bench/fallback-acks.ts${opt.source ? ' --source' : ''} --rounds ${ROUNDS} --ms ${MEASURE_MS}\`${compiled ? ' (compiled)' : ' (from source under tsx)'}: 32-byte payloads, ${ROUNDS} interleaved rounds, 1 s warm-up then ${MEASURE_MS / 1000} s measured; server on CPU 0, clients on CPU 1.`,
    '',
    '| contender | median req/s | min–max | vs socket.io polling | server CPU µs/req | client CPU µs/req | runs |',
    '|---|---|---|---|---|---|---|',
    row('twinport', '`twinport/client` + `eventStreamSocket()` (SSE + POST) → `sseRoute` + `ssePostRoute`'),
    row('socket.io', '`socket.io-client` `transports: [\'polling\']` → socket.io 4 polling'),
    '',
    `Target (issue 23): twinport ≥ 2× socket.io long-polling: ${(twinport / reference).toFixed(2)}×, ${twinport / reference >= 2 ? 'met' : 'not met'}.`,
    '',
    ...(failures.length > 0 ? ['Failed runs:', '', ...failures.map((x) => `- ${x}`), ''] : []),
  ].join('\n')
}

const main = async (): Promise<void> => {
  runCompiledCopy(import.meta.url, 'fallback-acks', opt.source === true)
  writeReport(await measureAll(), opt.out)
}

runBench(main)
