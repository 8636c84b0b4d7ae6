/**
 * bench/c1m (issue 31): N idle WebSocket connections on one box, and what each costs.
 *
 *   npm run bench:c1m                                   # steps 10k,100k,250k,500k,1M (default heartbeat)
 *   npm run bench:c1m -- --steps 10k,100k --heartbeat-ms 10000 --broadcasts 3
 *   npm run bench:c1m -- --steps 250k --max-used-gib 16 --time-limit 20 --out /tmp/c1m
 *   npm run bench:c1m -- --steps 10k --per-process 19000 --cpu-prof /tmp/c1m-prof   # one worker, profiled
 *
 * For each step N it starts a real redis-server (once per run, on a free port), K twinport
 * processes sharing one port through node:cluster on the Redis adapter (bench/c1m/server.ts),
 * K = ⌈N / per-process⌉ with per-process under the open-file limit it finds, and M C load
 * clients (bench/c1m/wsload.c, built with the system cc) each on a 127.31.x.y source address
 * of its own; then measures, while a `GET /hello` probe runs every 10 ms (event-loop delay
 * p50/p99/max per phase: each worker's own loop on a kept-alive connection, and `GET /hello`
 * on a fresh connection through the shared port):
 *   connect   accept + upgrade rate, server CPU per connection;
 *             The connections open in two waves (half, then the rest); after each, every
 *             worker runs a full GC (`GET /mem` on its probe port) and the memory is read:
 *   memory    Σ worker RSS and kernel memory (/proc/meminfo Slab, SUnreclaim, sockstat TCP
 *             pages) per connection as the slope between the two waves (no base: the
 *             workers' own start-up growth is over by the first wave and falls out);
 *   idle      server CPU per connection per heartbeat
 *             interval over --idle-intervals intervals, less the workers' CPU with no client
 *             (the shared-port probe pauses meanwhile); probe samples taken while pings
 *             arrived are the `heartbeat` phase, the rest `idle`;
 *   broadcast --broadcasts messages to all N (sent by one client to /bcast; time to the last
 *             receipt over every client, CLOCK_MONOTONIC), server CPU per delivery.
 * In every phase, per server process: its CPU and its time runnable but waiting for a core
 * (/proc/<pid>/task/<tid>/schedstat, all threads; bench/c1m/schedstat.ts), and the load average;
 * and for every loop-probe sample over 20 ms, the stalled worker's main-thread CPU and wait
 * over it (its schedstat read every 10 ms; bench/c1m/split-stalls.ts): a delay miss whose
 * stalls were mostly waiting is marked waiting-bound in the targets.
 * The harness's own CPU and waiting (this driver, the load clients, Redis) is recorded per phase
 * beside the servers'. --pin: the servers on the first cores, the harness on the last one
 * (taskset), so that the load clients never take a server's core.
 * TRANSPORT=native: the workers on the native addon, each with its own SO_REUSEPORT listener
 * (`make -C native` first; a worker that cannot load it exits instead of serving on node:net).
 * The kernel floor (bench/c1m/floor.c: one small write + one read per loopback pair) is
 * measured at the start of the run, for the targets.
 *
 * Bounded: a step is skipped when the memory it would need (from the previous step's figures,
 * or 11 KiB per connection) would take the machine past --max-used-gib (default 18) of
 * MemTotal − MemAvailable, and a step stops itself as soon as that is crossed; the run stops
 * at --time-limit minutes (default 45); a connect phase that opens fewer than 1 % of N in
 * --stall-s seconds (60) ends its step with what it reached. Loopback only. It changes no sysctl and no limit: it
 * sizes itself to the open-file limit it finds. Every process it started is killed at exit.
 * Writes c1m.json, c1m.md and c1m-cost.svg into --out (default bench/.tmp/c1m).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { buildC } from './build-c.js'
import { startDelayProbe, type DelaySample } from './delay-probe.js'
import { sourceAddress, startIdleClient, sumStats, type IdleClient } from './idle-clients.js'
import { parseOpenFileLimit, readListenOverflows, readMemInfo } from './meminfo.js'
import { renderC1m, renderCostSvg } from './render-c1m.js'
import { memorySlope, workerMemory, type MemoryPoint, type MemorySlope } from './worker-memory.js'
import { addSched, NO_SCHED, readTaskSched, schedDelta, type SchedTimes } from './schedstat.js'
import { splitStalls, STALL_THRESHOLD_MS, type SchedPoint, type StallSplit } from './split-stalls.js'
import { delayFigures, type C1mRun, type DelayFigures, type Floor, type Phase, type PhaseSched, type StepResult } from './step-result.js'
import { CLK_TCK, processCpuTicks, processRssBytes } from '../load/proc.js'
import { freePort, startRedis } from '../../spec/support/redis.js'
import { connectionsFor } from '../../lib/engine/options/fd-limit.js'

const { values: opt } = parseArgs({
  options: {
    steps: { type: 'string', default: '10k,100k,250k,500k,1M' },
    'heartbeat-ms': { type: 'string', default: '30000' },
    'idle-intervals': { type: 'string', default: '2' },
    broadcasts: { type: 'string', default: '3' },
    'max-used-gib': { type: 'string', default: '18' },
    'time-limit': { type: 'string', default: '45' },
    'per-process': { type: 'string' },
    concurrency: { type: 'string', default: '128' },
    sched: { type: 'string', default: 'rr' },
    source: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/.tmp/c1m' },
    'stall-s': { type: 'string', default: '60' },
    'cpu-prof': { type: 'string' },
    pin: { type: 'boolean', default: false },
  },
})

const started = Date.now()
const GIB = 1024 ** 3
const log = (line: string): void => console.log(`[c1m ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`)
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const parseCount = (s: string): number => {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s.trim())
  if (m === null) throw new Error(`--steps: expected counts like 10k or 1M, got ${s}`)
  return Math.round(Number(m[1]) * (m[2]?.toLowerCase() === 'k' ? 1e3 : m[2]?.toLowerCase() === 'm' ? 1e6 : 1))
}
const STEPS = (opt.steps ?? '').split(',').map(parseCount)
const HEARTBEAT_MS = Number(opt['heartbeat-ms'])
const IDLE_INTERVALS = Math.max(1, Number(opt['idle-intervals']))
const BROADCASTS = Math.max(1, Number(opt.broadcasts))
const MAX_USED = Number(opt['max-used-gib']) * GIB
const DEADLINE = started + Number(opt['time-limit']) * 60_000
const CONCURRENCY = Math.max(16, Number(opt.concurrency))
const OUT = opt.out ?? 'bench/.tmp/c1m'
const STALL_MS = Math.max(10, Number(opt['stall-s'])) * 1000

// The open-file limit bounds every process. A server holds what twinport fits to it
// (connectionsFor: the limit less its reserve for Redis, files and the probes); the driver
// gives each server ~4 standard deviations less on average, because SO_REUSEPORT (the native
// transport) spreads connections by a hash of the address pair, not evenly: at 20,000 that is
// 19,237 per process, 52 processes for 1M. Clients hold as many (stdio and epoll aside).
const FD_LIMIT = parseOpenFileLimit(readFileSync('/proc/self/limits', 'utf8')) ?? 1024
const SERVER_CAP = Math.min(connectionsFor(FD_LIMIT), 60_000)
const PER_PROCESS = Math.min(Number(opt['per-process'] ?? Number.POSITIVE_INFINITY), SERVER_CAP - Math.ceil(4 * Math.sqrt(SERVER_CAP)), FD_LIMIT - 100)
if (!(PER_PROCESS > 100)) throw new Error(`open-file limit ${FD_LIMIT} is too low for this harness (ulimit -n)`)

// --pin: servers on cores 0..C-2, the harness (driver, clients, Redis) on core C-1.
const CORES = cpus().length
const PIN = opt.pin === true && CORES >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0
const SERVER_CPUS = `0-${CORES - 2}`
const HARNESS_CPU = String(CORES - 1)
const pinned = (cpusList: string): readonly string[] => (PIN ? ['taskset', '-c', cpusList] : [])
if (PIN) spawnSync('taskset', ['-a', '-p', '-c', HARNESS_CPU, String(process.pid)], { stdio: 'ignore' })
if (opt.pin === true && !PIN) console.log('[c1m] --pin: taskset unavailable or one core; not pinned')

const live = new Set<ChildProcess>()
const clients: IdleClient[] = []
const killAll = (): void => {
  for (const c of clients) c.stop()
  for (const child of live) child.kill('SIGKILL')
}
process.on('exit', killAll)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))

// The compiled server (bench/.tmp/dist) does not find native/build/ from where it lies: point it there.
const TRANSPORT = process.env.TRANSPORT === 'native' ? 'native' : 'net'
const NATIVE_BINARY = process.env.TWINPORT_NATIVE_BINARY ?? resolve(`native/build/twinport-${process.platform}-${process.arch}.node`)
if (TRANSPORT === 'native' && !existsSync(NATIVE_BINARY)) throw new Error(`TRANSPORT=native: no addon at ${NATIVE_BINARY} (make -C native)`)

const wsload = buildC('wsload')
const floorBin = buildC('floor')
if ('error' in wsload) throw new Error(wsload.error)
if ('error' in floorBin) throw new Error(floorBin.error)

const floor = (bytes: number): Floor => {
  const pairs = Math.min(5000, Math.floor((FD_LIMIT - 100) / 2))
  const ran = spawnSync(floorBin.path, ['--pairs', String(pairs), '--rounds', '7', '--bytes', String(bytes)], { encoding: 'utf8', timeout: 120_000 })
  const line = ran.stdout.split('\n').find((l) => l.startsWith('FLOOR '))
  if (line === undefined) throw new Error(`floor probe failed: ${ran.stderr}`)
  return JSON.parse(line.slice(6)) as Floor
}

// The servers run compiled (tsc -p tsconfig.bench.json), as an application ships them; --source
// or a failed build runs them under tsx.
const COMPILED = 'bench/.tmp/dist/bench/c1m/server.js'
const built = opt.source !== true &&
  spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json'], { stdio: 'ignore' }).status === 0 && existsSync(COMPILED)
const SERVER: readonly string[] = built ? [COMPILED] : ['--import', 'tsx', 'bench/c1m/server.ts']

interface Cluster {
  readonly child: ChildProcess
  readonly port: number
  readonly primary: number
  readonly workers: readonly number[]
  readonly probes: readonly number[]
}

const startCluster = (workers: number, port: number, redisUrl: string, prefix: string): Promise<Cluster> =>
  new Promise((resolve, reject) => {
    const [command, ...args] = [...pinned(SERVER_CPUS), process.execPath, ...SERVER]
    const child = spawn(command as string, args, {
      env: { ...process.env, NODE_ENV: 'production', PORT: String(port), WORKERS: String(workers), REDIS_URL: redisUrl, PREFIX: prefix,
        HEARTBEAT_MS: String(HEARTBEAT_MS), MAX_CONNS: String(SERVER_CAP), SCHED: opt.sched ?? 'rr', CPU_PROF: opt['cpu-prof'] ?? '',
        ...(TRANSPORT === 'native' ? { TWINPORT_NATIVE_BINARY: NATIVE_BINARY } : {}) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    live.add(child)
    child.once('exit', () => live.delete(child))
    const timer = setTimeout(() => reject(new Error(`${workers} workers did not all start within ${30 + workers * 2} s`)), (30 + workers * 2) * 1000)
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('C1M_READY ')) return
      clearTimeout(timer)
      const ready = JSON.parse(line.slice(10)) as { primary: number; workers: number[]; probes: number[] }
      resolve({ child, port, primary: ready.primary, workers: ready.workers, probes: ready.probes })
    })
    child.once('exit', (code) => reject(new Error(`server cluster exited with ${code}`)))
  })

const cpuTicks = (pids: readonly number[]): number => pids.reduce((a, p) => a + (processCpuTicks(p) ?? 0), 0)
const rss = (pids: readonly number[]): number => pids.reduce((a, p) => a + (processRssBytes(p) ?? 0), 0)
const used = (): number => {
  const m = readMemInfo()
  return m.total - m.available
}

// Until a step measured it: server + kernel + client. Session 14 measured 10.7 KiB on the native
// transport (slab 9.2–10.1 per pair, server 0.7, client 0.03): 11, so that 1M runs from up to
// ~2.9 GiB already in use; the watch below stops a step that crosses the limit anyway.
let perConnBytes = 11 * 1024
const PROCESS_BYTES = 90 * 1024 * 1024 // a server process with no client (Node, the engine, a Redis client), and its load client
let addressCount = 0
const notes: string[] = []

const runStep = async (n: number, redisUrl: string, index: number, redisPid: number | undefined): Promise<StepResult> => {
  const workers = Math.ceil(n / PER_PROCESS)
  const nClients = Math.ceil(n / PER_PROCESS)
  const port = await freePort()
  const cluster = await startCluster(workers, port, redisUrl, `c1m${index}`)
  const servers = [...cluster.workers]
  await sleep(3000)
  const base = { mem: readMemInfo(), rss: rss(servers), primaryRss: rss([cluster.primary]) }
  let peakUsed = base.mem.total - base.mem.available
  let stopped: string | undefined
  const watch = setInterval(() => {
    const u = used()
    peakUsed = Math.max(peakUsed, u)
    if (stopped === undefined && u > MAX_USED) stopped = `machine memory in use reached ${(u / GIB).toFixed(1)} GiB (limit ${(MAX_USED / GIB).toFixed(0)})`
    if (stopped === undefined && Date.now() > DEADLINE) stopped = `time limit (${opt['time-limit']} min) reached`
    if (stopped !== undefined) for (const c of clients) c.stop()
  }, 250)
  // What a stalled loop was doing (splitStalls): the probed worker's main thread's scheduler
  // times and the probe's own, read just before each probe request and just after its answer
  // (two reads per probe, not every worker every 10 ms).
  const mainPoint = (pid: number): SchedPoint => ({ at: performance.now(), ...(readTaskSched(pid, true).get(pid) ?? NO_SCHED) })
  const workerSeries: SchedPoint[][] = servers.map(() => [])
  const probeSeries: SchedPoint[] = []
  const loopProbe = startDelayProbe('loop', cluster.probes, 10, (target) => {
    const pid = servers[target]
    if (pid !== undefined) workerSeries[target]?.push(mainPoint(pid))
    probeSeries.push(mainPoint(process.pid))
  })
  // Per phase, each server process's CPU and run-queue wait (all threads), the harness's
  // (this driver, the clients, Redis), the wall time and the load.
  const procs = [...servers, cluster.primary]
  const harnessPids = (): number[] => [process.pid, ...clients.map((c) => c.pid), ...(redisPid === undefined ? [] : [redisPid])]
  const phaseTimes = new Map<Phase, { wallMs: number; load1: number; times: SchedTimes[]; harness: SchedTimes }>()
  const readHarness = (): Map<number, SchedTimes> => {
    const all = new Map<number, SchedTimes>()
    for (const pid of harnessPids()) for (const [tid, t] of readTaskSched(pid)) all.set(tid, t)
    return all
  }
  let schedAt = procs.map((pid) => readTaskSched(pid))
  let harnessAt = readHarness()
  const resetSched = (): void => {
    schedAt = procs.map((pid) => readTaskSched(pid))
    harnessAt = readHarness()
  }
  const account = (phase: Phase, wallMs: number): void => {
    const now = procs.map((pid) => readTaskSched(pid))
    const harnessNow = readHarness()
    const was = phaseTimes.get(phase) ?? { wallMs: 0, load1: 0, times: procs.map(() => NO_SCHED), harness: NO_SCHED }
    phaseTimes.set(phase, {
      wallMs: was.wallMs + wallMs,
      load1: Math.max(was.load1, loadavg()[0] ?? 0),
      times: was.times.map((t, i) => addSched(t, schedDelta(schedAt[i] ?? new Map(), now[i] ?? new Map()))),
      harness: addSched(was.harness, schedDelta(harnessAt, harnessNow)),
    })
    schedAt = now
    harnessAt = harnessNow
  }
  const overflows0 = readListenOverflows()
  // The workers' CPU with no client yet and the loop probe running: subtracted from the idle
  // window's (where the shared-port probe pauses: a fresh connection every 10 ms costs more
  // than the idle connections themselves).
  const baseFrom = performance.now()
  const baseCpu0 = cpuTicks(servers)
  await sleep(3000)
  const baselineCpuMsPerS = ((cpuTicks(servers) - baseCpu0) * 1000) / CLK_TCK / ((performance.now() - baseFrom) / 1000)
  const sharedProbe = startDelayProbe('shared', [port])
  const phases: { from: number; to: number; phase: Phase }[] = []
  const mark = (phase: Phase, from: number): void => void phases.push({ from, to: performance.now(), phase })
  const openNow = (): number => clients.reduce((a, c) => a + c.progress.open, 0)
  const failedNow = (): number => clients.reduce((a, c) => a + c.progress.failed, 0)

  // connect, in two waves: the memory between them is the slope per connection.
  let connectMs = 0
  let connectCpu = 0
  const wave = async (): Promise<void> => {
    resetSched()
    const cpu0 = cpuTicks([...servers, cluster.primary])
    const t0 = performance.now()
    let lastLog = 0
    // A connect phase that stops progressing (the servers starved by their own per-connection
    // work) ends the step with what it reached, instead of waiting for the time limit.
    let progressAt = performance.now()
    let progressOpen = openNow()
    while (stopped === undefined && !clients.every((c) => c.progress.ready)) {
      await sleep(100)
      const open = openNow()
      if (open - progressOpen >= Math.max(100, n / 100)) {
        progressAt = performance.now()
        progressOpen = open
      } else if (performance.now() - progressAt > STALL_MS) {
        stopped = `accept stalled: fewer than ${Math.max(100, n / 100)} connections opened in ${STALL_MS / 1000} s, at ${open.toLocaleString('en-US')} open`
        for (const c of clients) c.stop()
      }
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now()
        log(`N=${n}: ${open} open, ${failedNow()} failed, ${(used() / GIB).toFixed(1)} GiB in use`)
      }
    }
    connectMs += performance.now() - t0
    connectCpu += cpuTicks([...servers, cluster.primary]) - cpu0
    mark('connect', t0)
    account('connect', performance.now() - t0)
  }
  // After a wave: let the handshakes' garbage go, collect in every worker, read.
  const settled = async (opened: number): Promise<MemoryPoint> => {
    await sleep(2000)
    const replies = await Promise.all(cluster.probes.map(workerMemory))
    if (replies.some((r) => r === undefined || !r.gc)) notes.push(`N = ${n.toLocaleString('en-US')}: a worker did not collect on /mem; its memory is read uncollected`)
    const mem = readMemInfo()
    return { opened, rss: rss(servers), heapUsed: replies.reduce((a, r) => a + (r?.heapUsed ?? 0), 0),
      heapFree: replies.reduce((a, r) => a + Math.max(0, (r?.heapTotal ?? 0) - (r?.heapUsed ?? 0)), 0), slab: mem.slab, sunreclaim: mem.sunreclaim, tcpMem: mem.tcpMem }
  }
  const perClient = Math.ceil(n / nClients)
  for (let c = 0; c < nClients; c++) {
    const conns = Math.min(perClient, n - c * perClient)
    // ≤ 10,000 connections per source address: past half of its ~28,000 ephemeral ports the
    // kernel's port search in connect() makes the client, not the server, the limit.
    const sources = Array.from({ length: Math.ceil(conns / 10_000) }, () => sourceAddress(addressCount++)).join(',')
    clients.push(startIdleClient(wsload.path, port, conns, sources, Math.max(2, Math.floor(CONCURRENCY / nClients)), Number(opt['time-limit']) * 60_000,
      { first: Math.max(1, Math.floor(conns / 2)), wrap: pinned(HARNESS_CPU) }))
  }
  await wave()
  const first = stopped === undefined ? await settled(openNow()) : undefined
  log(`N=${n}: first wave ${openNow()} open; memory read after GC`)
  for (const c of clients) c.more()
  await wave()
  const asked = sumStats(await Promise.all(clients.map((c) => c.stat())))
  // Stopped clients answer nothing: their last progress line says how far they got.
  const afterConnect = stopped === undefined ? asked : { ...asked, open: openNow(), failed: failedNow() }
  const opened = Math.max(1, afterConnect.open)
  log(`N=${n}: ${afterConnect.open} open, ${afterConnect.failed} failed in ${(connectMs / 1000).toFixed(1)} s`)
  // Each worker's open descriptors (its connections and ~40 others): how even the spread is.
  const fds = servers.map((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).length
    } catch {
      return Number.NaN
    }
  })

  // memory (slope between the waves, after GC), then idle (CPU over whole heartbeat
  // intervals, probe samples tagged by pings)
  let slope: MemorySlope | undefined
  let primaryRssKiB = Number.NaN
  let rssBaseKiB = Number.NaN
  let idleCpuUs = Number.NaN
  let idleCpuRawUs = Number.NaN
  let pingsPerConn = Number.NaN
  if (stopped === undefined && first !== undefined) {
    const last = await settled(opened)
    slope = memorySlope(first, last)
    rssBaseKiB = (last.rss - base.rss) / opened / 1024
    primaryRssKiB = (rss([cluster.primary]) - base.primaryRss) / opened / 1024
    sharedProbe.pause()
    // Pings counted from here, as the CPU is: not from the end of the connect, which would
    // also count the pings sent while the memory was read (a minute at 1M).
    const pings0 = sumStats(await Promise.all(clients.map((c) => c.stat()))).pings
    const idleFrom = performance.now()
    const idleCpu0 = cpuTicks(servers)
    let pingsSeen = pings0
    let slot = performance.now()
    resetSched()
    while (stopped === undefined && performance.now() - idleFrom < IDLE_INTERVALS * HEARTBEAT_MS) {
      await sleep(Math.min(1000, Math.max(0, idleFrom + IDLE_INTERVALS * HEARTBEAT_MS - performance.now())))
      const s = sumStats(await Promise.all(clients.map((c) => c.stat())))
      const phase = s.pings > pingsSeen ? 'heartbeat' : 'idle'
      mark(phase, slot)
      account(phase, performance.now() - slot)
      slot = performance.now()
      pingsSeen = s.pings
    }
    const idleMs = performance.now() - idleFrom
    sharedProbe.resume()
    const idleCpuMs = ((cpuTicks(servers) - idleCpu0) * 1000) / CLK_TCK
    idleCpuRawUs = (idleCpuMs * 1000) / opened / (idleMs / HEARTBEAT_MS)
    idleCpuUs = ((idleCpuMs - (baselineCpuMsPerS * idleMs) / 1000) * 1000) / opened / (idleMs / HEARTBEAT_MS)
    pingsPerConn = (pingsSeen - pings0) / opened
    log(`N=${n}: idle CPU per ping received ${(idleCpuRawUs * (idleMs / HEARTBEAT_MS) / Math.max(1e-9, pingsSeen - pings0) * opened).toFixed(2)} µs (raw)`)
    log(`N=${n}: ${slope.liveKiB.toFixed(2)} KiB RSS/conn (slope, less the heaps' free room; raw RSS slope ${slope.rssKiB.toFixed(2)}; ${slope.heapKiB.toFixed(2)} KiB JS heap; from the base ${rssBaseKiB.toFixed(2)}), slab ${slope.slabKiB.toFixed(2)} KiB/pair, idle CPU ${idleCpuUs.toFixed(2)} µs/conn/interval, ${pingsPerConn.toFixed(2)} pings/conn`)
  }

  // broadcast: each client says when its receipts reach its open count (no polling)
  const broadcastMs: number[] = []
  let missing = 0
  let broadcastCpuUs = Number.NaN
  if (stopped === undefined && clients[0] !== undefined) {
    const from = performance.now()
    resetSched()
    const cpuB = cpuTicks(servers)
    let delivered = 0
    for (let b = 0; b < BROADCASTS && stopped === undefined; b++) {
      const before = await Promise.all(clients.map((c) => c.stat()))
      const sentAt = await clients[0].send()
      const limitMs = 30_000 + n * 0.2
      const got = await Promise.all(clients.map((c, i) => c.waitFor((before[i]?.recv ?? 0) + (before[i]?.open ?? 0), limitMs)))
      const now = await Promise.all(clients.map((c) => c.stat()))
      const received = now.reduce((a, s, i) => a + s.recv - (before[i]?.recv ?? 0), 0)
      const open = now.reduce((a, s) => a + s.open, 0)
      const lastAt = Math.max(...got.map((g) => g?.last ?? 0), ...now.map((s) => s.last))
      delivered += received
      missing += Math.max(0, open - received)
      broadcastMs.push((lastAt - sentAt) / 1e6)
      log(`N=${n}: broadcast ${b + 1}: ${received} receipts in ${((lastAt - sentAt) / 1e6).toFixed(1)} ms${got.some((g) => g === undefined) ? ' (some clients short when the limit struck)' : ''}`)
      await sleep(500)
    }
    broadcastCpuUs = ((cpuTicks(servers) - cpuB) * 1e6) / CLK_TCK / Math.max(1, delivered)
    mark('broadcast', from)
    account('broadcast', performance.now() - from)
  }
  const end = sumStats(await Promise.all(clients.map((c) => c.stat())))
  loopProbe.stop()
  sharedProbe.stop()
  const listenOverflows = readListenOverflows() - overflows0
  for (const [name, probe] of [['loop', loopProbe], ['shared', sharedProbe]] as const) {
    if (probe.errors.size > 0) log(`N=${n}: ${name} probe failures: ${[...probe.errors].map(([e, c]) => `${e} × ${c}`).join(', ')}`)
  }
  clearInterval(watch)
  for (const c of clients.splice(0)) c.stop()
  cluster.child.kill('SIGTERM')
  await sleep(opt['cpu-prof'] === undefined ? 2000 : 6000)

  const inPhase = (samples: readonly DelaySample[], phase: Phase): readonly DelaySample[] =>
    samples.filter((s) => phases.some((p) => p.phase === phase && s.at >= p.from && s.at < p.to))
  const byPhase = (samples: readonly DelaySample[], phase: Phase): readonly number[] => inPhase(samples, phase).map((s) => s.ms)
  const sched: Partial<Record<Phase, PhaseSched>> = Object.fromEntries([...phaseTimes].map(([phase, t]) => [phase, {
    wallMs: t.wallMs, load1: t.load1, processes: t.times.map((x) => ({ cpuMs: x.cpuNs / 1e6, waitMs: x.waitNs / 1e6 })),
    harness: { cpuMs: t.harness.cpuNs / 1e6, waitMs: t.harness.waitNs / 1e6 },
  }] as const))
  const stalls: Partial<Record<Phase, StallSplit>> = Object.fromEntries((['connect', 'idle', 'heartbeat', 'broadcast'] as const)
    .filter((p) => phaseTimes.has(p))
    .map((p) => [p, splitStalls(inPhase(loopProbe.samples, p), workerSeries, probeSeries, STALL_THRESHOLD_MS)] as const))
  for (const [phase, t] of Object.entries(sched)) {
    const cpu = t.processes.reduce((a, x) => a + x.cpuMs, 0)
    const wait = t.processes.reduce((a, x) => a + x.waitMs, 0)
    const st = stalls[phase as Phase]
    log(`N=${n}: ${phase}: ${(t.wallMs / 1000).toFixed(1)} s, load ${t.load1.toFixed(2)}, servers' CPU ${cpu.toFixed(0)} ms, waiting ${wait.toFixed(0)} ms (${((100 * wait) / Math.max(1e-9, cpu + wait)).toFixed(0)} %); harness CPU ${(t.harness?.cpuMs ?? 0).toFixed(0)} ms; ${st?.stalls ?? 0} stalls > ${STALL_THRESHOLD_MS} ms: own CPU ${(st?.cpuMs ?? 0).toFixed(0)} ms, waiting ${(st?.waitMs ?? 0).toFixed(0)} ms (+ probe ${(st?.probeWaitMs ?? 0).toFixed(0)})`)
  }
  const delayOf = (samples: readonly DelaySample[]): Partial<Record<Phase, DelayFigures>> => Object.fromEntries((['connect', 'idle', 'heartbeat', 'broadcast'] as const)
    .map((p) => [p, delayFigures(byPhase(samples, p))] as const).filter(([, f]) => f.samples + f.failed > 0))
  const finiteFds = fds.filter(Number.isFinite)
  const result: StepResult = {
    n, workers, clients: nClients, opened: afterConnect.open, failed: afterConnect.failed, closed: end.closed,
    connectMs, acceptPerS: (afterConnect.open * 1000) / connectMs, acceptCpuUs: (connectCpu * 1e6) / CLK_TCK / opened,
    // The figure: RSS less the heaps' free room. Raw RSS also holds what V8 keeps committed
    // after a GC, which swings by tens of MB per worker with its heuristics, not with N (the
    // raw slope read 0.76, 0.65, then −2.42 KiB at 250k where this one read 0.69, 0.71, 0.65).
    rssKiB: slope?.liveKiB ?? Number.NaN, primaryRssKiB, rssBaseKiB, heapKiB: slope?.heapKiB ?? Number.NaN, rssRawKiB: slope?.rssKiB ?? Number.NaN,
    memoryFrom: first?.opened ?? 0,
    slabKiB: slope?.slabKiB ?? Number.NaN, sunreclaimKiB: slope?.sunreclaimKiB ?? Number.NaN, tcpMemKiB: slope?.tcpMemKiB ?? Number.NaN,
    heartbeatMs: HEARTBEAT_MS, idleCpuUs, idleCpuRawUs, baselineCpuMsPerS, pingsPerConn, idleIntervals: IDLE_INTERVALS,
    broadcastMs, broadcastMissing: missing, broadcastCpuUs, delay: delayOf(loopProbe.samples), sharedDelay: delayOf(sharedProbe.samples),
    listenOverflows, peakUsed, workerFds: { min: Math.min(...finiteFds), max: Math.max(...finiteFds) }, pinned: PIN,
    processes: [...servers.map((pid) => `worker ${pid}`), `primary ${cluster.primary}`], sched, stalls,
    ...(stopped === undefined ? {} : { stopped }),
  }
  // The next step's memory estimate: what this one measured per connection (server, kernel, and
  // a KiB for the client and slack), with a margin; the machine's own swings are not in it.
  if (Number.isFinite(result.rssKiB)) perConnBytes = Math.max(4096, (Math.max(0, result.rssKiB) + Math.max(0, result.slabKiB) + Math.max(0, result.tcpMemKiB) + 1) * 1024 * 1.3)
  return result
}

const save = (steps: readonly StepResult[]): void => {
  const run: C1mRun = {
    started: new Date(started).toISOString(),
    command: `npm run bench:c1m -- ${process.argv.slice(2).join(' ')}`.trim(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(readMemInfo().total / GIB).toFixed(1)} GiB, Node ${process.version}, load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    fdLimit: FD_LIMIT, perProcess: PER_PROCESS, transport: TRANSPORT, floorPing, floorMessage, steps, notes,
  }
  writeFileSync(join(OUT, 'c1m.json'), JSON.stringify(run, null, 2))
  writeFileSync(join(OUT, 'c1m.md'), renderC1m(run))
  writeFileSync(join(OUT, 'c1m-cost.svg'), renderCostSvg(run))
}

mkdirSync(OUT, { recursive: true })
const floorPing = floor(2)
const floorMessage = floor(34)
log(`kernel floor: ${floorPing.writeUs.toFixed(2)} µs per 2-byte write + ${floorPing.readUs.toFixed(2)} µs per read; ${floorMessage.writeUs.toFixed(2)} µs per 34-byte write`)
const redis = await startRedis()
if (PIN && redis.pid !== undefined) spawnSync('taskset', ['-a', '-p', '-c', HARNESS_CPU, String(redis.pid)], { stdio: 'ignore' })
const steps: StepResult[] = []
for (const [i, n] of STEPS.entries()) {
  const workersNeeded = Math.ceil(n / PER_PROCESS)
  const predicted = used() + n * perConnBytes + workersNeeded * PROCESS_BYTES
  if (predicted > MAX_USED) {
    notes.push(`N = ${n.toLocaleString('en-US')} skipped: it would need about ${(predicted / GIB).toFixed(1)} GiB in use on the machine (limit ${(MAX_USED / GIB).toFixed(0)}).`)
    log(notes[notes.length - 1] as string)
    continue
  }
  if (Date.now() > DEADLINE) {
    notes.push(`N = ${n.toLocaleString('en-US')} skipped: time limit reached.`)
    continue
  }
  log(`step N=${n}: ${workersNeeded} server processes, ${workersNeeded} client processes, ${(used() / GIB).toFixed(1)} GiB in use`)
  try {
    steps.push(await runStep(n, redis.url, i, redis.pid))
  } catch (e) {
    notes.push(`N = ${n.toLocaleString('en-US')} failed: ${String(e)}`)
    log(notes[notes.length - 1] as string)
    killAll()
  }
  save(steps)
}
save(steps)
await redis.dispose()
console.log(readFileSync(join(OUT, 'c1m.md'), 'utf8'))
log(`done; files in ${OUT}`)
process.exit(0)
