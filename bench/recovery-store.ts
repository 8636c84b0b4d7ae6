/**
 * What session recovery across nodes costs (issue 11, docs/decisions.md "Session recovery
 * across nodes: what is written, and when"): twinport with the Redis adapter and clients that
 * ask for a session (`tp_v=1`), with the Redis recovery store (`redisRecoveryStore`, the
 * journal writing each changed session once per flush) against sessions kept in the process
 * only and against clients without sessions (the floor). It starts its own redis-server on a
 * free 127.0.0.1 port in a temporary directory (spec/support/redis.ts) and stops it; every
 * server is a child process (`bench/recovery/node.ts`) pinned to CPU 0, the clients (raw
 * sockets in this process, `bench/recovery/session-client.ts`) and Redis to CPU 1. Every
 * wait is bounded; it exits by itself.
 *
 *   node --import tsx bench/recovery-store.ts --only bcast --clients 10000 --nodes 2
 *   node --import tsx bench/recovery-store.ts --only resume --resume-clients 1000 --tick-ms 100 --kill-at 50
 *   node --import tsx bench/recovery-store.ts --only resume --tick-ms 20 --kill-at=-1        A killed at any moment
 *   node --import tsx bench/recovery-store.ts --only bcast --modes store --profile bench/.tmp/prof   V8 CPU profiles of the servers
 *
 * The servers run compiled (`tsc -p tsconfig.bench.json`, done first; `--source`: under tsx).
 *
 * Cases:
 *   bcast   N clients over 1 or 2 nodes (N/2 each), broadcasts started on the first node to the
 *           room every client is in: `--repeat` single broadcasts (time from the trigger to the
 *           last receipt, server and Redis CPU, the journal's writes), then one burst of
 *           `--burst` broadcasts back to back (local delivery time, when the journal has
 *           written it all, Redis commands and memory, the servers' peak RSS, frames recorded
 *           against frames numbered). Modes: `off` (no tp_v), `local` (sessions in process),
 *           `store` (sessions in Redis); `off` and `local` share a server, `store` has its own.
 *   resume  K session clients on node A, a tick to their room every `--tick-ms` from node B;
 *           `--kill-at` ms after a tick reached them, A is killed (SIGKILL) and every client
 *           resumes on B at once (or spread over `--spread` ms): time until all have their
 *           session back and have every tick sent meanwhile, resyncs, ticks lost, duplicated
 *           and out of order over 1…last, B's and Redis' CPU and commands meanwhile.
 */
import { type ChildProcess, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type { StoreCounts as Counts } from './recovery/counting-store.js'
import { parseRedisInfo, type RedisDelta, redisDelta, type RedisInfo } from './recovery/redis-info.js'
import { dropClients, hooks, openClients, resumeClient, type SessionClient } from './recovery/session-client.js'
import { sumTallies, tallyTicks } from './recovery/tally-ticks.js'
import type { RedisServer } from '../spec/support/redis.js'
import { benchProcesses } from './bench-processes.js'

const { values: opt } = parseArgs({
  options: {
    only: { type: 'string', default: 'bcast,resume' },
    clients: { type: 'string', default: '5000' },
    nodes: { type: 'string', default: '1' },
    repeat: { type: 'string', default: '5' },
    burst: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '1' },
    'resume-clients': { type: 'string', default: '1000' },
    'tick-ms': { type: 'string', default: '100' },
    'kill-at': { type: 'string', default: '50' },
    spread: { type: 'string', default: '0' },
    modes: { type: 'string', default: 'off,local,store' },
    profile: { type: 'string' },
    source: { type: 'boolean', default: false },
  },
})
const CASES = new Set((opt.only ?? '').split(','))
const CLIENT_COUNTS = (opt.clients ?? '').split(',').map(Number)
const NODE_COUNTS = (opt.nodes ?? '').split(',').map(Number)
const REPEAT = Number(opt.repeat)
const BURST = Number(opt.burst)
const ROUNDS = Math.max(1, Number(opt.rounds))
const K = Number(opt['resume-clients'])
const TICK_MS = Number(opt['tick-ms'])
const KILL_AT = Number(opt['kill-at'])
const SPREAD = Number(opt.spread)
type Mode = 'off' | 'local' | 'store'
const MODES = new Set((opt.modes ?? '').split(',') as Mode[])
const WAIT_MS = 30_000
const QUIET_MS = 50

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const median = (xs: readonly number[]): number => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : ((s[(s.length - 1) >> 1] as number) + (s[s.length >> 1] as number)) / 2
}
const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : 'n/a')
const log = (line: string): void => console.error(`[recovery-bench] ${line}`)
const epoch = (t: number): number => performance.timeOrigin + t
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ')

