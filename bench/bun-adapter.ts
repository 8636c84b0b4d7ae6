/**
 * twinport's Bun adapter against Bun's own servers, HTTP keep-alive (session 12, "Bun adapter
 * throughput"): `GET /hello` from twinport on Bun (examples/echo.ts), `Bun.serve`
 * (bench/peers/bun-serve.ts) and a raw `Bun.listen` server writing a canned answer
 * (bench/peers/raw-bun.ts, the ceiling), with `wrk -t1` at 50 connections and at 1, in
 * interleaved rounds (the order rotated each round), servers pinned to CPU 0 and wrk to CPU 1
 * as in the other benches (bench/load/start-server.ts).
 *
 * Beside requests/s and server CPU per request, where the time went, from the scheduler's own
 * accounts (`/proc/<pid>/task/<tid>/schedstat`) of the server's event-loop thread and of wrk's
 * threads: the share of the window each spent on a CPU, waiting on a run queue for one, and
 * asleep. A server that is asleep while wrk has connections waiting is waiting for something
 * (a timer, a late flush, Nagle); one that is runnable but not running is waiting for the CPU,
 * which on a loaded machine is the other processes' doing, not the server's.
 *
 *   npx tsx bench/bun-adapter.ts                      # 2 rounds, 3 s windows (about a minute)
 *   npx tsx bench/bun-adapter.ts --rounds 3 --ms 4000 --connections 50,1
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { CLK_TCK, processCpuTicks, type SchedTimes, threadIds, threadSchedTimes } from './load/proc.js'
import { LIVE, type RunningServer, startServer } from './load/start-server.js'
import { parseWrk } from './load/wrk-output.js'

interface Contender {
  readonly id: string
  readonly script: string
}

const CONTENDERS: readonly Contender[] = [
  { id: 'twinport-bun', script: 'examples/echo.ts' },
  { id: 'bun-serve', script: 'bench/peers/bun-serve.ts' },
  { id: 'raw-bun', script: 'bench/peers/raw-bun.ts' },
]

const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? undefined : process.argv[at + 1]
}
const rounds = Number(arg('rounds') ?? 2)
const seconds = Math.max(2, Math.round(Number(arg('ms') ?? 3000) / 1000))
const connections = (arg('connections') ?? '50,1').split(',').map(Number)
const STARTUP_MS = 30_000

/** One window of one contender. */
interface Run {
  readonly contender: string
  readonly connections: number
  readonly requestsPerSecond: number
  readonly errors: number
  readonly serverUsPerRequest: number
  /** Shares of the sampled part of the window, 0..1: the server's event-loop thread. */
  readonly server: Shares
  /** The same for wrk's busiest thread (the one that drives the connections). */
  readonly client: Shares
  readonly load: string
}

interface Shares {
  readonly onCpu: number
  readonly waiting: number
  readonly asleep: number
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

const sharesOf = (before: SchedTimes | undefined, after: SchedTimes | undefined, ns: number): Shares => {
  if (before === undefined || after === undefined || ns <= 0) return { onCpu: Number.NaN, waiting: Number.NaN, asleep: Number.NaN }
  const onCpu = (after.onCpuNs - before.onCpuNs) / ns
  const waiting = (after.waitingNs - before.waitingNs) / ns
  return { onCpu, waiting, asleep: Math.max(0, 1 - onCpu - waiting) }
}

// Every thread's times of a process, by thread id.
const allThreads = (pid: number): Map<number, SchedTimes> => {
  const times = new Map<number, SchedTimes>()
  for (const tid of threadIds(pid)) {
    const t = threadSchedTimes(pid, tid)
    if (t !== undefined) times.set(tid, t)
  }
  return times
}

// wrk's busiest thread over the sample: the one that ran connections.
const busiest = (before: Map<number, SchedTimes>, after: Map<number, SchedTimes>, ns: number): Shares => {
  let best: Shares = sharesOf(undefined, undefined, ns)
  for (const [tid, end] of after) {
    const shares = sharesOf(before.get(tid), end, ns)
    if (Number.isNaN(best.onCpu) || shares.onCpu + shares.waiting > best.onCpu + best.waiting) best = shares
  }
  return best
}

const wrk = (port: number, conns: number, secs: number): { readonly pid: number; readonly done: Promise<string> } => {
  const child = spawn('taskset', ['-c', '1', 'wrk', '-t1', `-c${conns}`, `-d${secs}s`, '--timeout', '4s', `http://127.0.0.1:${port}/hello`], { stdio: ['ignore', 'pipe', 'pipe'] })
  LIVE.add(child)
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString('utf8')))
  const done = new Promise<string>((resolve) =>
    child.once('exit', () => {
      LIVE.delete(child)
      resolve(out)
    }),
  )
  return { pid: child.pid ?? -1, done }
}

