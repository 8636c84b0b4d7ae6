/**
 * One server of the soak (`bench/soak.ts`), as a child process: a twinport server on
 * 127.0.0.1:0 with the routes the soak's clients use, alone (MODE=single, in-memory
 * recovery) or as a node of a cluster (MODE=cluster: the Redis adapter and the Redis
 * recovery store at REDIS_URL, which may be the soak's fault proxy). Routes:
 * - a WebSocket client joins the room `feed` when its upgrade says `feed=1`, and the room in
 *   `room=` if any; events `join`/`leave` {room}, `say` {room, n} (broadcast `said` to the
 *   room), `echo` (answers its data): each answers an ack when asked;
 * - `GET /hello` (JSON), `POST /echo` (the body back).
 * Every TICK_MS it broadcasts `t` {o: node, n} to `feed` (n counts up from 1 per node): the
 * sequence the recovering clients check. Every SAMPLE_MS it sends the parent over IPC a
 * sample: RSS, heap, active handles, event-loop delay p99 and max, and the counters since
 * the last sample. Run with `--expose-gc`, `{op:'heap', label, snapshot}` runs a full GC and
 * answers the heap figures after it, writing a heap snapshot to HEAP_DIR when asked and set.
 * Imports bench and lib code only; Node only (perf_hooks, v8, process).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { getHeapStatistics, writeHeapSnapshot } from 'node:v8'
import * as t from 'io-ts'
import { createLogger, httpRoute, json, LogLevel, onConnect, response, routes, runServer, socketOn } from '../../lib/index.js'
import { redisAdapter, redisRecoveryStore } from '../../lib/redis/index.js'

/** What a soak server reports every SAMPLE_MS. */
export interface NodeSample {
  readonly op: 'sample'
  readonly at: number
  readonly rss: number
  readonly heapUsed: number
  readonly handles: number
  readonly loopP99Ms: number
  readonly loopMaxMs: number
  /** ms the event loop spent in the soak's own full GCs and heap snapshots (`{op:'heap'}`) during this sample: not the server's delay. */
  readonly forcedGcMs: number
  /** The share of this sample's wall time the event loop's thread waited for a CPU (`/proc/self/schedstat`; -1 where unreadable): the machine's doing. */
  readonly runQueueShare: number
  readonly http: number
  readonly events: number
  readonly ticks: number
  readonly warnings: number
  readonly errors: number
  /** Resumes refused since the last sample, by `<reason>/<cause>` (the engine's debug log): how many, and ms from the upgrade's ask to the refusal. */
  readonly refusals: Readonly<Record<string, Refusals>>
  /** The same refusals one by one, with when (the verdict judges each against the faults). */
  readonly refused: readonly RefusedResume[]
  /** Sessions this node let go since the last sample because the store named another holder (`moved`): parked, or with their client connected. */
  readonly moved: { readonly parked: number; readonly connected: number }
}

/** One refused resume, from the engine's debug log. */
export interface RefusedResume {
  readonly at: number
  readonly reason: string
  readonly cause: string
  readonly ms: number
  readonly local: boolean
  /** This node let the session go earlier (the store named another holder): how long before, and whether its client was connected then. */
  readonly movedFromHere?: { readonly agoMs: number; readonly connected: boolean }
  /** This node restored the session from the store earlier (it was held here before). */
  readonly restoredHere?: boolean
}

/** Refused resumes of one cause: their count and timings (ms after the upgrade asked). */
export interface Refusals {
  n: number
  msSum: number
  msMax: number
}

const cluster = process.env.MODE === 'cluster'
const url = process.env.REDIS_URL
const prefix = process.env.PREFIX ?? 'soak'
const tickMs = Number(process.env.TICK_MS ?? 100)
const sampleMs = Number(process.env.SAMPLE_MS ?? 5000)