// ---- servers -----------------------------------------------------------------------------

interface Node {
  readonly child: ChildProcess
  readonly port: number
  readonly pid: number
  rpc<A>(command: Record<string, unknown>, ms?: number): Promise<A>
}

// --profile DIR: each server writes a V8 CPU profile (.cpuprofile) there when stopped (SIGTERM).
const PROFILE: readonly string[] = opt.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', opt.profile]
const processes = benchProcesses(PROFILE)
// The servers run compiled (tsc -p tsconfig.bench.json), as an application ships them and as
// bench/run.ts runs twinport; --source, or a failed build, runs them from source under tsx.
const COMPILED = 'bench/.tmp/dist/bench/recovery/node.js'
const built =
  opt.source !== true &&
  spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json'], { stdio: 'ignore' }).status === 0 &&
  existsSync(COMPILED)
const SERVER: readonly string[] = built ? [COMPILED] : ['--import', 'tsx', 'bench/recovery/node.ts']
const startNode = (redis: RedisServer, prefix: string, nodeId: string, store: boolean): Promise<Node> =>
  new Promise((resolve, reject) => {
    const child = processes.spawnNode(SERVER, {
      env: { ...process.env, REDIS_URL: redis.url, PREFIX: prefix, NODE_ID: nodeId, STORE: store ? 'redis' : 'none' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') log(`node ${nodeId}: ${line.trim()}`)
    })
    let next = 0
    const waiting = new Map<number, (answer: unknown) => void>()
    const timer = setTimeout(() => reject(new Error(`node ${nodeId} did not start`)), 30_000)
    child.on('message', (m: { op?: string; id?: number; port?: number }) => {
      if (m.op === 'ready') {
        clearTimeout(timer)
        resolve({
          child,
          port: m.port as number,
          pid: child.pid as number,
          rpc: <A>(command: Record<string, unknown>, ms = WAIT_MS + 5000) =>
            new Promise<A>((ok, fail) => {
              const id = ++next
              const t = setTimeout(() => fail(new Error(`node ${nodeId}: no answer to ${String(command.op)}`)), ms)
              waiting.set(id, (answer) => {
                clearTimeout(t)
                ok(answer as A)
              })
              child.send({ ...command, id })
            }),
        })
      } else if (m.id !== undefined) {
        waiting.get(m.id)?.(m)
        waiting.delete(m.id)
      }
    })
  })

const stopNodes = (nodes: readonly Node[]): Promise<void> => processes.stop(nodes.map((n) => n.child))
const cpuOf = processes.cpuOf

// Peak RSS: Linux resets VmHWM to the current RSS when "5" is written to clear_refs.
const resetPeak = (pid: number): void => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {
    // not Linux, or not allowed: the peak is then since the start
  }
}
const statusKb = (pid: number, field: 'VmHWM' | 'VmRSS'): number => {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN)
  } catch {
    return Number.NaN
  }
}

const info = async (redis: RedisServer): Promise<RedisInfo> => parseRedisInfo(await redis.cli('INFO', 'memory', 'commandstats'))
const callsOf = (d: RedisDelta, name: string): number => d.calls.get(name) ?? 0

/** What a node says of its journal: the store's counts and the warnings it logged. */
type StoreCounts = Counts & { readonly warnings: number; readonly loopMaxMs: number; readonly afterBurstMs: number }

// ---- clients -----------------------------------------------------------------------------

/** Resolves with performance.now() once every client has `k` messages more than now, or NaN after `ms`. */
const everyClientGets = (clients: readonly SessionClient[], k: number, ms: number): Promise<number> => {
  const goal = new Map(clients.map((c) => [c, c.received + k]))
  let left = clients.length
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      log(`${left} of ${clients.length} clients did not get ${k} messages within ${ms} ms`)
      hooks.message = () => undefined
      resolve(Number.NaN)
    }, ms)
    hooks.message = (c) => {
      const g = goal.get(c)
      if (g === undefined || c.received < g) return
      goal.delete(c)
      if (--left === 0) {
        clearTimeout(timer)
        hooks.message = () => undefined
        resolve(performance.now())
      }
    }
  })
}

