/**
 * The workloads of issues 6 and 13, their contenders, reference and targets (each
 * runtime's against the ceiling measured in the same run). Pure data and the sizing
 * of a full or a `--quick` run.
 */
import type { ContenderId, Runtime } from '../peers/contenders.js'

/** Which load generator a workload uses. */
export type LoadKind = 'wrk' | 'wrk-pipeline' | 'echo' | 'rate' | 'bcast' | 'idle'

/** What twinport must reach, compared with a reference's median (or an absolute figure). */
export type Target =
  | { readonly _tag: 'AtLeastTimes'; readonly times: number }
  | { readonly _tag: 'AtMostTimes'; readonly times: number }
  | { readonly _tag: 'AtMostValue'; readonly value: number }
  | { readonly _tag: 'ReportOnly' }

/** One target of one issue: `subject`'s median against `reference`'s, in the same run. */
export interface Goal {
  /** the issue that set it: 6 (twinport against the Node peers), 12 (compression and TLS), 13 (each runtime against its ceiling). */
  readonly issue: 6 | 12 | 13
  readonly runtime: Runtime
  readonly subject: ContenderId
  readonly reference: ContenderId
  readonly target: Target
}

/** One row group of RESULTS.md. */
export interface Workload {
  readonly id: string
  readonly title: string
  readonly kind: LoadKind
  /** load-client settings; see bench/load/ws-client.ts. */
  readonly params: Readonly<Record<string, number>>
  readonly contenders: readonly ContenderId[]
  /** the contender every row's "vs" column is against (issue 6's peer). */
  readonly reference: ContenderId
  readonly goals: readonly Goal[]
  /** the headline number: its unit and whether higher is better. */
  readonly unit: string
  readonly higherIsBetter: boolean
  /** environment of every contender's server (`DEFLATE=1`: compression on). */
  readonly serverEnv?: Readonly<Record<string, string>>
  /** further arguments of the load client (`--offer`, `--json`). */
  readonly clientArgs?: readonly string[]
  /** Served over TLS: the servers get TLS_KEY/TLS_CERT, the load generator an https:// URL. */
  readonly tls?: boolean
  /**
   * Issue 32: driven by the C load client (bench/c1m/wsload.c, built with the system `cc`) for
   * contenders speaking plain WebSocket, so the figure is the server's, not the JS client's;
   * without `cc`, or for Socket.IO's dialect, the JS client (bench/load/ws-client.ts).
   */
  readonly cClient?: boolean
}

/** Durations and counts of one run. */
export interface Sizing {
  readonly rounds: number
  readonly warmupMs: number
  readonly measureMs: number
  readonly clients: number
  readonly broadcasts: number
}

/**
 * Full run (the committed RESULTS.md) and the short development run. Three runtimes make 73
 * runs a round: the full run's windows are short enough for three rounds in 15 minutes.
 */
export const SIZING: Readonly<Record<'full' | 'quick', Sizing>> = {
  full: { rounds: 3, warmupMs: 500, measureMs: 1500, clients: 10_000, broadcasts: 5 },
  quick: { rounds: 1, warmupMs: 500, measureMs: 1500, clients: 2000, broadcasts: 3 },
}

const BUN_DENO: readonly ContenderId[] = ['twinport-bun', 'bun-serve', 'raw-bun', 'twinport-deno', 'deno-serve', 'raw-deno']
// Issue 32: twinport on its native transport, and uWebSockets.js, in every Node workload.
const NATIVE: readonly ContenderId[] = ['twinport-native', 'uws']
const HTTP: readonly ContenderId[] = ['twinport', 'node-http', 'fastify', 'raw-net', ...NATIVE, ...BUN_DENO]