let warnings = 0
let errors = 0
let refusals: Record<string, Refusals> = {}
let refusedList: RefusedResume[] = []
let moved = { parked: 0, connected: 0 }
// Sessions let go (`moved`) or restored here, by id: what a later refusal of the same session follows.
const movedAt = new Map<string, { at: number; connected: boolean }>()
const restored = new Map<string, number>()
const sink = { write: (text: string) => process.stderr.write(text) }
const base = createLogger({ minLevel: LogLevel.WARNING, stdout: sink, stderr: sink, colors: false })
// The server runs with `debug: true` for three lines: a refused resume with its cause, a session
// let go because the store named another holder (`moved`), a session restored from the store.
const refused = (message: string, context?: Record<string, unknown>): void => {
  if (context === undefined) return
  const sid = String(context.sid)
  if (message.startsWith('recovery: session {sid} moved')) {
    const connected = context.parked === false
    if (connected) moved.connected++
    else moved.parked++
    movedAt.set(sid, { at: Date.now(), connected })
    return
  }
  if (message.startsWith('recovery: session {sid} restored')) return void restored.set(sid, Date.now())
  if (!message.startsWith('recovery: resume of')) return
  const key = `${String(context.reason)}/${String(context.cause)}${context.local === true ? ' (local)' : ''}${typeof context.target === 'string' ? ` ${context.target.replace(/r\d+$/, 'r*')}` : ''}`
  const ms = typeof context.ms === 'number' ? context.ms : 0
  const r = (refusals[key] ??= { n: 0, msSum: 0, msMax: 0 })
  r.n++
  r.msSum += ms
  r.msMax = Math.max(r.msMax, ms)
  const gone = movedAt.get(sid)
  refusedList.push({
    at: Date.now(),
    reason: String(context.reason),
    cause: String(context.cause),
    ms,
    local: context.local === true,
    ...(gone === undefined ? {} : { movedFromHere: { agoMs: Date.now() - gone.at, connected: gone.connected } }),
    ...(restored.has(sid) ? { restoredHere: true } : {}),
  })
}
const logger = {
  ...base,
  debug: refused,
  warning: (message: string, context?: Record<string, unknown>) => (warnings++, base.warning(message, context)),
  error: (message: string, context?: Record<string, unknown>) => (errors++, base.error(message, context)),
}

const adapter = cluster ? redisAdapter({ url, prefix, nodeId: process.env.NODE_ID }) : undefined
const store = cluster ? redisRecoveryStore({ url, prefix }) : undefined
await store?.connect()

let http = 0
let events = 0
let forcedGcMs = 0
const Room = t.type({ room: t.string })
const Say = t.type({ room: t.string, n: t.number })
const HELLO = json({ hello: 'world' })

const server = await runServer({
  host: '127.0.0.1',
  port: 0,
  logger,
  debug: true,
  limits: { maxConnections: 30_000, maxSendBuffer: 256 * 1024, heartbeatIntervalMs: 600_000 },
  ...(adapter === undefined ? {} : { cluster: adapter }),
  ...(store === undefined ? {} : { recovery: { store } }),
  routes: routes({
    enter: onConnect((ctx) => {
      const query = new URLSearchParams(ctx.request.rawQuery)
      if (query.get('feed') === '1') ctx.joinRoom('feed')
      const room = query.get('room')
      if (room !== null) ctx.joinRoom(room)
    }),
    join: socketOn('join', Room, ({ room }, ctx) => (events++, ctx.joinRoom(room), { ok: true })),
    leave: socketOn('leave', Room, ({ room }, ctx) => (events++, ctx.leaveRoom(room), { ok: true })),
    say: socketOn('say', Say, ({ room, n }, ctx) => (events++, ctx.broadcast('said', { n }, { room }), { ok: true })),
    echo: socketOn('echo', (data) => (events++, data)),
    hello: httpRoute('GET', '/hello', () => (http++, HELLO)),
    echoBody: httpRoute('POST', '/echo', (req) => (http++, response(req.rawBody, 200, { 'Content-Type': 'application/octet-stream' }))),
  }),
})
await adapter?.ready()

const node = adapter?.nodeId ?? 'single'
let n = 0
setInterval(() => void server.broadcast('t', { o: node, n: ++n }, { room: 'feed' }), tickMs)

// ns this process's main thread (the event loop's) has waited on a run queue, -1 where unreadable.
const runQueueNs = (): number => {
  try {
    return Number(readFileSync('/proc/self/schedstat', 'latin1').split(' ')[1])
  } catch {
    return -1
  }
}
let waitedAtLast = runQueueNs()
let sampledAt = Date.now()