// ---- bcast -------------------------------------------------------------------------------

interface BcastRun {
  readonly single: number[]
  readonly singleServerMs: number
  readonly singleRedisMs: number
  readonly singleClientMs: number
  readonly singleScripts: number
  readonly singleWrites: number
  readonly singleJournalMs: number[]
  readonly burstMs: number
  readonly burstJournalMs: number
  readonly burstServerMs: number
  readonly burstRedisMs: number
  readonly burstScripts: number
  readonly burstWrites: number
  readonly burstCommands: number
  readonly burstRedisBytes: number
  readonly redisBefore: number
  readonly burstPeakKiB: number
  readonly burstFrames: number
  readonly burstExpected: number
  readonly burstFlushes: number
  readonly burstMaxInFlight: number
  readonly burstFailed: number
  readonly burstSlowestMs: number
  readonly burstWarnings: number
  readonly burstLoopMs: number
  readonly burstAfterMs: number
}

const quietAll = async (nodes: readonly Node[], maxMs = WAIT_MS): Promise<StoreCounts[]> => {
  const answers = await Promise.all(nodes.map((n) => n.rpc<{ quiet: boolean; counts: StoreCounts }>({ op: 'quiet', quietMs: QUIET_MS, maxMs })))
  if (answers.some((a) => !a.quiet)) log(`a journal was still writing after ${maxMs} ms`)
  return answers.map((a) => a.counts)
}
const resetCounts = (nodes: readonly Node[]): Promise<unknown> => Promise.all(nodes.map((n) => n.rpc({ op: 'counts', reset: true })))
const lastDone = (counts: readonly StoreCounts[]): number => Math.max(...counts.map((c) => (Number.isNaN(c.lastDoneAt) ? Number.NEGATIVE_INFINITY : c.lastDoneAt)))
const sumOf = (counts: readonly Counts[], key: 'calls' | 'frames' | 'flushes' | 'failed'): number => counts.reduce((s, c) => s + c[key], 0)

const measureBcast = async (redis: RedisServer, nodes: readonly Node[], clients: readonly SessionClient[], mode: Mode): Promise<BcastRun> => {
  const [first] = nodes as [Node]
  const pids = nodes.map((n) => n.pid)
  await quietAll(nodes)
  await sleep(500)
  // Single broadcasts.
  const single: number[] = []
  const singleJournalMs: number[] = []
  let singleWrites = 0
  let clientUs = 0
  const info0 = await info(redis)
  const serverCpu = cpuOf(pids)
  const redisCpu = cpuOf([redis.pid as number])
  for (let r = 0; r < REPEAT; r++) {
    await sleep(300)
    await resetCounts(nodes)
    const done = everyClientGets(clients, 1, 10_000)
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const sent = first.rpc({ op: 'burst', count: 1 })
    const t1 = await done
    const cpu = process.cpuUsage(cpu0)
    clientUs += cpu.user + cpu.system
    await sent
    single.push(t1 - t0)
    if (mode === 'store') {
      const counts = await quietAll(nodes)
      singleJournalMs.push(lastDone(counts) - epoch(t0))
      singleWrites += sumOf(counts, 'calls')
    }
  }
  const singleServerMs = serverCpu.done() / REPEAT
  const singleRedisMs = redisCpu.done() / REPEAT
  const singleDelta = redisDelta(info0, await info(redis))
  // One burst.
  await sleep(500)
  for (const pid of pids) resetPeak(pid)
  const rss0 = pids.map((pid) => statusKb(pid, 'VmRSS'))
  await resetCounts(nodes)
  const info1 = await info(redis)
  const burstServer = cpuOf(pids)
  const burstRedis = cpuOf([redis.pid as number])
  const done = everyClientGets(clients, BURST, WAIT_MS)
  const t0 = performance.now()
  const sent = first.rpc({ op: 'burst', count: BURST })
  const t1 = await done
  await sent
  const counts = await quietAll(nodes)
  const burstServerMs = burstServer.done()
  const burstRedisMs = burstRedis.done()
  const burstDelta = redisDelta(info1, await info(redis))
  const peak = pids.reduce((s, pid, i) => s + statusKb(pid, 'VmHWM') - (rss0[i] ?? 0), 0)
  return {
    single,
    singleServerMs,
    singleRedisMs,
    singleClientMs: clientUs / 1000 / REPEAT,
    singleScripts: (callsOf(singleDelta, 'evalsha') + callsOf(singleDelta, 'eval')) / REPEAT,
    singleWrites: singleWrites / REPEAT,
    singleJournalMs,
    burstMs: t1 - t0,
    burstJournalMs: mode === 'store' ? lastDone(counts) - epoch(t0) : Number.NaN,
    burstServerMs,
    burstRedisMs,
    burstScripts: callsOf(burstDelta, 'evalsha') + callsOf(burstDelta, 'eval'),
    burstWrites: sumOf(counts, 'calls'),
    burstCommands: burstDelta.total,
    burstRedisBytes: burstDelta.dataset,
    redisBefore: info1.dataset,
    burstPeakKiB: peak,
    burstFrames: sumOf(counts, 'frames'),
    burstExpected: mode === 'off' ? 0 : clients.length * BURST,
    burstFlushes: sumOf(counts, 'flushes'),
    burstMaxInFlight: Math.max(...counts.map((c) => c.maxInFlight)),
    burstFailed: sumOf(counts, 'failed'),
    burstSlowestMs: Math.max(...counts.map((c) => c.slowestMs)),
    burstWarnings: counts.reduce((s, c) => s + c.warnings, 0),
    burstLoopMs: Math.max(...counts.map((c) => c.loopMaxMs)),
    burstAfterMs: Math.max(...counts.map((c) => c.afterBurstMs)),
  }
}

