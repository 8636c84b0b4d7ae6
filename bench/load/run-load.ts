/**
 * Drives one workload against one running server from CPU 1 (`taskset -c 1`):
 * wrk for HTTP, the lean WebSocket client for the rest. Measures the server's
 * CPU (from /proc) and the load generator's, checks how much CPU other
 * processes used meanwhile, and turns it all into a Sample.
 */
import { spawn } from 'node:child_process'
import { get } from 'node:https'
import { parseClientResult, type ClientResult } from './client-result.js'
import { pinned, LIVE, type RunningServer } from './start-server.js'
import { childrenCpuTicks, CLK_TCK, machineTicks, processCpuTicks } from './proc.js'
import { parseWrk } from './wrk-output.js'
import { buildC } from '../c1m/build-c.js'
import type { Sizing, Workload } from './workloads.js'
import type { Contender } from '../peers/contenders.js'
import type { Sample } from '../report/sample.js'
import { summarize } from '../report/stats.js'

/** Other processes above this many cores on average mark the run as disturbed. */
export const DISTURBED_CORES = 0.2

interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const runPinned = (args: readonly string[], timeoutMs: number): Promise<Ran> =>
  new Promise((resolve) => {
    const [cmd, ...pre] = pinned(1)
    const child = spawn(cmd!, [...pre, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    LIVE.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
    child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4000)))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', (err) => (stderr += String(err)))
    child.on('close', (code) => {
      clearTimeout(timer)
      LIVE.delete(child)
      resolve({ code: code ?? 1, stdout, stderr })
    })
  })

/** CPU of everything on the machine at one instant, to split a window into server, load, us and others. */
interface Window {
  readonly t: number
  readonly machine: number
  readonly server: number
  readonly children: number
  readonly self: number
}
const openWindow = (pid: number): Window => {
  const self = process.cpuUsage()
  return {
    t: Date.now(),
    machine: machineTicks().busy,
    server: processCpuTicks(pid) ?? 0,
    children: childrenCpuTicks(),
    self: ((self.user + self.system) / 1e6) * CLK_TCK,
  }
}
/** Cores used by other processes (not the server, not the reaped load generator, not us) over the window. */
const others = (a: Window, pid: number): number => {
  const b = openWindow(pid)
  const rest = b.machine - a.machine - (b.server - a.server) - (b.children - a.children) - (b.self - a.self)
  return Math.max(0, rest / CLK_TCK / Math.max(0.001, (b.t - a.t) / 1000))
}

// GET over TLS trusting `ca` (the harness's self-signed certificate): "<status> <body>".
const httpsProbe = (url: string, ca: string): Promise<string> =>
  new Promise((resolve) => {
    const req = get(url, { ca, agent: false, timeout: 5000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve(`${res.statusCode ?? 0} ${body}`))
    })
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')))
    req.on('error', (e) => resolve(String(e)))
  })

const wrk = async (workload: Workload, contender: Contender, server: RunningServer, sizing: Sizing, round: number, quietBefore: boolean, ca?: string): Promise<Sample | string> => {
  const url = `${workload.tls === true ? 'https' : 'http'}://127.0.0.1:${server.port}/hello`
  const probe = workload.tls === true
    ? await httpsProbe(url, ca ?? '')
    : await fetch(url).then(async (r) => `${r.status} ${await r.text()}`, (e: unknown) => String(e))
  if (!probe.startsWith('200 {"hello":"world"}')) return `GET /hello answered ${probe.slice(0, 120)}`
  const args = ['wrk', '-t1', `-c${workload.params['connections'] ?? 50}`, '--timeout', '2s']
  if (workload.kind === 'wrk-pipeline') args.push('-s', 'bench/load/pipeline.lua')
  const seconds = (ms: number): string => `${Math.max(1, Math.round(ms / 1000))}s`
  const warm = await runPinned([...args, `-d${seconds(sizing.warmupMs)}`, url], sizing.warmupMs + 10_000)
  if (parseWrk(warm.stdout) === undefined) return `wrk failed: ${warm.stderr.trim() || warm.stdout.trim()}`
  const w = openWindow(server.pid)
  const ran = await runPinned([...args, `-d${seconds(sizing.measureMs)}`, url], sizing.measureMs + 10_000)
  const serverTicks = (processCpuTicks(server.pid) ?? 0) - w.server
  const clientTicks = childrenCpuTicks() - w.children
  const other = others(w, server.pid)
  const result = parseWrk(ran.stdout)
  if (result === undefined) return `wrk failed: ${ran.stderr.trim() || ran.stdout.trim()}`
  // A server that answered nothing in the window (stalled, or starved by others) gives no figure.
  if (result.requests === 0) return `wrk completed no request in ${seconds(sizing.measureMs)}: ${ran.stdout.trim().split('\n').slice(-2).join(' | ')}`
  // A wrong answer fails the run; a few socket errors (wrk's 2 s timeout on a loaded machine) do not.
  if (result.non2xx > 0 || result.socketErrors > Math.max(10, result.requests / 1000)) {
    return `wrk saw ${result.socketErrors} socket errors and ${result.non2xx} non-2xx responses in ${result.requests} requests`
  }
  return {
    workload: workload.id, contender: contender.id, round,
    value: result.requestsPerSecond,
    serverCpuUs: (serverTicks * 1e6) / CLK_TCK / result.requests,
    clientCpuUs: (clientTicks * 1e6) / CLK_TCK / result.requests,
    otherCores: other,
    disturbed: !quietBefore || other > DISTURBED_CORES,
  }
}