// permessage-deflate (issue 12): the servers with `DEFLATE=1` (twinport's echo example, ws's
// `perMessageDeflate: true`, each with its defaults), the client offering what Chromium
// offers, or asking for server_no_context_takeover too for the broadcast.
const DEFLATE_ON = { DEFLATE: '1' }
const CHROMIUM_OFFER = 'permessage-deflate; client_max_window_bits'
const NO_TAKEOVER_OFFER = 'permessage-deflate; server_no_context_takeover; client_max_window_bits'
// 16 different 4 KiB messages in turn: an application's messages differ, and a compressor that
// keeps its window would find a message it saw just before almost for free.
const JSON_4K = ['--json', '4096', '--variants', '16']
const WS: readonly ContenderId[] = ['twinport', 'ws', 'socketio', 'raw-net', ...NATIVE, ...BUN_DENO]

const times = (t: number): Target => ({ _tag: 'AtLeastTimes', times: t })
const atMost = (t: number): Target => ({ _tag: 'AtMostTimes', times: t })
const REPORT: Target = { _tag: 'ReportOnly' }

/** Issue 6: twinport on Node against a Node peer. */
const issue6 = (reference: ContenderId, target: Target): Goal => ({ issue: 6, runtime: 'node', subject: 'twinport', reference, target })
const issue12 = (reference: ContenderId, target: Target): Goal => ({ issue: 12, runtime: 'node', subject: 'twinport', reference, target })
/** Issue 13 on Node: at 0.90× the raw node:net ceiling's throughput, or 1.10× its time or memory. */
const nodeCeiling = (higherIsBetter: boolean): Goal => ({
  issue: 13, runtime: 'node', subject: 'twinport', reference: 'raw-net', target: higherIsBetter ? times(0.9) : atMost(1.1),
})
const onBun = (reference: ContenderId, target: Target): Goal => ({ issue: 13, runtime: 'bun', subject: 'twinport-bun', reference, target })
/** Issue 13 on Deno: every workload reported beside Deno.serve. */
const ON_DENO: Goal = { issue: 13, runtime: 'deno', subject: 'twinport-deno', reference: 'deno-serve', target: REPORT }