const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()
let ticksAtLast = 0
setInterval(() => {
  const memory = process.memoryUsage()
  const sample: NodeSample = {
    op: 'sample',
    at: Date.now(),
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    handles: process.getActiveResourcesInfo().length,
    loopP99Ms: loop.percentile(99) / 1e6,
    loopMaxMs: loop.max / 1e6,
    forcedGcMs,
    runQueueShare: waitedAtLast < 0 ? -1 : (runQueueNs() - waitedAtLast) / 1e6 / Math.max(1, Date.now() - sampledAt),
    http,
    events,
    ticks: n - ticksAtLast,
    warnings,
    errors,
    refusals,
    refused: refusedList,
    moved,
  }
  refusals = {}
  refusedList = []
  moved = { parked: 0, connected: 0 }
  // Long enough for any resume of a session let go to be told apart from a later one.
  for (const [sid, m] of movedAt) if (m.at < Date.now() - 600_000) movedAt.delete(sid)
  for (const [sid, at] of restored) if (at < Date.now() - 600_000) restored.delete(sid)
  loop.reset()
  http = 0
  events = 0
  forcedGcMs = 0
  waitedAtLast = runQueueNs()
  sampledAt = Date.now()
  ticksAtLast = n
  warnings = 0
  errors = 0
  process.send?.(sample)
}, sampleMs)

/** What a soak server answers to `{op:'heap'}` (every `--heap-every-s`; snapshots with `--heap-dir`). */
export interface HeapReport {
  readonly op: 'heap'
  readonly node: string
  readonly label: string
  readonly at: number
  readonly rss: number
  /** V8's used heap right after a full GC: what is retained, not what waits to be collected. */
  readonly heapUsedAfterGc: number
  readonly heapTotal: number
  readonly external: number
  readonly arrayBuffers: number
  readonly mallocedMemory: number
  /** V8's heap pages in memory (`total_physical_size`): what the heap costs RSS. */
  readonly heapPhysical: number
  /** `/proc/self/smaps_rollup`: anonymous memory (heap, malloc arenas, stacks), bytes; 0 where unreadable. */
  readonly anonymous: number
  /** The snapshot's file, when one was asked for. */
  readonly file: string | undefined
  readonly ms: number
}

// The process's anonymous memory from /proc/self/smaps_rollup (Linux), 0 elsewhere.
const anonymousBytes = (): number => {
  try {
    const kb = /^Anonymous:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'latin1'))
    return kb === null ? 0 : Number(kb[1]) * 1024
  } catch {
    return 0
  }
}

// With `--expose-gc`: a full GC, the heap figures after it and, when asked (and HEAP_DIR is
// set), a heap snapshot, to tell a leak (retained objects that grow) from an RSS that rises.
const heap = (label: string, snapshot: boolean): void => {
  const dir = process.env.HEAP_DIR
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) return
  const started = Date.now()
  gc()
  const stats = getHeapStatistics()
  const memory = process.memoryUsage()
  const file = snapshot && dir !== undefined ? writeHeapSnapshot(join(dir, `${node}-${label}.heapsnapshot`)) : undefined
  const report: HeapReport = {
    op: 'heap', node, label, at: started, rss: memory.rss, heapUsedAfterGc: stats.used_heap_size, heapTotal: memory.heapTotal,
    external: memory.external, arrayBuffers: memory.arrayBuffers, mallocedMemory: stats.malloced_memory, heapPhysical: stats.total_physical_size,
    anonymous: anonymousBytes(), file, ms: Date.now() - started,
  }
  forcedGcMs += report.ms
  process.send?.(report)
}

process.on('message', (command: { readonly op: string; readonly label?: string; readonly snapshot?: boolean }) => {
  if (command.op === 'last') process.send?.({ op: 'last', node, n })
  if (command.op === 'heap') heap(command.label ?? 'now', command.snapshot === true)
})
process.on('SIGTERM', () => process.exit(0))
process.send?.({ op: 'ready', port: server.address.port, node })
