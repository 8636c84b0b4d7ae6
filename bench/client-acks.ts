/**
 * Benchmark (not a test): acknowledged requests per second, 50 clients × 10 in flight,
 * `twinport/client` on Node (`ws` as its WebSocket) against a twinport server whose handler
 * returns the data as the ack (`bench/peers/twinport-ack.ts`), beside `socket.io-client`
 * against `socket.io` with acks (`bench/peers/socket-io-ack.ts`, WebSocket transport only,
 * one connection per client). 32-byte string payloads. Each server runs pinned to CPU 0,
 * the clients in this process on CPU 1; contenders interleaved over 3 rounds, a fresh
 * server per run, 1 s warm-up then 4 s measured (about 40 s in all). Each side as a user
 * gets it: twinport/client with its defaults (a 10 s time-out on every request, a session),
 * socket.io-client with its own (no time-out); both peer servers compiled alike when this
 * runs compiled. Target (issue 10): twinport ≥ 2× socket.io. Run as `npm run bench` does:
 * `npx tsc -p tsconfig.bench.json`, then
 * `taskset -c 0 node bench/load/micro-child.mjs bench/.tmp/dist/bench/client-acks.js`
 * (or `npx tsx bench/client-acks.ts`, slower: every module through tsx).
 */
import { io, type Socket } from 'socket.io-client'
import WebSocket from 'ws'
import { connect } from '../lib/client/index.js'
import { LIVE, startServer } from './load/start-server.js'
import { type Driver, driveRequests, type RequestRun } from './load/drive-requests.js'
import { peerScript, pinSelf, runsCompiled } from './load/own-cpu.js'

const CLIENTS = 50
const IN_FLIGHT = 10
const ROUNDS = 3
const WARMUP_MS = 1000
const MEASURE_MS = 4000
const PAYLOAD = 'abcdefghijklmnopqrstuvwxyz012345'

/** One contender's figures over the rounds. */
export interface AckRow {
  readonly contender: string
  readonly 'median req/s': number
  readonly 'min–max': string
  readonly 'vs socket.io': string
  readonly 'server CPU/req µs': number
  readonly 'client CPU/req µs': number
  readonly runs: number
}

// A connected client, reduced to what the load needs.
type Side = 'twinport' | 'socket.io'

const openTwinport = (port: number): Promise<Driver> =>
  new Promise((resolve, reject) => {
    const client = connect(`ws://127.0.0.1:${port}/`, { WebSocket, reconnect: false })
    client.once('open', () => resolve({ request: () => client.request('m', PAYLOAD), close: () => client.close() }))
    client.once('close', ({ code }) => reject(new Error(`twinport client closed (${code}) before open`)))
  })

const openSocketIo = (port: number): Promise<Driver> =>
  new Promise((resolve, reject) => {
    const socket: Socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false, forceNew: true })
    socket.once('connect', () =>
      resolve({ request: () => new Promise((done) => socket.emit('m', PAYLOAD, done)), close: () => socket.close() }),
    )
    socket.once('connect_error', reject)
  })

type Run = RequestRun

// Opens the clients, keeps IN_FLIGHT requests going on each, counts answers in the window.
const drive = async (side: Side, port: number, pid: number): Promise<Run> => {
  const open = side === 'twinport' ? openTwinport : openSocketIo
  const drivers = await Promise.all(Array.from({ length: CLIENTS }, () => open(port)))
  return driveRequests(drivers, { inFlight: IN_FLIGHT, warmupMs: WARMUP_MS, measureMs: MEASURE_MS, pid })
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/** Runs the rounds and answers one row per contender, twinport first. */
export const run = async (): Promise<readonly AckRow[]> => {
  pinSelf(1)
  const compiled = runsCompiled(import.meta.url)
  const scripts: Record<Side, string> = { twinport: peerScript('twinport-ack', compiled), 'socket.io': peerScript('socket-io-ack', compiled) }
  const runs: Record<Side, Run[]> = { twinport: [], 'socket.io': [] }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const side of ['twinport', 'socket.io'] as const) {
      const server = await startServer(scripts[side])
      if (typeof server === 'string') throw new Error(`${side} server: ${server}`)
      try {
        runs[side].push(await drive(side, server.port, server.pid))
      } finally {
        await server.stop()
      }
    }
  }
  const reference = median(runs['socket.io'].map((r) => r.perSecond))
  return (['twinport', 'socket.io'] as const).map((side) => {
    const rates = runs[side].map((r) => r.perSecond)
    return {
      contender: side === 'twinport' ? 'twinport/client → twinport' : 'socket.io-client → socket.io',
      'median req/s': Math.round(median(rates)),
      'min–max': `${Math.round(Math.min(...rates)).toLocaleString('en-US')}–${Math.round(Math.max(...rates)).toLocaleString('en-US')}`,
      'vs socket.io': `${(median(rates) / reference).toFixed(2)}×`,
      'server CPU/req µs': Number(median(runs[side].map((r) => r.serverCpuUs)).toFixed(2)),
      'client CPU/req µs': Number(median(runs[side].map((r) => r.clientCpuUs)).toFixed(2)),
      runs: rates.length,
    }
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.on('exit', () => {
    for (const c of LIVE) c.kill('SIGKILL')
  })
  console.table(await run())
  process.exit(0)
}
