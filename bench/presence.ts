/**
 * Presence across two nodes on Redis (issue 28, "Measured"): twinport's `server.presence`
 * against presence as Socket.IO users write it (room membership in `lobby`, each change emitted
 * to a `watchers` room, the list through `fetchSockets()`, all on @socket.io/redis-adapter).
 * Two server processes per contender (bench/presence/*-node.ts) on one redis-server this script
 * starts; the clients (`ws`) are in this process. 127.0.0.1 only; every wait is bounded.
 *
 *   node --import tsx bench/presence.ts                          both contenders, 10,000 members
 *   node --import tsx bench/presence.ts --members 2000 --only twinport
 *
 * Measured, per contender:
 *   join     the members (half on each node) each send `join` at once: time until both nodes
 *            count every key (twinport: its view; Socket.IO: fetchSockets), and until every
 *            watcher has been told of every member
 *   order    twinport: node B's subscriber got node A's changes in the order A's own subscriber
 *            did, and the other way round
 *   memory   heap used per presence entry after a full GC (twinport: every node holds every
 *            entry, its own and a copy of the other's; Socket.IO: a node holds its own sockets'
 *            room membership and data only, the list is asked for)
 *   list     one read of the whole list on node A (median of 20)
 *   change   one member leaves or joins: time until every watcher (on both nodes) got it
 *            (median and max of --changes); over those changes, the CPU of both servers and
 *            of Redis per change (/proc ticks) and the Redis commands per change (INFO stats),
 *            figures that survive a loaded machine better than the wall time
 *   churn    --churn members (half on each node) leave and join again, all at once: time until
 *            every watcher got every change, and until both nodes count every key again; each
 *            key's changes in order (leave, then join) at every watcher
 */
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { cpus, loadavg, tmpdir } from 'node:os'
import WebSocket from 'ws'
import { createClient } from 'redis'
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { benchProcesses } from './bench-processes.js'
import type { ProbeReading } from './presence/node-probe.js'

const { values: opt } = parseArgs({
  options: {
    only: { type: 'string', default: 'twinport,socketio' },
    members: { type: 'string', default: '10000' },
    watchers: { type: 'string', default: '10' },
    changes: { type: 'string', default: '20' },
    churn: { type: 'string', default: '1000' },
    timeout: { type: 'string', default: '120000' },
    profile: { type: 'string' },
    // Counts each server's system calls over the single changes (`strace -c -f -p`): slows them, so the CPU figures of that run are not comparable.
    strace: { type: 'boolean', default: false },
  },
})
const MEMBERS = Number(opt.members)
const WATCHERS = Number(opt.watchers)
const CHANGES = Number(opt.changes)
const CHURN = Number(opt.churn)
const TIMEOUT = Number(opt.timeout)
const HOST = '127.0.0.1'

type Kind = 'twinport' | 'socketio'
const SCRIPT: Record<Kind, string> = { twinport: 'bench/presence/twinport-node.ts', socketio: 'bench/presence/socketio-node.ts' }
const LABEL: Record<Kind, string> = {
  twinport: 'twinport `server.presence` + twinport/redis',
  socketio: 'Socket.IO rooms + emits + `fetchSockets()`, @socket.io/redis-adapter',
}

const log = (line: string): void => console.error(`[presence-bench] ${line}`)
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : ((s[(s.length - 1) >> 1] as number) + (s[s.length >> 1] as number)) / 2
}
// The `q` quantile (nearest rank) of `xs`.
const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : (s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] as number)
}
const f = (x: number, digits = 1): string => (Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: digits }) : '—')
// Polls `check` every `every` ms until it holds; the time it took, or fails past TIMEOUT.
const until = async (what: string, check: () => boolean | Promise<boolean>, every = 20): Promise<number> => {
  const start = performance.now()
  while (!(await check())) {
    if (performance.now() - start > TIMEOUT) throw new Error(`${what}: not within ${TIMEOUT} ms`)
    await sleep(every)
  }
  return performance.now() - start
}

// ---- servers -----------------------------------------------------------------------------

