/**
 * Benchmark (not a test): the metrics' and tracing's cost end to end (issue 25, "Measured"):
 * three echo servers on Node (bench/load/metrics-echo-server.ts), metrics off, metrics on (the
 * default), and metrics on with an OpenTelemetry SDK attached (`otelInstrumentation`, exporters
 * that drop), each its own process, measured in interleaved rounds (the order turns every
 * round) so a shared machine's drift falls on all three: `wrk` keep-alive `GET /hello`
 * (1 thread, 50 connections) and the WebSocket echo, 50 connections with 10 messages in flight
 * each (bench/load/ws-client.ts). Figures: throughput and the server's CPU per request /
 * message (from /proc, the steadier figure on a busy machine), medians of the rounds.
 *
 * Run: `npx tsx bench/metrics-overhead-e2e.ts [--rounds 5] [--seconds 3]`
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { parseArgs } from 'node:util'
import { parseClientResult } from './load/client-result.js'
import { processCpuTicks, CLK_TCK } from './load/proc.js'
import { parseWrk } from './load/wrk-output.js'

const { values: opt } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '3' } } })
const rounds = Number(opt.rounds)
const seconds = Number(opt.seconds)
const MODES = ['off', 'on', 'otel'] as const
type Mode = (typeof MODES)[number]

interface Server {
  readonly child: ChildProcess
  readonly port: number
}

const start = (mode: Mode): Promise<Server> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load/metrics-echo-server.ts', mode], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /READY (\d+)/.exec(out)
      if (m !== null) resolve({ child, port: Number(m[1]) })
    })
    child.once('exit', (code) => reject(new Error(`the ${mode} server exited (${code})`)))
  })

const run = (cmd: string, args: readonly string[], timeoutMs: number): Promise<string> =>
  new Promise((resolve) => execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 1 << 20 }, (_e, stdout) => resolve(stdout)))

// One wrk run: requests per second and the server's CPU µs per request.
const http = async (server: Server): Promise<{ rate: number; cpuUs: number }> => {
  const pid = server.child.pid as number
  const before = processCpuTicks(pid) ?? 0
  const result = parseWrk(await run('wrk', ['-t1', '-c50', `-d${seconds}s`, `http://127.0.0.1:${server.port}/hello`], (seconds + 10) * 1000))
  const ticks = (processCpuTicks(pid) ?? 0) - before
  if (result === undefined || result.requests === 0) return { rate: NaN, cpuUs: NaN }
  return { rate: result.requestsPerSecond, cpuUs: ((ticks * 1e6) / CLK_TCK) / result.requests }
}

// One WebSocket echo run: messages per second and the server's CPU µs per message.
const ws = async (server: Server): Promise<{ rate: number; cpuUs: number }> => {
  const stdout = await run(
    process.execPath,
    ['--import', 'tsx', 'bench/load/ws-client.ts', '--mode', 'echo', '--port', String(server.port), '--server-pid', String(server.child.pid), '--conns', '50', '--inflight', '10', '--ms', String(seconds * 1000), '--warmup', '500'],
    (seconds + 20) * 1000,
  )
  const result = parseClientResult(stdout)
  if (result === undefined || !result.ok || result.messages === 0) return { rate: NaN, cpuUs: NaN }
  return { rate: (result.messages * 1000) / result.ms, cpuUs: (result.serverCpuMs * 1000) / result.messages }
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number

const servers = Object.fromEntries(await Promise.all(MODES.map(async (m) => [m, await start(m)] as const))) as Record<Mode, Server>
try {
  const figures = { http: {} as Record<Mode, { rate: number; cpuUs: number }[]>, ws: {} as Record<Mode, { rate: number; cpuUs: number }[]> }
  for (const m of MODES) {
    figures.http[m] = []
    figures.ws[m] = []
    await http(servers[m]) // warm-up
  }
  for (let r = 0; r < rounds; r++) {
    const order = MODES.map((_, i) => MODES[(i + r) % MODES.length] as Mode)
    for (const m of order) figures.http[m].push(await http(servers[m]))
    for (const m of order) figures.ws[m].push(await ws(servers[m]))
  }
  console.log(`metrics and tracing end to end, Node ${process.version}, ${rounds} interleaved rounds of ${seconds} s, 50 connections`)
  console.log('| workload | mode | throughput /s (median) | server CPU µs/op (median) | vs off (throughput) | vs off (CPU/op) |')
  console.log('|---|---|--:|--:|--:|--:|')
  for (const [name, by] of [['HTTP keep-alive GET /hello (wrk)', figures.http], ['WebSocket echo, 10 in flight', figures.ws]] as const) {
    const base = { rate: median(by.off.map((f) => f.rate)), cpu: median(by.off.map((f) => f.cpuUs)) }
    for (const m of MODES) {
      const rate = median(by[m].map((f) => f.rate))
      const cpu = median(by[m].map((f) => f.cpuUs))
      const vs = (a: number, b: number): string => (m === 'off' ? '' : `${((a / b - 1) * 100).toFixed(1)}%`)
      console.log(`| ${name} | ${m} | ${rate.toFixed(0)} | ${cpu.toFixed(2)} | ${vs(rate, base.rate)} | ${vs(cpu, base.cpu)} |`)
    }
  }
} finally {
  for (const s of Object.values(servers)) s.child.kill('SIGTERM')
}