/** The workloads of issues 6 and 13, in the order RESULTS.md lists them. */
export const WORKLOADS: readonly Workload[] = [
  {
    id: 'http-keepalive', title: 'HTTP GET /hello, keep-alive, 50 connections', kind: 'wrk', params: { connections: 50 },
    contenders: HTTP, reference: 'node-http', unit: 'req/s', higherIsBetter: true,
    goals: [nodeCeiling(true), onBun('twinport', times(1.5)), ON_DENO, issue6('node-http', times(2))],
  },
  {
    id: 'http-pipelined', title: 'HTTP GET /hello, 10 pipelined per connection, 50 connections', kind: 'wrk-pipeline',
    params: { connections: 50, depth: 10 },
    contenders: HTTP, reference: 'node-http', unit: 'req/s', higherIsBetter: true,
    goals: [nodeCeiling(true), onBun('bun-serve', times(1)), ON_DENO, issue6('node-http', times(6))],
  },
  {
    id: 'https-keepalive', title: 'HTTPS GET /hello, keep-alive, 50 connections', kind: 'wrk', params: { connections: 50 }, tls: true,
    contenders: ['twinport', 'node-https'], reference: 'node-https', goals: [issue12('node-https', { _tag: 'AtLeastTimes', times: 1.5 })], unit: 'req/s', higherIsBetter: true,
  },
  {
    id: 'ws-echo-10', title: 'WebSocket echo, 50 connections, 10 in flight, 32-byte text', kind: 'echo',
    params: { conns: 50, inflight: 10 }, cClient: true,
    // With the young-generation cap of the memory workload, to show what it costs in throughput.
    contenders: [...WS, 'twinport-young1'], reference: 'ws', unit: 'msg/s', higherIsBetter: true,
    goals: [nodeCeiling(true), onBun('twinport', times(1.5)), ON_DENO, issue6('ws', times(2))],
  },
  {
    id: 'ws-echo-1', title: 'WebSocket echo, 50 connections, 1 in flight, 32-byte text', kind: 'echo',
    params: { conns: 50, inflight: 1 }, cClient: true,
    contenders: WS, reference: 'ws', unit: 'msg/s', higherIsBetter: true,
    goals: [nodeCeiling(true), onBun('bun-serve', REPORT), ON_DENO, issue6('ws', times(1.2))],
  },
  {
    id: 'ws-bcast', title: 'Broadcast one message to every client on /bcast (time to the last receipt)', kind: 'bcast',
    params: {},
    contenders: WS, reference: 'ws', unit: 'ms', higherIsBetter: false,
    goals: [nodeCeiling(false), onBun('ws', atMost(0.5)), ON_DENO, issue6('ws', atMost(0.5))],
  },
  {
    id: 'ws-idle', title: 'Memory per idle WebSocket connection (server RSS delta / connections)', kind: 'idle',
    params: { base: 500 },
    contenders: [...WS, 'twinport-young1', 'ws-young1'], reference: 'ws', unit: 'KiB', higherIsBetter: false,
    goals: [nodeCeiling(false), onBun('ws', { _tag: 'AtMostValue', value: 3 }), ON_DENO, issue6('ws', { _tag: 'AtMostValue', value: 3 })],
  },
  {
    // Issue 32's measure of idle memory (session 12): the same RSS delta, read once the server
    // has been idle 10 s before the base reading and 15 s before the full one, so that a
    // runtime's young generation, grown by the connect burst and given back by V8's memory
    // reducer when idle, is not counted per connection. No GC is forced (uWS has none to force).
    id: 'ws-idle-settled', title: 'Memory per idle WebSocket connection, read after 15 s idle (server RSS delta / connections)', kind: 'idle',
    params: { base: 500 }, clientArgs: ['--settle', '10000'],
    contenders: ['twinport', 'twinport-native', 'uws'], reference: 'uws', unit: 'KiB', higherIsBetter: false,
    goals: [], // issue 32's target (twinport-native ≤ 1.5 KiB) is judged in bench/RESULTS.md's session 12 notes
  },
  {
    id: 'ws-latency', title: 'WebSocket echo latency at a fixed 10,000 msg/s over 50 connections (p50)', kind: 'rate',
    params: { conns: 50, rate: 10_000 },
    contenders: WS, reference: 'ws', unit: 'ms', higherIsBetter: false,
    goals: [nodeCeiling(false), onBun('bun-serve', REPORT), ON_DENO, issue6('ws', REPORT)],
  },
  {
    id: 'ws-echo-deflate', title: 'WebSocket echo with permessage-deflate, 50 connections, 10 in flight, 4 KiB JSON', kind: 'echo',
    params: { conns: 50, inflight: 10 }, serverEnv: DEFLATE_ON, clientArgs: ['--offer', CHROMIUM_OFFER, ...JSON_4K],
    contenders: ['twinport', 'ws'], reference: 'ws', goals: [issue12('ws', { _tag: 'AtLeastTimes', times: 1.5 })], unit: 'msg/s', higherIsBetter: true,
  },
  {
    id: 'ws-bcast-deflate', title: 'Broadcast a 4 KiB JSON message with permessage-deflate (server_no_context_takeover) to every client on /bcast', kind: 'bcast',
    params: {}, serverEnv: DEFLATE_ON, clientArgs: ['--offer', NO_TAKEOVER_OFFER, ...JSON_4K],
    contenders: ['twinport', 'ws'], reference: 'ws', goals: [issue12('ws', { _tag: 'AtMostTimes', times: 0.3 })], unit: 'ms', higherIsBetter: false,
  },
  {
    id: 'ws-idle-deflate', title: 'Memory per idle WebSocket connection with permessage-deflate agreed', kind: 'idle',
    params: { base: 500 }, serverEnv: DEFLATE_ON, clientArgs: ['--offer', CHROMIUM_OFFER],
    contenders: ['twinport', 'twinport-plain', 'ws'], reference: 'twinport-plain', goals: [issue12('twinport-plain', { _tag: 'AtMostTimes', times: 1.2 })], unit: 'KiB', higherIsBetter: false,
  },
]