const bcastCase = async (redis: RedisServer, n: number, nodeCount: number): Promise<string> => {
  const runs: Record<Mode, BcastRun[]> = { off: [], local: [], store: [] }
  let prefix = 0
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of ['local', 'store'] as const) {
      const modes = (server === 'local' ? (['off', 'local'] as const) : (['store'] as const)).filter((m) => MODES.has(m))
      if (modes.length === 0) continue
      await redis.cli('FLUSHALL')
      const name = `rb${++prefix}`
      const nodes: Node[] = []
      for (let i = 0; i < nodeCount; i++) nodes.push(await startNode(redis, name, `${name}-${i}`, server === 'store'))
      try {
        for (const mode of modes) {
          const clients: SessionClient[] = []
          for (const node of nodes) clients.push(...(await openClients(node.port, n / nodeCount, mode !== 'off')))
          await sleep(1000)
          const run = await measureBcast(redis, nodes, clients, mode)
          log(
            `bcast ${fmt(n, 0)} over ${nodeCount} (${mode}): single ${run.single.map((t) => t.toFixed(0)).join(', ')} ms, server ${fmt(run.singleServerMs)} ms CPU; ` +
              `burst ${fmt(run.burstMs, 0)} ms, journal done ${fmt(run.burstJournalMs, 0)} ms, frames ${fmt(run.burstFrames, 0)}/${fmt(run.burstExpected, 0)}, ` +
              `writes ${fmt(run.burstWrites, 0)} (slowest ${fmt(run.burstSlowestMs, 0)} ms), warnings ${run.burstWarnings}, event loop blocked up to ${fmt(run.burstLoopMs, 0)} ms (${fmt(run.burstAfterMs, 0)} after the burst's loop), Redis dataset +${fmt(run.burstRedisBytes / 1048576)} MiB (${fmt(run.redisBefore / 1048576)} before); load ${load()}`,
          )
          runs[mode].push(run)
          dropClients(clients)
          await sleep(500)
        }
      } finally {
        await stopNodes(nodes)
      }
      await sleep(500)
    }
  }
  const label: Record<Mode, string> = { off: 'recovery off (no `tp_v`): the floor', local: 'sessions in process (no store)', store: 'sessions in Redis (`redisRecoveryStore`)' }
  const modes = (['off', 'local', 'store'] as const).filter((m) => runs[m].length > 0)
  const m = (mode: Mode, f: (r: BcastRun) => number): number => median(runs[mode].map(f))
  const all = (mode: Mode, f: (r: BcastRun) => number[]): number[] => runs[mode].flatMap(f)
  const lines = [
    `### Broadcast to ${fmt(n, 0)} clients on ${nodeCount} node${nodeCount > 1 ? 's' : ''} (${nodeCount > 1 ? `${fmt(n / nodeCount, 0)} each, ` : ''}${ROUNDS} round${ROUNDS > 1 ? 's' : ''})`,
    '',
    `One broadcast (${REPEAT} per round; time from the trigger to the last receipt; CPU per broadcast, the journal's flush included):`,
    '',
    '| mode | median ms | min–max | servers CPU ms | Redis CPU ms | clients CPU ms | Redis scripts (adapter + journal) | journal writes | journal written after (ms) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...modes.map((mode) => {
      const s = all(mode, (r) => r.single)
      return `| ${label[mode]} | ${fmt(median(s))} | ${fmt(Math.min(...s), 0)}–${fmt(Math.max(...s), 0)} | ${fmt(m(mode, (r) => r.singleServerMs))} | ${fmt(m(mode, (r) => r.singleRedisMs), 2)} | ${fmt(m(mode, (r) => r.singleClientMs))} | ${fmt(m(mode, (r) => r.singleScripts), 0)} | ${mode === 'store' ? fmt(m(mode, (r) => r.singleWrites), 0) : ''} | ${mode === 'store' ? fmt(median(all(mode, (r) => r.singleJournalMs)), 0) : ''} |`
    }),
    '',
    `A burst of ${BURST} broadcasts back to back (one loop on the first node):`,
    '',
    '| mode | delivered to all (ms) | journal written after (ms) | servers CPU ms | Redis CPU ms | journal writes (`saveProgress`) | Redis scripts (adapter + journal) | Redis commands (inside scripts too) | Redis dataset | servers peak RSS | frames recorded / numbered | flushes | most writes in flight | slowest write ms | warnings logged | longest event-loop block (ms) | longest block after the burst loop (ms) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...modes.map((mode) => {
      const store = mode === 'store'
      return `| ${label[mode]} | ${fmt(m(mode, (r) => r.burstMs), 0)} | ${store ? fmt(m(mode, (r) => r.burstJournalMs), 0) : ''} | ${fmt(m(mode, (r) => r.burstServerMs), 0)} | ${fmt(m(mode, (r) => r.burstRedisMs), 0)} | ${store ? fmt(m(mode, (r) => r.burstWrites), 0) : ''} | ${fmt(m(mode, (r) => r.burstScripts), 0)} | ${fmt(m(mode, (r) => r.burstCommands), 0)} | +${fmt(m(mode, (r) => r.burstRedisBytes) / 1048576)} MiB | +${fmt(m(mode, (r) => r.burstPeakKiB) / 1024)} MiB | ${store ? `${fmt(m(mode, (r) => r.burstFrames), 0)} / ${fmt(m(mode, (r) => r.burstExpected), 0)}` : ''} | ${store ? fmt(m(mode, (r) => r.burstFlushes), 0) : ''} | ${store ? fmt(m(mode, (r) => r.burstMaxInFlight), 0) : ''} | ${store ? fmt(m(mode, (r) => r.burstSlowestMs), 0) : ''} | ${fmt(m(mode, (r) => r.burstWarnings), 0)} | ${fmt(m(mode, (r) => r.burstLoopMs), 0)} | ${fmt(m(mode, (r) => r.burstAfterMs), 0)} |`
    }),
    '',
  ]
  if (runs.store.length > 0) {
    const before = m('store', (r) => r.redisBefore)
    lines.push(
      `Redis dataset (\`used_memory_dataset\`) with the sessions in Redis, before the burst (after the connections and the single broadcasts): ${fmt(before / 1048576)} MiB, ${fmt(before / n / 1024, 2)} KiB per session. Frames recorded / numbered: what the journal handed to \`saveProgress\` against the numbered messages of the burst.`,
      '',
    )
  }
  if (runs.store.some((r) => r.burstFailed > 0)) lines.push(`Store writes that failed or timed out during the burst: ${runs.store.map((r) => r.burstFailed).join(', ')}.`, '')
  return lines.join('\n')
}