const measure = async (contender: string, server: RunningServer, conns: number): Promise<Run | string> => {
  await wrk(server.port, conns, 1).done // warm-up
  const cpu0 = processCpuTicks(server.pid)
  const serverStart = threadSchedTimes(server.pid)
  const run = wrk(server.port, conns, seconds)
  // Sample wrk's threads inside the window (it exits when the window ends, and its
  // /proc goes with it): from 0.3 s in to 0.3 s before the end.
  await sleep(300)
  const clientStart = allThreads(run.pid)
  const t0 = process.hrtime.bigint()
  await sleep(seconds * 1000 - 600)
  const clientEnd = allThreads(run.pid)
  const sampledNs = Number(process.hrtime.bigint() - t0)
  const text = await run.done
  const cpu1 = processCpuTicks(server.pid)
  const serverEnd = threadSchedTimes(server.pid)
  const result = parseWrk(text)
  if (result === undefined || result.requests === 0) return `wrk failed: ${text.trim().slice(0, 200)}`
  const ticks = cpu0 === undefined || cpu1 === undefined ? Number.NaN : cpu1 - cpu0
  return {
    contender,
    connections: conns,
    requestsPerSecond: result.requestsPerSecond,
    errors: result.socketErrors + result.non2xx,
    serverUsPerRequest: (ticks * 1e6) / CLK_TCK / result.requests,
    server: sharesOf(serverStart, serverEnd, result.seconds * 1e9),
    client: busiest(clientStart, clientEnd, sampledNs),
    load: loadAverage(),
  }
}

const median = (values: readonly number[]): number => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
const pct = (share: number): string => (Number.isNaN(share) ? '–' : `${Math.round(share * 100)} %`)
const num = (value: number, digits = 0): string => (Number.isNaN(value) ? '–' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }))

const render = (runs: readonly Run[]): string => {
  const lines = [
    '| connections | contender | req/s (median) | ratio to Bun.serve | server CPU µs/req | server: on CPU / waiting for CPU / asleep | wrk: on CPU / waiting for CPU | load average |',
    '|--:|---|--:|--:|--:|---|---|---|',
  ]
  for (const conns of connections) {
    const of = (id: string): Run[] => runs.filter((r) => r.contender === id && r.connections === conns)
    const peer = median(of('bun-serve').map((r) => r.requestsPerSecond))
    for (const { id } of CONTENDERS) {
      const rs = of(id)
      if (rs.length === 0) continue
      const rps = median(rs.map((r) => r.requestsPerSecond))
      const server = `${pct(median(rs.map((r) => r.server.onCpu)))} / ${pct(median(rs.map((r) => r.server.waiting)))} / ${pct(median(rs.map((r) => r.server.asleep)))}`
      const client = `${pct(median(rs.map((r) => r.client.onCpu)))} / ${pct(median(rs.map((r) => r.client.waiting)))}`
      lines.push(`| ${conns} | ${id} | ${num(rps)} | ${num(rps / peer, 2)}× | ${num(median(rs.map((r) => r.serverUsPerRequest)), 1)} | ${server} | ${client} | ${rs.map((r) => r.load.split(' ')[0]).join(', ')} |`)
    }
  }
  return lines.join('\n')
}

process.on('exit', () => {
  for (const child of LIVE) child.kill('SIGKILL')
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))

const main = async (): Promise<void> => {
  const runs: Run[] = []
  for (let round = 0; round < rounds; round++) {
    const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length] as Contender)
    for (const contender of order) {
      const server = await startServer(contender.script, STARTUP_MS, [], {}, 'bun')
      if (typeof server === 'string') {
        console.error(`${contender.id}: ${server}`)
        continue
      }
      try {
        for (const conns of connections) {
          const run = await measure(contender.id, server, conns)
          if (typeof run === 'string') console.error(`${contender.id} c=${conns}: ${run}`)
          else {
            runs.push(run)
            console.error(`round ${round + 1} ${contender.id} c=${conns}: ${num(run.requestsPerSecond)} req/s, ${num(run.serverUsPerRequest, 1)} µs/req, server asleep ${pct(run.server.asleep)} waiting ${pct(run.server.waiting)}, wrk waiting ${pct(run.client.waiting)}, load ${run.load}`)
          }
        }
      } finally {
        await server.stop()
      }
    }
  }
  console.log(render(runs))
}

await main()
