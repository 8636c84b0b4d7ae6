/**
 * The soak (issue 29): mixed traffic for a long time on one server and on two nodes over
 * Redis, with faults between one node and Redis, judged by the script itself.
 *
 *   npm run soak                                    30 minutes, 3,000 clients, faults on
 *   npm run soak -- --minutes 5 --clients 2000      shorter (a shared machine)
 *   npm run soak -- --no-faults --out /tmp/soak.md  no fault injection; the report there too
 *   npm run soak -- --heap-dir /tmp/heap            heap snapshots of --heap-nodes (default B) at
 *                                                   the end of warm-up and of the run, there
 *
 * Processes: a `redis-server` on a free port in a temporary directory; three servers
 * (`soak/soak-node.ts`): `single` alone, `A` and `B` a cluster over Redis, B reaching Redis
 * through a fault proxy; load processes (`soak/soak-load.ts`, at most 15,000 clients each
 * under the 20,000-fd limit) for the single server and for the cluster. Faults: `tc netem` in
 * a network namespace where the machine allows it, else (the reason printed) the user-space
 * proxy (`soak/fault-proxy.ts`): latency and jitter, stalls, cut connections and a full
 * partition between B and Redis, on a cycle after warm-up, healed for the last minute.
 * Reports per minute: each server's RSS, heap, handles, event-loop p99, HTTP requests and
 * socket events per second, and the clients' messages, acks and errors by kind. Pass
 * (`soak/soak-verdict.ts`): no crash, no unanswered request, no lost or duplicated message
 * for recovering clients, slopes after warm-up within their bounds (the heap used after a full
 * GC, taken every --heap-every-s on each server: the leak signal; RSS, looser; handles),
 * event-loop p99 beyond an idle probe process's at the same time (`soak/soak-probe.ts`: the
 * machine's own delay) within its bound, samples whose loop thread waited for a CPU a quarter
 * of the time (`/proc/self/schedstat`) left out as starved; every refused resume judged by its cause on the server
 * (its debug log) against the faults injected then: right when a fault explains it, and only
 * wrong ones fail (also counted by node and phase on the clients). Exits 1 on failure. Loopback only; everything it starts it stops.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startRedis } from '../spec/support/redis.js'
import { type FaultProxy, netemAvailable, startFaultProxy } from './soak/fault-proxy.js'
import type { LoadConfig, LoadFinal, LoadSample } from './soak/soak-load.js'
import type { HeapReport, NodeSample } from './soak/soak-node.js'
import type { ProbeSample } from './soak/soak-probe.js'
import { type Check, type FaultWindow, loadChecks, type Point, type Refusal, refusalChecks, serverChecks, slope } from './soak/soak-verdict.js'

const here = dirname(fileURLToPath(import.meta.url))
const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    clients: { type: 'string', default: '3000' },
    'warmup-minutes': { type: 'string' },
    'report-s': { type: 'string', default: '60' },
    'sample-s': { type: 'string', default: '5' },
    'tick-ms': { type: 'string', default: '500' },
    'no-faults': { type: 'boolean', default: false },
    'heap-slope': { type: 'string', default: '0.3' },
    'rss-slope': { type: 'string', default: '4' },
    'handle-slope': { type: 'string', default: '10' },
    'loop-p99': { type: 'string', default: '250' },
    'fault-grace-s': { type: 'string', default: '10' },
    out: { type: 'string' },
    'heap-dir': { type: 'string' },
    'heap-every-s': { type: 'string', default: '30' },
    'heap-nodes': { type: 'string', default: 'B' },
  },
})
const minutes = Number(args.minutes)
const warmupMinutes = Number(args['warmup-minutes'] ?? Math.min(5, Math.max(1, Math.round(minutes / 5))))
const clients = Number(args.clients)
const reportMs = Number(args['report-s']) * 1000
const sampleMs = Number(args['sample-s']) * 1000
const bounds = { heapMbPerMin: Number(args['heap-slope']), rssMbPerMin: Number(args['rss-slope']), handlesPerMin: Number(args['handle-slope']), loopP99Ms: Number(args['loop-p99']) }
const faults = !args['no-faults']
const faultGraceMs = Number(args['fault-grace-s']) * 1000
const heapDir = args['heap-dir']
const heapNodes = new Set((args['heap-nodes'] ?? '').split(',').filter((name) => name !== ''))
const out = args.out ?? join(tmpdir(), 'twinport-soak', 'soak.md')
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const lines: string[] = []
const say = (line: string): void => {
  lines.push(line)
  console.log(line)
}

// ---- processes --------------------------------------------------------------------------------

const children: ChildProcess[] = []
// Load processes that sent their final counters (they exit by themselves then).
const finished = new Set<ChildProcess>()
const crashes: string[] = []
let stopping = false

const spawnChild = <R>(script: string, name: string, env: Record<string, string>, onMessage: (m: R) => void): Promise<{ child: ChildProcess; ready: R }> =>
  new Promise((resolve, reject) => {
    const execArgv = ['--import', 'tsx', '--expose-gc']
    const child = fork(join(here, 'soak', script), [], { execArgv, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] })
    children.push(child)
    let err = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-4000)
      if (chunk.toString().includes('Error')) process.stderr.write(`[${name}] ${chunk.toString()}`)
    })
    let ready = false
    child.on('message', (m: R & { op?: string }) => {
      if (!ready && m.op === 'ready') {
        ready = true
        return resolve({ child, ready: m })
      }
      onMessage(m)
    })
    child.once('exit', (code, signal) => {
      if (code === 0 && finished.has(child)) return
      if (!ready) reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${err}`))
      else if (!stopping) crashes.push(`${name} exited (${code ?? signal}): ${err.slice(-800)}`)
    })
  })

const samples = new Map<string, NodeSample[]>()
// The idle probe's event-loop delay and the load average, every --sample-s (the machine's own delay).
const probeSamples: ProbeSample[] = []
const startProbe = async (): Promise<void> => {
  await spawnChild<ProbeSample | { op: 'ready' }>('soak-probe.ts', 'probe', { SAMPLE_MS: String(sampleMs) }, (m) => {
    if (m.op === 'probe') probeSamples.push(m)
  })
}
const heapReports: HeapReport[] = []
const nodes = new Map<string, ChildProcess>()
const startNode = async (name: string, env: Record<string, string>): Promise<number> => {
  samples.set(name, [])
  const heapEnv: Record<string, string> = heapDir === undefined ? {} : { HEAP_DIR: heapDir }
  const { child, ready } = await spawnChild<NodeSample | HeapReport | { op: 'ready'; port: number }>('soak-node.ts', name, { SAMPLE_MS: String(sampleMs), TICK_MS: args['tick-ms'], ...heapEnv, ...env }, (m) => {
    if (m.op === 'sample') samples.get(name)?.push(m)
    else if (m.op === 'heap') heapReports.push(m)
  })
  nodes.set(name, child)
  return (ready as { port: number }).port
}

// Every server's heap after a full GC (the verdict's leak signal); with --heap-dir, snapshots of --heap-nodes.
const askHeap = (label: string, snapshot: boolean): void => {
  for (const [name, child] of nodes) child.send({ op: 'heap', label, snapshot: snapshot && heapDir !== undefined && heapNodes.has(name) })
}
const heapSlopes = (warmAt: number): void => {
  say('\n## heap after a full GC')
  say('| server | label | s | RSS MB | anonymous MB | heap used after GC MB | V8 heap in memory MB | malloced (V8) MB | external MB | array buffers MB | GC+snapshot ms |')
  say('|---|---|---|---|---|---|---|---|---|---|---|')
  for (const r of heapReports) {
    const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1)
    say(`| ${r.node} | ${r.label} | ${Math.round((r.at - startedAt) / 1000)} | ${mb(r.rss)} | ${mb(r.anonymous)} | ${mb(r.heapUsedAfterGc)} | ${mb(r.heapPhysical)} | ${mb(r.mallocedMemory)} | ${mb(r.external)} | ${mb(r.arrayBuffers)} | ${r.ms} |`)
  }
  for (const name of nodes.keys()) {
    const warm = heapReports.filter((r) => r.node === name && r.at >= warmAt)
    const minutes = warm.map((r) => (r.at - warmAt) / 60_000)
    const per = (of: (r: HeapReport) => number): string => slope(minutes, warm.map((r) => of(r) / 2 ** 20)).toFixed(2)
    say(`${name}: after warm-up, heap-after-GC slope ${per((r) => r.heapUsedAfterGc)} MB/min; at the same points RSS ${per((r) => r.rss)}, anonymous ${per((r) => r.anonymous)}, V8 heap in memory ${per((r) => r.heapPhysical)}, external ${per((r) => r.external)} MB/min (${warm.length} points)`)
  }
  const files = heapReports.filter((r) => r.file !== undefined).map((r) => r.file)
  if (files.length > 0) say(`snapshots: ${files.join(', ')} (compare: node --import tsx bench/soak/heap-diff.ts <first> <last>)`)
}

// Refused resumes one by one (the engine's debug log, sent by each server), judged by cause
// against the faults injected (`refusalChecks`): the report's table, right and wrong apart.
const refusalsOf = (): Refusal[] =>
  [...samples].flatMap(([node, list]) => list.flatMap((s) => s.refused.map((r) => ({ node, at: r.at, ms: r.ms, reason: r.reason, cause: r.cause, local: r.local }))))
const refusalTable = (judged: ReturnType<typeof refusalChecks>): void => {
  say('\n## refused resumes by cause (servers), judged against the faults injected')
  say(`right: ${judged.right}, wrong: ${judged.wrong} (right: a store fault's cause on the node cut off, or a lost write's anywhere, asked during a fault or within ${faultGraceMs / 1000} s after it)`)
  say('| server | reason/cause | right? | count | ms mean | ms max |')
  say('|---|---|---|--:|--:|--:|')
  for (const r of judged.rows) say(`| ${r.node} | ${r.key} | ${r.right ? 'right' : '**wrong**'} | ${r.n} | ${r.msMean.toFixed(0)} | ${r.msMax} |`)
  // What the wrong ones follow on their server: a session this node let go (`moved`), or restored here before.
  say('\n| server | refused after this node let the session go (moved: parked / connected) | after it had restored it | sessions let go (parked / connected) |')
  say('|---|---|---|---|')
  for (const [name, list] of samples) {
    const refused = list.flatMap((s) => s.refused)
    const after = refused.filter((r) => r.movedFromHere !== undefined)
    const connected = after.filter((r) => r.movedFromHere?.connected === true).length
    const letGo = list.reduce((sum, s) => ({ parked: sum.parked + s.moved.parked, connected: sum.connected + s.moved.connected }), { parked: 0, connected: 0 })
    say(`| ${name} | ${after.length} (${after.length - connected} / ${connected}) | ${refused.filter((r) => r.restoredHere === true).length} | ${letGo.parked} / ${letGo.connected} |`)
  }
  for (const [name, list] of samples) {
    for (const s of list) {
      for (const r of s.refused) {
        if (r.movedFromHere === undefined && r.cause !== 'unknown_session') continue
        say(`- ${name} ${new Date(r.at).toISOString().slice(11, 19)}: ${r.reason}/${r.cause}${r.local ? ' (local)' : ''} after ${r.ms} ms${r.movedFromHere === undefined ? '' : `; let go here ${r.movedFromHere.agoMs} ms before (${r.movedFromHere.connected ? 'connected' : 'parked'})`}${r.restoredHere === true ? '; restored here before' : ''}`)
      }
    }
  }
}

const loadSamples: LoadSample[] = []
const finals: LoadFinal[] = []
const loads: ChildProcess[] = []
const startLoad = async (name: string, config: LoadConfig): Promise<void> => {
  const { child } = await spawnChild<LoadSample | LoadFinal | { op: 'ready' }>('soak-load.ts', name, { LOAD: JSON.stringify(config), SAMPLE_MS: String(sampleMs) }, (m) => {
    if (m.op === 'sample') loadSamples.push(m)
    else if (m.op === 'final') {
      finals.push(m)
      finished.add(loadChild)
    }
  })
  const loadChild = child
  loads.push(child)
}

// Clients of one group (a server or the cluster), spread over load processes of at most 15,000.
const startGroup = async (name: string, ports: number[], total: number): Promise<void> => {
  const processes = Math.max(1, Math.ceil(total / 15_000))
  for (let k = 0; k < processes; k++) {
    const n = Math.floor(total / processes)
    const feed = Math.floor(n * 0.25)
    const slow = Math.max(2, Math.floor(n * 0.02))
    await startLoad(`${name}-load${k}`, { ports, feed, slow, churn: n - feed - slow, http: 8, pipelined: 4, rooms: 100, churnEveryMs: 8000 })
  }
}

// ---- faults -------------------------------------------------------------------------------------

let phase: 'calm' | 'fault' = 'calm'
// Every fault injected, with when it started and ended (the refusals are judged against them).
const faultWindows: FaultWindow[] = []
const setPhase = (next: 'calm' | 'fault'): void => {
  phase = next
  for (const child of loads) child.send({ op: 'phase', phase: next })
}
const faultLog: string[] = []

// One cycle (about 2 minutes): latency+jitter, stalls, a cut, a partition; calm between.
const faultCycle = async (proxy: FaultProxy, until: number): Promise<void> => {
  const step = async (label: string, ms: number, on: () => void, off: () => void): Promise<void> => {
    if (Date.now() + ms > until) return
    setPhase('fault')
    faultLog.push(`${new Date().toISOString().slice(11, 19)} ${label}`)
    const from = Date.now()
    on()
    await sleep(ms)
    off()
    faultWindows.push({ from, to: Date.now(), label, nodes: ['B'] })
    await sleep(10_000) // what was held arrives before the clients call it calm again
    setPhase('calm')
    await sleep(10_000)
  }
  await step('latency 50 ms ± 40 ms, 20 s', 20_000, () => proxy.shape(50, 40), () => proxy.shape(0, 0))
  await step('stalls of 2 s every 5 s, 20 s', 20_000, () => {
    proxy.stall(2000)
    const timer = setInterval(() => proxy.stall(2000), 5000)
    setTimeout(() => clearInterval(timer), 19_000)
  }, () => undefined)
  await step('cut every connection', 1, () => proxy.cut(), () => undefined)
  await step('partition 15 s', 15_000, () => proxy.partition(true), () => proxy.partition(false))
}

// ---- the run -------------------------------------------------------------------------------------

const perMinute = (): void => {
  const row = (name: string): string => {
    const recent = (samples.get(name) ?? []).filter((s) => s.at > Date.now() - reportMs)
    if (recent.length === 0) return `| ${name} | – | – | – | – | – | – | – |`
    const last = recent[recent.length - 1]!
    const secs = (recent.length * sampleMs) / 1000
    const loop = Math.max(...recent.map((s) => s.loopP99Ms))
    const http = recent.reduce((sum, s) => sum + s.http, 0) / secs
    const events = recent.reduce((sum, s) => sum + s.events, 0) / secs
    const waited = Math.max(...recent.map((s) => s.runQueueShare))
    return `| ${name} | ${(last.rss / 2 ** 20).toFixed(0)} | ${(last.heapUsed / 2 ** 20).toFixed(0)} | ${last.handles} | ${loop.toFixed(1)} | ${waited < 0 ? '–' : (100 * waited).toFixed(0)} | ${http.toFixed(0)} | ${events.toFixed(0)} |`
  }
  const window = loadSamples.splice(0)
  const sum = (kind: string, from: 'counts' | 'errors'): number => window.reduce((total, s) => total + (s[from][kind] ?? 0), 0)
  const kinds = new Set(window.flatMap((s) => Object.keys(s.errors)))
  const errs = [...kinds].map((k) => `${k} ${sum(k, 'errors')}`).join(', ') || 'none'
  const secs = reportMs / 1000
  const minute = Math.round((Date.now() - startedAt) / 60_000)
  say(`\nminute ${minute} (${phase}): ws in ${(sum('ws_in', 'counts') / secs).toFixed(0)}/s, requests ${(sum('requests', 'counts') / secs).toFixed(0)}/s, acks ${(sum('acks', 'counts') / secs).toFixed(0)}/s, HTTP ok ${(sum('http_ok', 'counts') / secs).toFixed(0)}/s, drops ${sum('abrupt_drop', 'counts')}, resumed ${sum('recovered', 'counts')}, malformed answered ${sum('malformed_answered', 'counts')}/${sum('malformed_sent', 'counts')}; errors: ${errs}`)
  say('| server | RSS MB | heap MB | handles | loop p99 ms | waited for a CPU, worst % | HTTP/s | events/s |')
  say('|---|---|---|---|---|---|---|---|')
  for (const name of samples.keys()) say(row(name))
  const probe = probeSamples.filter((p) => p.at > Date.now() - reportMs)
  if (probe.length > 0) {
    const loads = probe.map((p) => p.load1)
    say(`| idle probe (load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}) | – | – | – | ${Math.max(...probe.map((p) => p.loopP99Ms)).toFixed(1)} | – | – | – |`)
  }
}

let startedAt = Date.now()
const main = async (): Promise<number> => {
  const netem = faults ? netemAvailable() : { ok: false, reason: 'faults off (--no-faults)' }
  const faultMode = !faults ? 'none' : 'user-space TCP proxy between node B and Redis'
  say(`# twinport soak: ${minutes} min (warm-up ${warmupMinutes} min), ${clients} WebSocket clients, faults: ${faultMode}`)
  say(`netem: ${netem.reason}${netem.ok ? ' (the proxy is used all the same: it injects the same faults without root)' : ''}`)
  say(`bounds: heap-after-GC slope ≤ ${bounds.heapMbPerMin} MB/min, RSS slope ≤ ${bounds.rssMbPerMin} MB/min, handle slope ≤ ${bounds.handlesPerMin}/min (after warm-up), event-loop p99 ≤ ${bounds.loopP99Ms} ms beyond an idle probe's at the same time; refused resumes: none whose cause a fault does not explain (grace ${faultGraceMs / 1000} s)`)
  say(`command: node --import tsx bench/soak.ts ${process.argv.slice(2).join(' ')}`.trim())
  const redis = await startRedis()
  const proxy = await startFaultProxy(redis.port)
  try {
    await startProbe()
    const single = await startNode('single', { MODE: 'single' })
    const a = await startNode('A', { MODE: 'cluster', REDIS_URL: redis.url, NODE_ID: 'A' })
    const b = await startNode('B', { MODE: 'cluster', REDIS_URL: `redis://127.0.0.1:${proxy.port}`, NODE_ID: 'B' })
    const singleClients = Math.round(clients / 3)
    await startGroup('single', [single], singleClients)
    await startGroup('cluster', [a, b], clients - singleClients)
    startedAt = Date.now()
    const endAt = startedAt + minutes * 60_000
    const warmAt = startedAt + warmupMinutes * 60_000
    const reporter = setInterval(perMinute, reportMs)
    const heapTimer = setInterval(() => askHeap(`t${Math.round((Date.now() - startedAt) / 1000)}`, false), Number(args['heap-every-s']) * 1000)
    if (heapDir !== undefined) mkdirSync(heapDir, { recursive: true })
    setTimeout(() => askHeap('warm', true), warmAt - Date.now())
    if (faults) {
      void (async () => {
        await sleep(warmAt - Date.now())
        while (!stopping && Date.now() < endAt - 60_000) await faultCycle(proxy, endAt - 60_000)
      })()
    }
    while (Date.now() < endAt && crashes.length === 0) await sleep(1000)
    clearInterval(reporter)
    clearInterval(heapTimer)
    perMinute()
    askHeap('end', true)
    const heapUntil = Date.now() + 120_000
    while (heapReports.filter((r) => r.label === 'end').length < nodes.size && Date.now() < heapUntil) await sleep(200)
    for (const child of loads) child.send({ op: 'finish' })
    const until = Date.now() + 40_000
    while (finals.length < loads.length && Date.now() < until) await sleep(200)

    // ---- verdict ----
    const checks: Check[] = [{ name: 'no crash', ok: crashes.length === 0, detail: crashes.join('; ') || 'every process ran to the end' }]
    for (const [name, list] of samples) checks.push(...serverChecks(name, list.map((s): Point => s), heapReports.filter((r) => r.node === name), warmAt, bounds, probeSamples))
    const errors: Record<string, number> = {}
    const totals: Record<string, number> = {}
    for (const f of finals) {
      for (const [k, n] of Object.entries(f.errors)) errors[k] = (errors[k] ?? 0) + n
      for (const [k, n] of Object.entries(f.totals)) totals[k] = (totals[k] ?? 0) + n
    }
    const unanswered = finals.reduce((sum, f) => sum + f.unansweredAcks + f.unansweredHttp, 0) + (loads.length - finals.length) * 1_000_000
    const detached = finals.reduce((sum, f) => sum + f.feedDetached, 0)
    checks.push(...loadChecks(errors, unanswered, detached, totals.tick_gap_calm ?? 0))
    const clientRefused = Object.entries(errors).reduce((sum, [kind, n]) => sum + (kind.startsWith('recovery_') ? n : 0), 0)
    const judged = refusalChecks(refusalsOf(), faultWindows, faultGraceMs, clientRefused)
    checks.push(...judged.checks)
    say('\n## totals')
    say(Object.entries(totals).sort().map(([k, n]) => `${k} ${n}`).join(', '))
    say(`errors (all kinds): ${Object.entries(errors).sort().map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`)
    say(`ticks missing during faults (cross-node, reported): ${totals.tick_gap_fault ?? 0}; proxy: ${JSON.stringify(proxy.stats())}`)
    if (faultLog.length > 0) say(`faults injected: ${faultLog.join('; ')}`)
    refusalTable(judged)
    const loadAverages = probeSamples.filter((p) => p.at >= warmAt).map((p) => p.load1)
    if (loadAverages.length > 0) say(`\nload average (1 min) after warm-up: ${Math.min(...loadAverages).toFixed(1)}-${Math.max(...loadAverages).toFixed(1)}; idle probe's event-loop p99 worst ${Math.max(...probeSamples.filter((p) => p.at >= warmAt).map((p) => p.loopP99Ms)).toFixed(1)} ms`)
    heapSlopes(warmAt)
    say('\n## verdict')
    for (const c of checks) say(`- ${c.ok ? 'pass' : 'FAIL'}: ${c.name}: ${c.detail}`)
    const ok = checks.every((c) => c.ok)
    say(ok ? '\nSOAK PASSED' : '\nSOAK FAILED')
    return ok ? 0 : 1
  } finally {
    stopping = true
    for (const child of children) child.kill('SIGTERM')
    await sleep(500)
    await proxy.close()
    await redis.dispose()
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, `${lines.join('\n')}\n`)
    console.log(`report written to ${out}`)
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error)
  return 1
})
process.exit()