// Built once per harness run; undefined (with a note on stderr, once) without a C compiler.
let wsload: string | null | undefined
const wsloadBinary = (): string | undefined => {
  if (wsload === undefined) {
    const built = buildC('wsload')
    wsload = 'path' in built ? built.path : null
    if ('error' in built) console.error(`echo workloads use the JS load client: ${built.error}`)
  }
  return wsload ?? undefined
}

const client = async (workload: Workload, contender: Contender, server: RunningServer, sizing: Sizing, round: number, quietBefore: boolean): Promise<Sample | string> => {
  const p = workload.params
  const common = ['--port', String(server.port), '--server-pid', String(server.pid), '--dialect', contender.dialect,
    '--ms', String(sizing.measureMs), '--warmup', String(sizing.warmupMs)]
  const byKind: Readonly<Record<string, readonly string[]>> = {
    echo: ['--mode', 'echo', '--conns', String(p['conns'] ?? 50), '--inflight', String(p['inflight'] ?? 1)],
    rate: ['--mode', 'rate', '--conns', String(p['conns'] ?? 50), '--rate', String(p['rate'] ?? 10_000)],
    bcast: ['--mode', 'bcast', '--clients', String(sizing.clients), '--repeat', String(sizing.broadcasts)],
    idle: ['--mode', 'idle', '--clients', String(sizing.clients), '--base', String(Math.min(p['base'] ?? 500, sizing.clients / 4))],
  }
  const deadline = 110_000
  // Issue 32: the C client for plain-WebSocket echo where `cc` built it (the JS client otherwise).
  const c = workload.cClient === true && workload.kind === 'echo' && contender.dialect === 'ws' && workload.clientArgs === undefined ? wsloadBinary() : undefined
  const command = c !== undefined
    ? [c, '--mode', 'echo', '--port', String(server.port), '--server-pid', String(server.pid), '--conns', String(p['conns'] ?? 50),
        '--inflight', String(p['inflight'] ?? 1), '--size', '32', '--warmup', String(sizing.warmupMs), '--ms', String(sizing.measureMs), '--deadline', String(deadline)]
    : [process.execPath, '--import', 'tsx', 'bench/load/ws-client.ts', ...common, ...(byKind[workload.kind] ?? []), ...(workload.clientArgs ?? []),
        '--deadline', String(deadline)]
  const w = openWindow(server.pid)
  const ran = await runPinned(command, deadline + 10_000)
  const other = others(w, server.pid)
  const r: ClientResult | undefined = parseClientResult(ran.stdout)
  if (r === undefined) return `load client printed no result (exit ${ran.code}): ${ran.stderr.trim().split('\n').slice(-3).join(' | ')}`
  if (!r.ok) return `load client: ${r.error ?? 'failed'}`
  if (r.failures > 0) return `load client: ${r.failures} connections failed: ${r.error ?? ''}`
  const base = {
    workload: workload.id, contender: contender.id, round, otherCores: other, disturbed: !quietBefore || other > DISTURBED_CORES,
    ...(workload.cClient === true ? { loadGenerator: c !== undefined ? 'wsload.c' : 'ws-client.ts' } : {}),
  }
  const perOp = (ms: number, ops: number): number => (ms * 1000) / Math.max(1, ops)
  // Compression workloads: bytes on the wire per message, and the share of handshakes that agreed.
  const wire = r.wire === undefined || workload.clientArgs === undefined ? {} : {
    'down (B/msg)': r.wire.down, ...(r.wire.up === undefined ? {} : { 'up (B/msg)': r.wire.up }),
  }
  switch (r.mode) {
    case 'echo':
      return {
        ...base, value: (r.messages * 1000) / r.ms, serverCpuUs: perOp(r.serverCpuMs, r.messages), clientCpuUs: perOp(r.clientCpuMs, r.messages),
        ...(Object.keys(wire).length === 0 ? {} : { extra: wire }),
      }
    case 'rate':
      return {
        ...base, value: r.latency?.p50 ?? Number.NaN, serverCpuUs: perOp(r.serverCpuMs, r.messages), clientCpuUs: perOp(r.clientCpuMs, r.messages),
        extra: { p99: r.latency?.p99 ?? Number.NaN, max: r.latency?.max ?? Number.NaN },
      }
    case 'bcast': {
      const times = r.broadcasts ?? []
      return {
        ...base, value: summarize(times).median, serverCpuUs: perOp(r.serverCpuMs, times.length), clientCpuUs: perOp(r.clientCpuMs, times.length),
        extra: { clients: sizing.clients, ...wire },
      }
    }
    case 'idle': {
      const m = r.memory
      if (m === undefined || m.full <= m.base) return 'load client reported no memory figures'
      return {
        ...base, value: (m.rssFull - m.rssBase) / (m.full - m.base) / 1024,
        serverCpuUs: perOp(r.serverCpuMs, m.full), clientCpuUs: perOp(r.clientCpuMs, m.full),
        extra: { connections: m.full, ...(r.agreed === undefined ? {} : { 'deflate agreed (%)': (100 * r.agreed) / m.full }) },
      }
    }
  }
}

/**
 * Measures `workload` against `server` (already started for `contender`); a Sample,
 * or why there is none. `quietBefore` says whether the machine was quiet beforehand;
 * `ca` is the certificate a TLS workload's server was given.
 */
export const runLoad = (workload: Workload, contender: Contender, server: RunningServer, sizing: Sizing, round: number, quietBefore: boolean, ca?: string): Promise<Sample | string> => {
  return workload.kind === 'wrk' || workload.kind === 'wrk-pipeline'
    ? wrk(workload, contender, server, sizing, round, quietBefore, ca)
    : client(workload, contender, server, sizing, round, quietBefore)
}
