/**
 * What one presence change costs a node as the topic grows (session 13): two `PresenceHub`s
 * (lib/engine/presence/presence-hub.ts) joined in this process, node A with `--members`
 * entries of its own and node B holding its copy, each with 5 watchers in the topic's room.
 * One change = a member of A leaves or joins again: A's flush, its delta told to B (as JSON
 * text and back, as Redis would carry it), B's apply, and both nodes' diffs encoded for
 * their watchers. Reported per change: CPU time (`process.cpuUsage`, µs) at each size in the
 * same run, so a cost that grows with the member count shows as a ratio against the smallest,
 * and the p50 / p99 / max of one change's time. No sockets, no Redis: the engine's part only.
 *
 *   node --import tsx bench/presence-change.ts                          100, 1,000, 10,000, 100,000 members
 *   node --import tsx bench/presence-change.ts --sizes 10000 --changes 20000
 */
import { parseArgs } from 'node:util'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { silentLogger } from '../lib/core/log/silent-logger.js'
import type { ClusterAdapter } from '../lib/engine/cluster/cluster-adapter.js'
import { PresenceHub } from '../lib/engine/presence/presence-hub.js'
import type { TimerId, Timers } from '../lib/engine/platform.js'

const { values: opt } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000,10000,100000' },
    changes: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
  },
})
const SIZES = (opt.sizes ?? '').split(',').map(Number)
const CHANGES = Number(opt.changes)
const ROUNDS = Number(opt.rounds)
const WATCHERS = 5

// Timers of a bench: `afterIo` runs when `turn()` is called (the end of a change's turn); no intervals.
const benchTimers = (): Timers & { turn(): void } => {
  let later: (() => void)[] = []
  return {
    now: () => Date.now(),
    setTimeout: () => 0 as unknown as TimerId,
    clearTimeout: () => undefined,
    setInterval: () => 0 as unknown as TimerId,
    clearInterval: () => undefined,
    afterIo: (run) => void later.push(run),
    turn: () => {
      const runs = later
      later = []
      for (const run of runs) run()
    },
  }
}

interface Node {
  readonly hub: PresenceHub
  readonly timers: Timers & { turn(): void }
  readonly handler: (data: unknown, from: string) => unknown
}

// Two hubs told each other's messages as JSON text (what crosses Redis), answered in order.
const pair = (): { a: Node; b: Node } => {
  const nodes = new Map<string, Node>()
  const make = (id: string, other: string): Node => {
    const timers = benchTimers()
    const adapter: ClusterAdapter = {
      nodeId: id,
      attach: () => undefined,
      publish: () => undefined,
      sendTo: () => undefined,
      request: async () => ({ replies: [], missingNodes: [] }),
      tell: (body) => {
        const target = nodes.get(other) as Node
        const { data } = JSON.parse(JSON.stringify(body)) as { data: unknown }
        target.handler(data, id)
      },
      roomOpened: () => undefined,
      roomClosed: () => undefined,
      namespaceOpened: () => undefined,
      namespaceClosed: () => undefined,
      close: async () => undefined,
    }
    const sent = { n: 0 }
    let handler: (data: unknown, from: string) => unknown = () => undefined
    const node: Node = {
      timers,
      handler: (data, from) => handler(data, from),
      hub: new PresenceHub({
        adapter,
        on: (_event, h) => void (handler = h),
        isClient: () => true,
        // Each watcher's frame encoded on its own, as `ops.send` does.
        sendToRoom: (_room, event, data) => {
          for (let w = 0; w < WATCHERS; w++) sent.n += JSON.stringify({ event, data }).length
        },
        timers,
        logger: silentLogger,
      }),
    }
    nodes.set(id, node)
    return node
  }
  return { a: make('a', 'b'), b: make('b', 'a') }
}

// One size: the members joined (not measured), then CHANGES single changes (measured).
const runSize = (members: number): { cpuUsPerChange: number; p50: number; p99: number; max: number } => {
  const { a, b } = pair()
  const lobbyA = a.hub.topic('lobby', { event: 'presence_diff' })
  const lobbyB = b.hub.topic('lobby', { event: 'presence_diff' })
  // Node A's first delta is of its epoch from n = 0: B takes it whole (no fetch needed).
  for (let i = 0; i < members; i++) lobbyA.track(i + 1, `u${i}`, { n: i })
  a.timers.turn()
  if (lobbyB.count() !== members) throw new Error(`b counts ${lobbyB.count()} of ${members}`)
  const times: number[] = []
  const present = new Set<number>(Array.from({ length: members }, (_, i) => i + 1))
  const cpu = process.cpuUsage()
  for (let c = 0; c < CHANGES; c++) {
    const conn = ((c >> 1) % members) + 1
    const t0 = performance.now()
    if (present.delete(conn)) lobbyA.untrack(conn)
    else {
      present.add(conn)
      lobbyA.track(conn, `u${conn - 1}`, { n: conn - 1 })
    }
    a.timers.turn()
    times.push(performance.now() - t0)
  }
  const used = process.cpuUsage(cpu)
  if (lobbyB.count() !== lobbyA.count()) throw new Error('b fell behind')
  a.hub.close()
  b.hub.close()
  times.sort((x, y) => x - y)
  const at = (q: number): number => (times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] as number) * 1000
  return { cpuUsPerChange: (used.user + used.system) / CHANGES, p50: at(0.5), p99: at(0.99), max: (times[times.length - 1] as number) * 1000 }
}

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ')
console.log(`${CHANGES.toLocaleString('en-US')} changes per size, ${ROUNDS} interleaved rounds (median of the rounds), ${WATCHERS} watchers per node; load average at start ${load()}`)
console.log('')
console.log('| members | CPU per change, both nodes (µs) | × the smallest | one change p50 / p99 / max (µs) |')
console.log('|---:|---:|---:|---:|')
const perSize = new Map<number, ReturnType<typeof runSize>[]>()
for (let round = 0; round < ROUNDS; round++) for (const size of SIZES) perSize.set(size, [...(perSize.get(size) ?? []), runSize(size)])
const mid = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number
const base = mid((perSize.get(SIZES[0] as number) ?? []).map((r) => r.cpuUsPerChange))
for (const size of SIZES) {
  const runs = perSize.get(size) ?? []
  const cpu = mid(runs.map((r) => r.cpuUsPerChange))
  console.log(`| ${size.toLocaleString('en-US')} | ${cpu.toFixed(1)} | ${(cpu / base).toFixed(2)}× | ${mid(runs.map((r) => r.p50)).toFixed(1)} / ${mid(runs.map((r) => r.p99)).toFixed(1)} / ${mid(runs.map((r) => r.max)).toFixed(0)} |`)
}
console.log('')
console.log(`Load average at the end ${load()}.`)