// ---- resume ------------------------------------------------------------------------------

const resumeCase = async (redis: RedisServer): Promise<string> => {
  const rows: string[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    await redis.cli('FLUSHALL')
    const prefix = `rr${round}`
    const a = await startNode(redis, prefix, `${prefix}-a`, true)
    const b = await startNode(redis, prefix, `${prefix}-b`, true)
    const probe = (await openClients(b.port, 1, false, true))[0] as SessionClient
    const clients = await openClients(a.port, K, true, true)
    try {
      await quietAll([a, b])
      await b.rpc({ op: 'tick', ms: TICK_MS })
      await sleep(1000)
      // Kill A `KILL_AT` ms after a tick reached its first client (below 0: at once).
      const lead = clients[0] as SessionClient
      if (KILL_AT >= 0) {
        const seen = lead.ticks.length
        const deadline = performance.now() + 5000
        while (lead.ticks.length === seen && performance.now() < deadline) await sleep(1)
        await sleep(KILL_AT)
      }
      const before = (await a.rpc<{ counts: StoreCounts }>({ op: 'counts' })).counts
      const maxBefore = Math.max(...clients.map((c) => c.ticks.at(-1) ?? 0))
      const info0 = await info(redis)
      const bCpu = cpuOf([b.pid])
      const redisCpu = cpuOf([redis.pid as number])
      const waitingFor = new Map<SessionClient, number>()
      let back = 0
      let caughtUp = 0
      let allBackAt = Number.NaN
      let allCaughtAt = Number.NaN
      const t0 = performance.now()
      const isCaught = (c: SessionClient): boolean => {
        const goal = waitingFor.get(c)
        if (goal === undefined) return false
        const have = new Set(c.ticks)
        for (let n = 1; n <= goal; n++) if (!have.has(n)) return false
        return true
      }
      const settled = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WAIT_MS)
        const check = (c: SessionClient): void => {
          if (!isCaught(c)) return
          waitingFor.delete(c)
          if (++caughtUp === K) {
            allCaughtAt = performance.now()
            clearTimeout(timer)
            resolve()
          }
        }
        hooks.session = (c) => {
          if (c === probe || c.sessions.length < 2) return
          // Caught up once it has every tick up to what B had sent when it came back; a
          // fresh session (resync) cannot get what came before it, and counts as done.
          waitingFor.set(c, c.sessions[1]?.recovered === true ? (probe.ticks.at(-1) ?? 0) : 0)
          if (++back === K) allBackAt = performance.now()
          check(c)
        }
        hooks.message = (c) => {
          if (waitingFor.has(c)) check(c)
        }
      })
      hooks.close = (c) => {
        if (c === probe) return
        const go = (): void => void resumeClient(c, b.port).catch((error: unknown) => log(`a resume failed: ${String(error)}`))
        if (SPREAD > 0) setTimeout(go, Math.random() * SPREAD)
        else go()
      }
      a.child.kill('SIGKILL')
      await settled
      hooks.close = () => undefined
      const bMs = bCpu.done()
      const redisMs = redisCpu.done()
      const delta = redisDelta(info0, await info(redis))
      await sleep(1000)
      const last = (await b.rpc<{ last: number }>({ op: 'tick', ms: 0 })).last
      const deadline = performance.now() + 10_000
      while (performance.now() < deadline && !clients.every((c) => c.ticks.includes(last))) await sleep(20)
      hooks.session = () => undefined
      hooks.message = () => undefined
      const recovered = clients.filter((c) => c.sessions[1]?.recovered === true)
      const fresh = clients.filter((c) => c.sessions[1] !== undefined && !c.sessions[1].recovered)
      const reasons = new Map<string, number>()
      for (const c of fresh) reasons.set(c.sessions[1]?.resync ?? 'none', (reasons.get(c.sessions[1]?.resync ?? 'none') ?? 0) + 1)
      const tally = (cs: readonly SessionClient[]) => sumTallies(cs.map((c) => tallyTicks(c.ticks, 1, last)))
      const ok = tally(recovered)
      const gone = tally(fresh)
      const times = clients.flatMap((c) => (c.sessions[1] === undefined ? [] : [c.sessions[1].at - t0]))
      const scripts = callsOf(delta, 'evalsha') + callsOf(delta, 'eval')
      const reads = callsOf(delta, 'xrange') + callsOf(delta, 'get') + callsOf(delta, 'exists') + callsOf(delta, 'xinfo')
      log(
        `resume round ${round}: all back ${fmt(allBackAt - t0, 0)} ms, caught up ${fmt(allCaughtAt - t0, 0)} ms, recovered ${recovered.length}, fresh ${fresh.length} ${JSON.stringify([...reasons])}, ` +
          `lost ${ok.lost}/${gone.lost}, duplicated ${ok.duplicated + gone.duplicated}; load ${load()}`,
      )
      rows.push(
        `| ${round} | ${fmt(K, 0)} | ${TICK_MS} / ${KILL_AT < 0 ? 'any time' : `${KILL_AT} ms after a tick`} | ${fmt(before.frames, 0)} in ${fmt(before.calls, 0)}; ${before.inFlight} | ${maxBefore} | ${fmt(allBackAt - t0, 0)} (median ${fmt(median(times), 0)}) | ${fmt(allCaughtAt - t0, 0)} | ` +
          `${recovered.length} | ${fresh.length === 0 ? '0' : `${fresh.length} (${[...reasons].map(([r, n]) => `${r} ${n}`).join(', ')})`} | ${last} | ${ok.lost} / ${ok.duplicated} / ${ok.outOfOrder} | ${gone.lost} / ${gone.duplicated} | ` +
          `${fmt(bMs, 0)} | ${fmt(redisMs, 0)} | ${fmt(scripts, 0)} scripts, ${fmt(reads, 0)} reads, ${fmt(delta.total, 0)} in all | ${load()} |`,
      )
    } finally {
      dropClients([...clients, probe])
      await stopNodes([a, b])
    }
    await sleep(500)
  }
  return [
    `### Resume of ${fmt(K, 0)} clients of a node killed with SIGKILL, on another node`,
    '',
    `A tick \`t\` {n} to the clients' room every ${TICK_MS} ms from node B; A killed ${KILL_AT < 0 ? 'at a random moment' : `${KILL_AT} ms after a tick reached its clients`}; every client reconnects to B ${SPREAD > 0 ? `within ${SPREAD} ms (random)` : 'at once'} with \`tp_sid\` and \`tp_last\`. "Caught up": a recovered client has every tick up to the last B had sent when its session came back (a fresh one counts at once). Lost / duplicated / out of order: over ticks 1…last, per client, added up.`,
    '',
    '| round | clients | tick ms / kill | journal of A before the kill (frames in writes since its start; writes in flight) | last tick before the kill | all back (ms after the kill) | all caught up (ms) | recovered | fresh sessions (resync) | last tick | recovered: lost / dup / out of order | fresh: lost / dup | B CPU ms | Redis CPU ms | Redis commands | load |',
    '|---:|---:|---|---|---:|---:|---:|---:|---|---:|---|---|---:|---:|---|---|',
    ...rows,
    '',
  ].join('\n')
}

