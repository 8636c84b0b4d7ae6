/**
 * The workloads of issue 6, their contenders, reference and target. Pure data
 * and the sizing of a full or a `--quick` run.
 */
import type { ContenderId } from '../peers/contenders.js'

/** Which load generator a workload uses. */
export type LoadKind = 'wrk' | 'wrk-pipeline' | 'echo' | 'rate' | 'bcast' | 'idle'

/** What twinport must reach, compared with the reference's median. */
export type Target =
  | { readonly _tag: 'AtLeastTimes'; readonly times: number }
  | { readonly _tag: 'AtMostTimes'; readonly times: number }
  | { readonly _tag: 'AtMostValue'; readonly value: number }
  | { readonly _tag: 'ReportOnly' }

/** One row group of RESULTS.md. */
export interface Workload {
  readonly id: string
  readonly title: string
  readonly kind: LoadKind
  /** load-client settings; see bench/load/ws-client.ts. */
  readonly params: Readonly<Record<string, number>>
  readonly contenders: readonly ContenderId[]
  readonly reference: ContenderId
  readonly target: Target
  /** the headline number: its unit and whether higher is better. */
  readonly unit: string
  readonly higherIsBetter: boolean
  /** environment of every contender's server (`DEFLATE=1`: compression on). */
  readonly serverEnv?: Readonly<Record<string, string>>
  /** further arguments of the load client (`--offer`, `--json`). */
  readonly clientArgs?: readonly string[]
}

/** Durations and counts of one run. */
export interface Sizing {
  readonly rounds: number
  readonly warmupMs: number
  readonly measureMs: number
  readonly clients: number
  readonly broadcasts: number
}

/** Full run (the committed RESULTS.md) and the short development run. */
export const SIZING: Readonly<Record<'full' | 'quick', Sizing>> = {
  full: { rounds: 3, warmupMs: 1000, measureMs: 5000, clients: 10_000, broadcasts: 5 },
  quick: { rounds: 1, warmupMs: 500, measureMs: 1500, clients: 2000, broadcasts: 3 },
}

const HTTP: readonly ContenderId[] = ['twinport', 'node-http', 'fastify', 'raw-net']

// permessage-deflate (issue 12): the servers with `DEFLATE=1` (twinport's echo example, ws's
// `perMessageDeflate: true`, each with its defaults), the client offering what Chromium
// offers, or asking for server_no_context_takeover too for the broadcast.
const DEFLATE_ON = { DEFLATE: '1' }
const CHROMIUM_OFFER = 'permessage-deflate; client_max_window_bits'
const NO_TAKEOVER_OFFER = 'permessage-deflate; server_no_context_takeover; client_max_window_bits'
// 16 different 4 KiB messages in turn: an application's messages differ, and a compressor that
// keeps its window would find a message it saw just before almost for free.
const JSON_4K = ['--json', '4096', '--variants', '16']
const WS: readonly ContenderId[] = ['twinport', 'ws', 'socketio', 'raw-net']

/** The table, in the order RESULTS.md lists it. */
export const WORKLOADS: readonly Workload[] = [
  {
    id: 'http-keepalive', title: 'HTTP GET /hello, keep-alive, 50 connections', kind: 'wrk', params: { connections: 50 },
    contenders: HTTP, reference: 'node-http', target: { _tag: 'AtLeastTimes', times: 2 }, unit: 'req/s', higherIsBetter: true,
  },
  {
    id: 'http-pipelined', title: 'HTTP GET /hello, 10 pipelined per connection, 50 connections', kind: 'wrk-pipeline',
    params: { connections: 50, depth: 10 },
    contenders: HTTP, reference: 'node-http', target: { _tag: 'AtLeastTimes', times: 6 }, unit: 'req/s', higherIsBetter: true,
  },
  {
    id: 'ws-echo-10', title: 'WebSocket echo, 50 connections, 10 in flight, 32-byte text', kind: 'echo',
    params: { conns: 50, inflight: 10 },
    // With the young-generation cap of the memory workload, to show what it costs in throughput.
    contenders: [...WS, 'twinport-young1'], reference: 'ws', target: { _tag: 'AtLeastTimes', times: 2 }, unit: 'msg/s', higherIsBetter: true,
  },
  {
    id: 'ws-echo-1', title: 'WebSocket echo, 50 connections, 1 in flight, 32-byte text', kind: 'echo',
    params: { conns: 50, inflight: 1 },
    contenders: WS, reference: 'ws', target: { _tag: 'AtLeastTimes', times: 1.2 }, unit: 'msg/s', higherIsBetter: true,
  },
  {
    id: 'ws-bcast', title: 'Broadcast one message to every client on /bcast (time to the last receipt)', kind: 'bcast',
    params: {},
    contenders: WS, reference: 'ws', target: { _tag: 'AtMostTimes', times: 0.5 }, unit: 'ms', higherIsBetter: false,
  },
  {
    id: 'ws-idle', title: 'Memory per idle WebSocket connection (server RSS delta / connections)', kind: 'idle',
    params: { base: 500 },
    contenders: [...WS, 'twinport-young1', 'ws-young1'], reference: 'ws', target: { _tag: 'AtMostValue', value: 3 }, unit: 'KiB', higherIsBetter: false,
  },
  {
    id: 'ws-latency', title: 'WebSocket echo latency at a fixed 10,000 msg/s over 50 connections (p50)', kind: 'rate',
    params: { conns: 50, rate: 10_000 },
    contenders: WS, reference: 'ws', target: { _tag: 'ReportOnly' }, unit: 'ms', higherIsBetter: false,
  },
  {
    id: 'ws-echo-deflate', title: 'WebSocket echo with permessage-deflate, 50 connections, 10 in flight, 4 KiB JSON', kind: 'echo',
    params: { conns: 50, inflight: 10 }, serverEnv: DEFLATE_ON, clientArgs: ['--offer', CHROMIUM_OFFER, ...JSON_4K],
    contenders: ['twinport', 'ws'], reference: 'ws', target: { _tag: 'AtLeastTimes', times: 1.5 }, unit: 'msg/s', higherIsBetter: true,
  },
  {
    id: 'ws-bcast-deflate', title: 'Broadcast a 4 KiB JSON message with permessage-deflate (server_no_context_takeover) to every client on /bcast', kind: 'bcast',
    params: {}, serverEnv: DEFLATE_ON, clientArgs: ['--offer', NO_TAKEOVER_OFFER, ...JSON_4K],
    contenders: ['twinport', 'ws'], reference: 'ws', target: { _tag: 'AtMostTimes', times: 0.3 }, unit: 'ms', higherIsBetter: false,
  },
  {
    id: 'ws-idle-deflate', title: 'Memory per idle WebSocket connection with permessage-deflate agreed', kind: 'idle',
    params: { base: 500 }, serverEnv: DEFLATE_ON, clientArgs: ['--offer', CHROMIUM_OFFER],
    contenders: ['twinport', 'twinport-plain', 'ws'], reference: 'twinport-plain', target: { _tag: 'AtMostTimes', times: 1.2 }, unit: 'KiB', higherIsBetter: false,
  },
]