// `--profile <dir>`: every server writes a CPU profile there (`--cpu-prof`) when stopped.
const processes = benchProcesses(opt.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', opt.profile])
interface Node {
  readonly id: string
  readonly child: ChildProcess
  readonly port: number
}
const startNode = (kind: Kind, id: string, redisUrl: string, prefix: string): Promise<Node> =>
  new Promise((resolve, reject) => {
    const child = processes.spawnNode(['--expose-gc', '--import', 'tsx', SCRIPT[kind]], {
      env: { ...process.env, HOST, PORT: '0', NODE_ID: id, REDIS_URL: redisUrl, PREFIX: prefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${kind} ${id} did not start:\n${out}`)), 60_000)
    const look = (chunk: Buffer): void => {
      out += chunk.toString()
      const port = /listening on (\d+)/.exec(out)?.[1]
      if (port === undefined) return
      clearTimeout(timer)
      resolve({ id, child, port: Number(port) })
    }
    child.stdout?.on('data', look)
    child.stderr?.on('data', look)
    child.once('exit', (code, signal) => {
      reject(new Error(`${kind} ${id} exited (${code}):\n${out}`))
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM') log(`${kind} ${id} exited (${code ?? signal}): ${out.slice(-2000)}`)
    })
  })
// A keep-alive connection the server closed as it was reused fails the fetch: asked again (3 tries).
const ask = async <A>(node: Node, path: string, tries = 3): Promise<A> => {
  try {
    return (await (await fetch(`http://${HOST}:${node.port}${path}`, { signal: AbortSignal.timeout(TIMEOUT) })).json()) as A
  } catch (error) {
    if (tries <= 1 || node.child.exitCode !== null) throw error
    log(`asking node ${node.id} ${path} again: ${String((error as Error).cause ?? error)}`)
    return ask(node, path, tries - 1)
  }
}

// ---- clients -----------------------------------------------------------------------------

/** A change a watcher was told of: `+key` or `-key`. */
type Change = string
interface Client {
  readonly ws: WebSocket
  /** Sends an event; resolves with its acknowledgement when `ack`. */
  send(event: string, data?: unknown, ack?: boolean): Promise<void>
  /** Every change told to this client (watchers only). */
  readonly changes: Change[]
}

// Twinport's envelope, or Socket.IO v4 over engine.io v4 (`40` to connect, `42[...]` events,
// `42<id>[...]` asking an ack that comes as `43<id>[...]`).
const open = (kind: Kind, port: number): Promise<Client> =>
  new Promise((resolve, reject) => {
    const path = kind === 'twinport' ? '/' : '/socket.io/?EIO=4&transport=websocket'
    const ws = new WebSocket(`ws://${HOST}:${port}${path}`, { perMessageDeflate: false })
    const acks = new Map<number, () => void>()
    const changes: Change[] = []
    let nextId = 1
    const client: Client = {
      ws,
      changes,
      send: (event, data, ack = false) => {
        const id = ack ? nextId++ : undefined
        const args = data === undefined ? [event] : [event, data]
        ws.send(kind === 'twinport' ? JSON.stringify({ event, ...(data === undefined ? {} : { data }), ...(id === undefined ? {} : { id }) }) : `42${id ?? ''}${JSON.stringify(args)}`)
        return id === undefined ? Promise.resolve() : new Promise((done) => acks.set(id, done))
      },
    }
    const told = (diff: { leaves?: { key: string }[]; joins?: { key: string }[]; left?: string[]; joined?: string[] }): void => {
      if (kind === 'twinport') {
        for (const c of diff.leaves ?? []) changes.push(`-${c.key}`)
        for (const c of diff.joins ?? []) changes.push(`+${c.key}`)
      } else {
        for (const k of diff.left ?? []) changes.push(`-${k}`)
        for (const k of diff.joined ?? []) changes.push(`+${k}`)
      }
    }
    ws.on('message', (raw) => {
      const text = String(raw)
      if (kind === 'twinport') {
        const m = JSON.parse(text) as { event: string; id?: number; data: never }
        if (m.event === 'ack' && m.id !== undefined) acks.get(m.id)?.()
        else if (m.event === 'presence_diff') told(m.data)
        return
      }
      if (text.startsWith('0')) return void ws.send('40')
      if (text.startsWith('40')) return resolve(client)
      if (text === '2') return void ws.send('3')
      const ack = /^43(\d+)/.exec(text)
      if (ack !== null) return void acks.get(Number(ack[1]))?.()
      if (text.startsWith('42')) {
        const [event, data] = JSON.parse(text.slice(2)) as [string, never]
        if (event === 'presence_diff') told(data)
      }
    })
    ws.once('open', () => kind === 'twinport' && resolve(client))
    ws.once('error', reject)
  })

// Opens `count` clients, `at` a time.
const openMany = async (kind: Kind, port: number, count: number, at = 250): Promise<Client[]> => {
  const all: Client[] = []
  for (let i = 0; i < count; i += at) all.push(...(await Promise.all(Array.from({ length: Math.min(at, count - i) }, () => open(kind, port)))))
  return all
}

// ---- one contender -----------------------------------------------------------------------

interface Result {
  readonly kind: Kind
  readonly joinConsistentMs: number
  readonly joinWatchersMs: number
  readonly inOrder: string
  readonly bytesPerEntry: number
  readonly entriesPerNode: number
  readonly listMs: number
  readonly changeMedianMs: number
  readonly changeP99Ms: number
  readonly changeMaxMs: number
  /** Per change, both servers' CPU from `process.cpuUsage` (ms; node-probe.ts). */
  readonly changeProbeCpuMs: number
  /** Over the single changes, on both servers: GC pauses, the longest one (and its kind), the longest event-loop delay. */
  readonly changeGcCount: number
  readonly changeGcMaxMs: number
  readonly changeGcMaxKind: number
  readonly changeLoopDelayMaxMs: number
  readonly changeLocalMs: number
  /** CPU of both servers per single change (ms), and of Redis. */
  readonly changeServerCpuMs: number
  readonly changeRedisCpuMs: number
  /** Redis commands per single change (both nodes' commands, heartbeats included). */
  readonly changeRedisCommands: number
  readonly churnWatchersMs: number
  readonly churnConsistentMs: number
  readonly churnInOrder: boolean
}

// Commands Redis has processed so far (each call is one more: INFO itself).
const redisCommands = async (redisUrl: string): Promise<number> => {
  const admin = createClient({ url: redisUrl })
  await admin.connect()
  try {
    return Number(/total_commands_processed:(\d+)/.exec(await admin.info('stats'))?.[1])
  } finally {
    await admin.close()
  }
}

// `strace -c -f -p <pid>` on one server from now until `done()`: its system calls by name.
const straceOf = (pid: number): { done(): Promise<Map<string, number>> } => {
  const dir = mkdtempSync(join(tmpdir(), 'presence-strace-'))
  const out = join(dir, 'calls.txt')
  const child = spawn('strace', ['-c', '-f', '-qq', '-o', out, '-p', String(pid)], { stdio: 'ignore' })
  return {
    done: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGINT')
      await exited
      const calls = new Map<string, number>()
      try {
        // Rows: % time, seconds, usecs/call, calls, [errors], syscall.
        for (const line of readFileSync(out, 'utf8').split('\n')) {
          const cols = line.trim().split(/\s+/)
          const name = cols[cols.length - 1] as string
          if (cols.length < 5 || !/^\d+$/.test(cols[3] as string) || name === 'total') continue
          calls.set(name, Number(cols[3]))
        }
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
      return calls
    },
  }
}

const runOne = async (kind: Kind, redisUrl: string, redisPid: number | undefined): Promise<Result> => {
  const prefix = `bench-presence-${kind}`
  const nodes = [await startNode(kind, 'a', redisUrl, prefix), await startNode(kind, 'b', redisUrl, prefix)] as const
  const clients: Client[] = []
  try {
    log(`${kind}: opening ${MEMBERS} members and ${WATCHERS} watchers`)
    const members = [...(await openMany(kind, nodes[0].port, MEMBERS / 2)), ...(await openMany(kind, nodes[1].port, MEMBERS / 2))]
    const watchers = [...(await openMany(kind, nodes[0].port, WATCHERS / 2)), ...(await openMany(kind, nodes[1].port, WATCHERS / 2))]
    clients.push(...members, ...watchers)
    await Promise.all(watchers.map((w) => w.send('watch', undefined, true)))
    const heap = async (): Promise<number[]> => Promise.all(nodes.map(async (n) => (await ask<{ heapUsed: number }>(n, '/bench/heap')).heapUsed))
    const before = await heap()

    // Join: every member at once; members 0..N/2-1 are on node a.
    log(`${kind}: join`)
    const start = performance.now()
    members.forEach((m, n) => void m.send('join', { key: `u${n}`, n }))
    // Socket.IO's count is a fetchSockets across the nodes, which may time out under load (503): not yet.
    const counts = async (): Promise<boolean> => (await Promise.all(nodes.map((n) => ask<{ count?: number }>(n, '/bench/count')))).every((c) => c.count === MEMBERS)
    const told = (w: Client, n: number): boolean => w.changes.length >= n
    let joinWatchersMs = Number.NaN
    let missed: unknown
    // What the watchers got, for a failure's message.
    const got = (): string => `watchers told of ${Math.min(...watchers.map((w) => w.changes.length))}–${Math.max(...watchers.map((w) => w.changes.length))} changes`
    const watched = until('every watcher told of every join', () => watchers.every((w) => told(w, MEMBERS))).then(
      () => void (joinWatchersMs = performance.now() - start),
      (error: unknown) => void (missed = new Error(`${String(error)}; ${got()}`)),
    )
    let lastCounts = ''
    const countsSeen = async (): Promise<boolean> => {
      const answers = await Promise.all(nodes.map((n) => ask<{ count?: number; error?: string }>(n, '/bench/count')))
      lastCounts = answers.map((a) => a.count ?? a.error).join(' / ')
      return answers.every((c) => c.count === MEMBERS)
    }
    await until('both nodes count every member', countsSeen, kind === 'twinport' ? 20 : 1000).catch((error: unknown) => {
      throw new Error(`${String(error)}; counts last seen ${lastCounts}; ${got()}`)
    })
    const joinConsistentMs = performance.now() - start
    await watched
    if (missed !== undefined) throw missed

    let inOrder = 'n/a (no view of its own)'
    if (kind === 'twinport') {
      const same = await Promise.all(
        nodes.map(async (origin) => {
          const [x, y] = await Promise.all(nodes.map((n) => ask<{ seq: string[] }>(n, `/bench/seq?node=${origin.id}`)))
          return x !== undefined && y !== undefined && x.seq.length === MEMBERS / 2 && JSON.stringify(x.seq) === JSON.stringify(y.seq)
        }),
      )
      inOrder = same.every(Boolean) ? 'yes' : 'NO'
    }
    const after = await heap()
    // twinport: each node holds every entry; Socket.IO: its own members only.
    const entriesPerNode = kind === 'twinport' ? MEMBERS : MEMBERS / 2
    const bytesPerEntry = median(after.map((a, i) => (a - (before[i] as number)) / entriesPerNode))
    const listMs = (await ask<{ ms: number }>(nodes[0], '/bench/list')).ms

    // One change at a time: a member of node a leaves, then joins again.
    log(`${kind}: ${CHANGES} single changes`)
    const latencies: number[] = []
    const local: number[] = [] // to node a's own watchers
    const serverCpu = processes.cpuOf(nodes.map((n) => n.child.pid as number))
    const redisCpu = processes.cpuOf(redisPid === undefined ? [] : [redisPid])
    const commandsBefore = await redisCommands(redisUrl)
    await Promise.all(nodes.map((n) => fetch(`http://${HOST}:${n.port}/bench/probe`, { method: 'POST' }).then((r) => r.arrayBuffer())))
    const traced = opt.strace ? nodes.map((n) => straceOf(n.child.pid as number)) : []
    if (traced.length > 0) await sleep(500) // strace attached to every thread
    for (let i = 0; i < CHANGES; i++) {
      const member = members[(i >> 1) % (MEMBERS / 2)] as Client // leaves, then joins again
      const have = watchers.map((w) => w.changes.length)
      const t0 = performance.now()
      const onA = watchers.slice(0, WATCHERS / 2)
      void until('node a\'s watchers told', () => onA.every((w, j) => w.changes.length > (have[j] as number)), 1).then(() => local.push(performance.now() - t0))
      await member.send('toggle', undefined, true)
      await until('every watcher told of one change', () => watchers.every((w, j) => w.changes.length > (have[j] as number)), 1)
      latencies.push(performance.now() - t0)
    }
    if (traced.length > 0) {
      const calls = await Promise.all(traced.map((t) => t.done()))
      calls.forEach((c, i) => {
        const total = [...c.values()].reduce((a, b) => a + b, 0)
        const top = [...c].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([name, n]) => `${name} ${f(n / CHANGES, 2)}`).join(', ')
        log(`${kind}: node ${nodes[i]?.id} system calls per change ${f(total / CHANGES, 2)}: ${top}`)
      })
    }
    // The INFO call after counts itself and the CONNECT/HELLO of its client: a few, not per change.
    const changeRedisCommands = ((await redisCommands(redisUrl)) - commandsBefore) / CHANGES
    const changeServerCpuMs = serverCpu.done() / CHANGES
    const changeRedisCpuMs = redisCpu.done() / CHANGES
    const probes = await Promise.all(nodes.map((n) => ask<ProbeReading>(n, '/bench/probe')))
    const longestGc = probes.reduce((a, b) => (b.gcMaxMs > a.gcMaxMs ? b : a))
    log(`${kind}: single changes to every watcher p50 ${f(median(latencies), 2)} p99 ${f(quantile(latencies, 0.99), 2)} max ${f(Math.max(...latencies), 2)} ms; to node a's: p50 ${f(median(local), 2)} max ${f(Math.max(...local), 2)} ms; servers' CPU ${probes.map((p) => f(p.cpuMs / CHANGES, 3)).join(' + ')} ms/change; GC ${probes.map((p) => `${p.gcCount} pauses, ${f(p.gcMs, 1)} ms, max ${f(p.gcMaxMs, 2)} (kind ${p.gcMaxKind})`).join(' / ')}; loop delay max ${probes.map((p) => f(p.loopDelayMaxMs, 1)).join(' / ')} ms; windows (µs) ${probes.map((p) => p.windowUs.join('–')).join(' / ')}`)
    // Back to every member present (an even number of toggles leaves them so).
    if (CHANGES % 2 === 1) await (members[((CHANGES - 1) >> 1) % (MEMBERS / 2)] as Client).send('toggle', undefined, true)
    await until('back to every member', counts, kind === 'twinport' ? 20 : 1000)

    // Churn: CHURN members, half on each node, leave and join again, all at once.
    log(`${kind}: churn of ${CHURN} members`)
    const churners = [...members.slice(0, CHURN / 2), ...members.slice(MEMBERS / 2, MEMBERS / 2 + CHURN / 2)]
    const mark = watchers.map((w) => w.changes.length)
    const churnStart = performance.now()
    for (const m of churners) {
      void m.send('toggle')
      void m.send('toggle')
    }
    await until('every watcher told of every churn change', () => watchers.every((w, j) => w.changes.length >= (mark[j] as number) + 2 * CHURN), 5)
    const churnWatchersMs = performance.now() - churnStart
    await until('both nodes count every member after the churn', counts, kind === 'twinport' ? 20 : 1000)
    const churnConsistentMs = performance.now() - churnStart
    // At every watcher, each churned key went away and came back, in that order.
    const churnInOrder = watchers.every((w, j) => {
      const byKey = new Map<string, string>()
      for (const c of w.changes.slice(mark[j])) byKey.set(c.slice(1), (byKey.get(c.slice(1)) ?? '') + c[0])
      return [...byKey.values()].every((s) => /^(-\+)+$/.test(s))
    })
    return {
      kind,
      joinConsistentMs,
      joinWatchersMs,
      inOrder,
      bytesPerEntry,
      entriesPerNode,
      listMs,
      changeMedianMs: median(latencies),
      changeP99Ms: quantile(latencies, 0.99),
      changeMaxMs: Math.max(...latencies),
      changeProbeCpuMs: probes.reduce((sum, p) => sum + p.cpuMs, 0) / CHANGES,
      changeGcCount: probes.reduce((sum, p) => sum + p.gcCount, 0),
      changeGcMaxMs: longestGc.gcMaxMs,
      changeGcMaxKind: longestGc.gcMaxKind,
      changeLoopDelayMaxMs: Math.max(...probes.map((p) => p.loopDelayMaxMs)),
      changeLocalMs: median(local),
      changeServerCpuMs,
      changeRedisCpuMs,
      changeRedisCommands,
      churnWatchersMs,
      churnConsistentMs,
      churnInOrder,
    }
  } finally {
    for (const c of clients) c.ws.terminate()
    await processes.stop(nodes.map((n) => n.child))
  }
}

// ---- main --------------------------------------------------------------------------------

const kinds = (opt.only ?? '').split(',').filter((k): k is Kind => k === 'twinport' || k === 'socketio')
const load = loadavg().map((l) => l.toFixed(2)).join(' ')
const redis = await processes.startRedis()
const results: Result[] = []
const failures: string[] = []
try {
  for (const kind of kinds) {
    try {
      results.push(await runOne(kind, redis.url, redis.pid))
    } catch (error) {
      log(`${kind}: failed: ${String(error)}`)
      failures.push(`${LABEL[kind]}: did not finish: ${String(error).split('\n')[0]}`)
    }
  }
} finally {
  await redis.dispose()
}
const twin = results.find((r) => r.kind === 'twinport')
const ratio = (r: Result, pick: (r: Result) => number): string => (twin === undefined || r === twin ? '' : ` (${f(pick(r) / pick(twin), 1)}×)`)
const at = (when: string): string => `${when} ${loadavg().map((l) => l.toFixed(2)).join(' ')}`
const lines = [
  `${MEMBERS.toLocaleString('en-US')} members (${(MEMBERS / 2).toLocaleString('en-US')} on each of 2 nodes), ${WATCHERS} watchers (half on each node), churn of ${CHURN.toLocaleString('en-US')} members; ${cpus().length} CPUs, load average at start ${load}${processes.pinned ? '; servers pinned to CPU 0, Redis and the clients to CPU 1' : ''}. In brackets: the peer's figure as a multiple of twinport's (higher is slower).`,
  '',
  '| contender | join: both nodes count all (ms) | join: every watcher told (ms) | diffs in each node\'s order on the other | heap per entry (B) | entries held per node | list on node A (ms) | one change to the watchers on its node, median (ms) | one change to every watcher, median / max (ms) | churn: every watcher told (ms) | churn: both nodes count all (ms) | churn in order at every watcher |',
  '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ...results.map(
    (r) =>
      `| ${LABEL[r.kind]} | ${f(r.joinConsistentMs, 0)}${ratio(r, (x) => x.joinConsistentMs)} | ${f(r.joinWatchersMs, 0)}${ratio(r, (x) => x.joinWatchersMs)} | ${r.inOrder} | ${f(r.bytesPerEntry, 0)} | ${r.entriesPerNode.toLocaleString('en-US')} | ${f(r.listMs, 2)}${ratio(r, (x) => x.listMs)} | ${f(r.changeLocalMs, 2)} | ${f(r.changeMedianMs, 2)} / ${f(r.changeMaxMs, 1)}${ratio(r, (x) => x.changeMedianMs)} | ${f(r.churnWatchersMs, 0)}${ratio(r, (x) => x.churnWatchersMs)} | ${f(r.churnConsistentMs, 0)}${ratio(r, (x) => x.churnConsistentMs)} | ${r.churnInOrder ? 'yes' : 'NO'} |`,
  ),
  '',
  `One change (${CHANGES} in a row, a member of node A leaving or joining again), what it costs: CPU from /proc (10 ms ticks, summed over the changes, then divided); Redis commands from INFO (heartbeats and digests over the same time included). Load average ${at('at the end')}.`,
  '',
  '| contender | one change to every watcher, p50 / p99 / max (ms) | servers\' CPU per change, both nodes: process.cpuUsage (ms) | same, /proc ticks (ms) | GC pauses over the changes (both nodes), longest (ms, kind) | longest event-loop delay (ms) | Redis CPU per change (ms) | Redis commands per change |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${LABEL[r.kind]} | ${f(r.changeMedianMs, 2)} / ${f(r.changeP99Ms, 2)} / ${f(r.changeMaxMs, 2)}${ratio(r, (x) => x.changeMedianMs)} | ${f(r.changeProbeCpuMs, 3)}${ratio(r, (x) => x.changeProbeCpuMs)} | ${f(r.changeServerCpuMs, 2)} | ${r.changeGcCount}, ${f(r.changeGcMaxMs, 2)} (${r.changeGcMaxKind}) | ${f(r.changeLoopDelayMaxMs, 1)} | ${f(r.changeRedisCpuMs, 2)}${ratio(r, (x) => x.changeRedisCpuMs)} | ${f(r.changeRedisCommands, 1)}${ratio(r, (x) => x.changeRedisCommands)} |`,
  ),
]
console.log([...lines, ...failures.map((f) => `\n${f}`)].join('\n'))
process.exit(0)