// ---- run ---------------------------------------------------------------------------------

const loadAtStart = load()
const started = Date.now()
const redis = await processes.startRedis()
const sections: string[] = []
try {
  if (CASES.has('bcast')) for (const nodes of NODE_COUNTS) for (const n of CLIENT_COUNTS) sections.push(await bcastCase(redis, n, nodes))
  if (CASES.has('resume')) sections.push(await resumeCase(redis))
} finally {
  await redis.dispose()
}
const argv = process.argv.slice(2).join(' ')
const out = [
  `Generated by \`node --import tsx bench/recovery-store.ts${argv === '' ? '' : ` ${argv}`}\` on ${new Date().toISOString()} in ${Math.round((Date.now() - started) / 1000)} s. ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, redis-server ${/v=([\d.]+)/.exec(spawnSync('redis-server', ['--version']).stdout?.toString() ?? '')?.[1] ?? '?'} (started by the script, no persistence), load average at the start ${loadAtStart}, at the end ${load()}. Servers ${built ? 'compiled (tsc -p tsconfig.bench.json)' : 'run from source under tsx'}, ${processes.pinned ? 'pinned to CPU 0, clients and Redis to CPU 1' : 'not pinned'}.`,
  '',
  ...sections,
].join('\n')
mkdirSync('bench/.tmp', { recursive: true })
writeFileSync('bench/.tmp/recovery-store-results.md', out)
console.log(out)
process.exit(0)
