/**
 * Scale-out benchmarks (issue 11): twinport with `twinport/redis` against Socket.IO with
 * `@socket.io/redis-adapter`, both on one real redis-server this script starts, both
 * serving the `/bcast` room of the echo contract (DESIGN §4). Every server is a child
 * process; the clients are lean raw-socket WebSocket clients in this process (the dialects
 * of bench/load/dialect.ts). Targets 127.0.0.1 only; each case is bounded in time.
 *
 *   node --import tsx bench/cluster.ts                   every case, writes bench/.tmp/cluster-results.md
 *   node --import tsx bench/cluster.ts --only bcast,rate --clients 10000 --repeat 5
 *   node --import tsx bench/cluster.ts --only bcast --profile bench/.tmp/prof   servers write V8 CPU profiles there
 *
 * Cases:
 *   bcast   one message to N clients spread over 2 server processes (N/2 each): time from
 *           the send to the last receipt, median of --repeat (twinport vs Socket.IO), and
 *           the floor (bench/cluster/floor-node.ts: bare node:net writes and one PUBLISH)
 *   rate    room broadcasts across 2 processes, 100 room members on each, senders on one:
 *           messages delivered to clients per second over --ms (twinport vs Socket.IO)
 *   local   the Redis adapter against the in-process one on a single node: bcast to N/2
 *           clients and rate with 200 members (twinport only)
 *   memory  server RSS per idle client (10,000 clients, from a base of 500), with and without the adapter
 */
import { type ChildProcess, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { type Dialect, plainWs, socketIo } from './load/dialect.js'
import { processRssBytes } from './load/proc.js'
import { afterUpgradeAnswer, maskedFrame, OPCODE, scanFrames } from './load/ws-frames.js'
import type { RedisServer } from '../spec/support/redis.js'
import { benchProcesses } from './bench-processes.js'

const { values: opt } = parseArgs({
  options: {
    only: { type: 'string', default: 'bcast,rate,local,memory' },
    clients: { type: 'string', default: '10000' },
    repeat: { type: 'string', default: '5' },
    ms: { type: 'string', default: '5000' },
    idle: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '2' },
    profile: { type: 'string' },
  },
})
const CASES = new Set((opt.only ?? '').split(','))
const N = Number(opt.clients)
const REPEAT = Number(opt.repeat)
const RATE_MS = Number(opt.ms)
const IDLE = Number(opt.idle)
const BASE = 500
// Contenders are interleaved (A B, A B, …) over this many rounds; figures are medians over all runs.
const ROUNDS = Math.max(1, Number(opt.rounds))
const HOST = '127.0.0.1'
const KEY = new Uint8Array([0x37, 0xfa, 0x21, 0x3d])
const PAYLOAD = 'twinport-bench-0123456789abcdef' // 32 bytes

type Kind = 'twinport' | 'socketio' | 'floor'
const SCRIPT: Record<Kind, string> = { twinport: 'bench/cluster/twinport-node.ts', socketio: 'bench/cluster/socketio-node.ts', floor: 'bench/cluster/floor-node.ts' }
const DIALECT: Record<Kind, Dialect> = { twinport: plainWs, socketio: socketIo, floor: plainWs }
const LABEL: Record<Kind, string> = {
  twinport: 'twinport + twinport/redis',
  socketio: 'Socket.IO + @socket.io/redis-adapter',
  floor: 'floor: bare node:net writes + one PUBLISH',
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : ((s[(s.length - 1) >> 1] as number) + (s[s.length >> 1] as number)) / 2
}
const log = (line: string): void => console.error(`[cluster-bench] ${line}`)

// ---- servers -----------------------------------------------------------------------------

interface Node {
  readonly child: ChildProcess
  readonly port: number
}
// --profile DIR: each server process writes a V8 CPU profile (.cpuprofile) there when stopped.
const PROFILE: readonly string[] = opt.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', opt.profile]
const processes = benchProcesses(PROFILE)

const startNode = (kind: Kind, adapter: 'redis' | 'local', redis: RedisServer, prefix: string): Promise<Node> =>
  new Promise((resolve, reject) => {
    // Servers on CPU 0, the clients (this process) and Redis on CPU 1, as bench/run.ts pins.
    const child = processes.spawnNode(['--import', 'tsx', SCRIPT[kind]], {
      env: { ...process.env, HOST, PORT: '0', ADAPTER: adapter, REDIS_URL: redis.url, PREFIX: prefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${kind} did not start:\n${out}`)), 30_000)
    const look = (chunk: Buffer): void => {
      out += chunk.toString()
      const port = /listening on (\d+)/.exec(out)?.[1]
      if (port !== undefined) {
        clearTimeout(timer)
        resolve({ child, port: Number(port) })
      }
    }
    child.stdout?.on('data', look)
    child.stderr?.on('data', look)
  })

const stopNodes = (nodes: readonly Node[]): Promise<void> => processes.stop(nodes.map((n) => n.child))

// ---- clients -----------------------------------------------------------------------------

interface Client {
  readonly socket: Socket
  state: 'handshake' | 'preamble' | 'open'
  pending: Buffer | null
  preambleLeft: number
  received: number
}

let onReceive: (c: Client, n: number) => void = () => undefined
const SHARED = Buffer.allocUnsafe(256 * 1024)

const receive = (c: Client, dialect: Dialect, ready: (ok: boolean) => void, chunk: Buffer): void => {
  let buf = c.pending === null ? chunk : Buffer.concat([c.pending, chunk])
  c.pending = null
  if (c.state === 'handshake') {
    const rest = afterUpgradeAnswer(buf)
    if (rest === undefined) return void (c.pending = Buffer.from(buf))
    if (rest === false) return ready(false)
    buf = rest
    c.state = c.preambleLeft > 0 ? 'preamble' : 'open'
    if (c.state === 'open') ready(true)
  }
  const scan = scanFrames(buf, c.state === 'preamble' ? () => {
    if (c.preambleLeft === dialect.preambleFrames) {
      const greet = dialect.greet('bcast')
      if (greet !== undefined) c.socket.write(maskedFrame(OPCODE.text, new TextEncoder().encode(greet), KEY))
    }
    if (c.preambleLeft > 0) c.preambleLeft -= 1
    else c.received += 1
  } : undefined)
  if (scan.consumed < buf.length) c.pending = Buffer.from(buf.subarray(scan.consumed))
  if (c.state === 'preamble') {
    if (c.preambleLeft === 0) {
      c.state = 'open'
      ready(true)
    }
    return
  }
  if (scan.messages > 0) {
    c.received += scan.messages
    onReceive(c, scan.messages)
  }
}

const openOne = (port: number, dialect: Dialect, path: string): Promise<Client> =>
  new Promise((resolve, reject) => {
    const socket = connect({
      host: HOST,
      port,
      noDelay: true,
      onread: {
        buffer: SHARED,
        callback: (n, buf) => {
          receive(c, dialect, ready, (buf as Buffer).subarray(0, n))
          return true
        },
      },
    })
    const c: Client = { socket, state: 'handshake', pending: null, preambleLeft: dialect.preambleFrames, received: 0 }
    const ready = (ok: boolean): void => (ok ? resolve(c) : reject(new Error('handshake refused')))
    socket.on('connect', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${HOST}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    )
    socket.on('error', reject)
  })

const openMany = async (port: number, dialect: Dialect, n: number, path = dialect.path('bcast')): Promise<Client[]> => {
  const out: Client[] = []
  for (let i = 0; i < n; i += 200) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(200, n - i) }, () => openOne(port, dialect, path)))))
  }
  return out
}
const closeAll = (clients: readonly Client[]): void => {
  for (const c of clients) c.socket.destroy()
}
const message = (dialect: Dialect): Uint8Array => maskedFrame(OPCODE.text, new TextEncoder().encode(dialect.wrap('bcast', PAYLOAD)), KEY)

// ---- cases -------------------------------------------------------------------------------

const cpuOf = processes.cpuOf
const pidsOf = (nodes: readonly Node[]): number[] => nodes.map((n) => n.child.pid as number)

/**
 * Time from one send to the last of `clients` receiving it, `REPEAT` times; and the CPU this
 * process (the clients) used meanwhile, per broadcast, to see whether the clients are the bottleneck.
 */
const broadcastTimes = async (clients: readonly Client[], sender: Client, dialect: Dialect): Promise<number[] & { clientMs?: number }> => {
  const frame = message(dialect)
  const times: number[] & { clientMs?: number } = []
  let clientUs = 0
  for (let r = 0; r < REPEAT; r++) {
    await sleep(300)
    let waiting = clients.length
    const done = new Promise<number>((resolve) => {
      const seen = new Set<Client>()
      onReceive = (c) => {
        if (seen.has(c)) return
        seen.add(c)
        waiting -= 1
        if (waiting === 0) resolve(performance.now())
      }
    })
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    sender.socket.write(frame)
    const t1 = await Promise.race([done, sleep(10_000).then(() => Number.NaN)])
    const cpu = process.cpuUsage(cpu0)
    clientUs += cpu.user + cpu.system
    if (Number.isNaN(t1)) log(`a broadcast did not reach ${waiting} clients within 10 s`)
    times.push(t1 - t0)
  }
  onReceive = () => undefined
  times.clientMs = clientUs / 1000 / REPEAT
  return times
}

/**
 * Room broadcasts sent from `senders` as fast as the slowest receiver allows (at most
 * `WINDOW` broadcasts ahead of the least advanced member): deliveries per second.
 */
const WINDOW = 64
const deliveryRate = async (
  members: readonly Client[],
  senders: readonly Client[],
  dialect: Dialect,
  pids: readonly number[],
): Promise<{ perSecond: number; broadcasts: number; deliveries: number; cpuMs: number[] }> => {
  const frame = message(dialect)
  let sent = 0
  let next = 0
  const base = new Map(members.map((c) => [c, c.received]))
  const progress = (): number => {
    let least = Number.POSITIVE_INFINITY
    for (const c of members) least = Math.min(least, c.received - (base.get(c) ?? 0))
    return least
  }
  let measuring = false
  let delivered = 0
  const pump = (): void => {
    const least = progress()
    while (sent - least < WINDOW) {
      ;(senders[next++ % senders.length] as Client).socket.write(frame)
      sent += 1
    }
  }
  let pumping = false
  onReceive = (_c, n) => {
    if (measuring) delivered += n
    if (!pumping) {
      pumping = true
      setImmediate(() => {
        pumping = false
        pump()
      })
    }
  }
  pump()
  await sleep(1000) // warm-up
  measuring = true
  const sentBefore = sent
  const cpu = pids.map((pid) => cpuOf([pid]))
  const t0 = performance.now()
  await sleep(RATE_MS)
  const seconds = (performance.now() - t0) / 1000
  const cpuMs = cpu.map((c) => c.done())
  measuring = false
  onReceive = () => undefined
  await sleep(500)
  return { perSecond: delivered / seconds, broadcasts: (sent - sentBefore) / seconds, deliveries: delivered, cpuMs }
}

interface Row {
  readonly label: string
  readonly value: number
  readonly detail: string
}
const sections: string[] = []
const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : 'n/a')
const table = (title: string, target: string, unit: string, rows: readonly Row[], reference: number): void => {
  const lines = [
    `### ${title}`,
    '',
    target,
    '',
    `| contender | ${unit} | vs reference | runs |`,
    '|---|---:|---:|---|',
    ...rows.map((r) => `| ${r.label} | ${fmt(r.value)} | ${fmt(r.value / reference, 2)}× | ${r.detail} |`),
    '',
  ]
  sections.push(lines.join('\n'))
  console.error(lines.join('\n'))
}

const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(' ')
const redis = await processes.startRedis()
const started = Date.now()
let prefixes = 0
try {
  if (CASES.has('bcast')) {
    const kinds = ['twinport', 'socketio', 'floor'] as const
    const all: Record<Kind, { times: number[]; serverMs: number[]; redisMs: number[]; clientMs: number[] }> = {
      twinport: { times: [], serverMs: [], redisMs: [], clientMs: [] },
      socketio: { times: [], serverMs: [], redisMs: [], clientMs: [] },
      floor: { times: [], serverMs: [], redisMs: [], clientMs: [] },
    }
    for (let round = 0; round < ROUNDS; round++) for (const kind of kinds) {
      const nodes = [await startNode(kind, 'redis', redis, `p${++prefixes}`), await startNode(kind, 'redis', redis, `p${prefixes}`)]
      const dialect = DIALECT[kind]
      const clients = [...(await openMany((nodes[0] as Node).port, dialect, N / 2)), ...(await openMany((nodes[1] as Node).port, dialect, N / 2))]
      await sleep(1000)
      const servers = cpuOf(pidsOf(nodes))
      const redisCpu = cpuOf([redis.pid as number])
      const times = await broadcastTimes(clients, clients[0] as Client, dialect)
      const serverMs = servers.done() / REPEAT
      const redisMs = redisCpu.done() / REPEAT
      const clientMs = times.clientMs ?? Number.NaN
      log(`bcast ${kind}: ${times.map((t) => t.toFixed(1)).join(', ')} ms; CPU per broadcast: servers ${serverMs.toFixed(1)} ms, Redis ${redisMs.toFixed(2)} ms, clients ${clientMs.toFixed(1)} ms; load ${loadavg()[0]?.toFixed(2)}`)
      all[kind].clientMs.push(clientMs)
      all[kind].times.push(...times)
      all[kind].serverMs.push(serverMs)
      all[kind].redisMs.push(redisMs)
      closeAll(clients)
      await stopNodes(nodes)
      await sleep(1000)
    }
    const rows: Row[] = kinds.map((kind) => ({
      label: LABEL[kind],
      value: median(all[kind].times),
      detail: `min–max ${fmt(Math.min(...all[kind].times), 0)}–${fmt(Math.max(...all[kind].times), 0)} ms over ${all[kind].times.length}; CPU per broadcast: servers ${fmt(median(all[kind].serverMs))} ms, Redis ${fmt(median(all[kind].redisMs), 2)} ms, clients ${fmt(median(all[kind].clientMs))} ms`,
    }))
    table(
      `Broadcast to ${fmt(N, 0)} clients over 2 processes (time from the send to the last receipt, ms)`,
      'Target: twinport ≤ 0.5× Socket.IO + @socket.io/redis-adapter. Median of the runs. The floor is what any Node server pays at least (one write per socket, one PUBLISH); CPU per broadcast of the servers is from /proc, of the clients (this process) from process.cpuUsage().',
      'median ms',
      rows,
      (rows[1] as Row).value,
    )
  }

  if (CASES.has('rate')) {
    const runs: Record<'twinport' | 'socketio', { perSecond: number[]; broadcasts: number[]; serverUs: number[]; redisUs: number[] }> = {
      twinport: { perSecond: [], broadcasts: [], serverUs: [], redisUs: [] },
      socketio: { perSecond: [], broadcasts: [], serverUs: [], redisUs: [] },
    }
    for (let round = 0; round < ROUNDS; round++) for (const kind of ['twinport', 'socketio'] as const) {
      const nodes = [await startNode(kind, 'redis', redis, `p${++prefixes}`), await startNode(kind, 'redis', redis, `p${prefixes}`)]
      const dialect = DIALECT[kind]
      const onA = await openMany((nodes[0] as Node).port, dialect, 100)
      const onB = await openMany((nodes[1] as Node).port, dialect, 100)
      await sleep(1000)
      const rate = await deliveryRate([...onA, ...onB], onA.slice(0, 4), dialect, [...pidsOf(nodes), redis.pid as number])
      const [serverUs, redisUs] = [rate.cpuMs.slice(0, 2).reduce((a, b) => a + b, 0), rate.cpuMs[2] ?? Number.NaN].map((ms) => (ms * 1000) / rate.deliveries)
      log(`rate ${kind}: ${fmt(rate.perSecond)} deliveries/s, ${fmt(rate.broadcasts)} broadcasts/s, servers ${fmt(serverUs as number, 2)} µs, Redis ${fmt(redisUs as number, 2)} µs CPU per delivery`)
      runs[kind].perSecond.push(rate.perSecond)
      runs[kind].broadcasts.push(rate.broadcasts)
      runs[kind].serverUs.push(serverUs as number)
      runs[kind].redisUs.push(redisUs as number)
      closeAll([...onA, ...onB])
      await stopNodes(nodes)
      await sleep(500)
    }
    const rows: Row[] = (['twinport', 'socketio'] as const).map((kind) => ({
      label: LABEL[kind],
      value: median(runs[kind].perSecond),
      detail: `runs ${runs[kind].perSecond.map((v) => fmt(v, 0)).join(', ')}; ${fmt(median(runs[kind].broadcasts))} broadcasts/s; CPU per delivery: servers ${fmt(median(runs[kind].serverUs), 2)} µs, Redis ${fmt(median(runs[kind].redisUs), 2)} µs`,
    }))
    table(
      'Room broadcasts across 2 processes (messages delivered to clients per second)',
      'Target: twinport ≥ 3× Socket.IO + @socket.io/redis-adapter. 100 room members on each process, 4 senders on the first, at most 64 broadcasts ahead of the slowest member, 32-byte messages.',
      'deliveries/s',
      rows,
      (rows[1] as Row).value,
    )
  }

  if (CASES.has('local')) {
    const bcastRows: Row[] = []
    const rateRows: Row[] = []
    for (const adapter of ['local', 'redis'] as const) {
      const node = await startNode('twinport', adapter, redis, `p${++prefixes}`)
      const clients = await openMany(node.port, plainWs, N / 2)
      await sleep(1000)
      const server = cpuOf(pidsOf([node]))
      const times = await broadcastTimes(clients, clients[0] as Client, plainWs)
      const serverMs = server.done() / REPEAT
      closeAll(clients)
      const members = await openMany(node.port, plainWs, 200)
      await sleep(500)
      const rate = await deliveryRate(members, members.slice(0, 4), plainWs, pidsOf([node]))
      const serverUs = ((rate.cpuMs[0] ?? Number.NaN) * 1000) / rate.deliveries
      closeAll(members)
      await stopNodes([node])
      const label = adapter === 'local' ? 'twinport, in-process (default)' : 'twinport + twinport/redis'
      log(`local ${adapter}: bcast ${times.map((t) => t.toFixed(1)).join(', ')} ms; rate ${fmt(rate.perSecond)}/s`)
      bcastRows.push({ label, value: median(times), detail: `${times.map((t) => t.toFixed(0)).join(', ')} ms; server CPU per broadcast ${fmt(serverMs)} ms` })
      rateRows.push({ label, value: rate.perSecond, detail: `${fmt(rate.broadcasts)} broadcasts/s; server CPU per delivery ${fmt(serverUs, 2)} µs` })
    }
    table(
      `Adapter overhead on one node: broadcast to ${fmt(N / 2, 0)} clients (ms)`,
      'Reported: the Redis adapter against the in-process one, same process, same clients.',
      'median ms',
      bcastRows,
      (bcastRows[0] as Row).value,
    )
    table(
      'Adapter overhead on one node: room broadcasts to 200 members (deliveries/s)',
      'Reported: the Redis adapter against the in-process one.',
      'deliveries/s',
      rateRows,
      (rateRows[0] as Row).value,
    )
  }

  if (CASES.has('memory')) {
    const per: Record<'local' | 'redis', number[]> = { local: [], redis: [] }
    for (let round = 0; round < ROUNDS + 1; round++) for (const adapter of ['local', 'redis'] as const) {
      const node = await startNode('twinport', adapter, redis, `p${++prefixes}`)
      const pid = node.child.pid as number
      // As bench/run.ts's ws-idle: (RSS with all the clients - RSS with the first 500) / the rest.
      const first = await openMany(node.port, plainWs, BASE, '/bcast')
      await sleep(1500)
      const before = processRssBytes(pid) ?? Number.NaN
      const rest = await openMany(node.port, plainWs, IDLE - BASE, '/bcast')
      await sleep(2000)
      const after = processRssBytes(pid) ?? Number.NaN
      const clients = [...first, ...rest]
      const perClient = (after - before) / (IDLE - BASE) / 1024
      log(`memory ${adapter}: ${fmt(perClient, 2)} KiB per idle client (RSS ${fmt(before / 1048576)} → ${fmt(after / 1048576)} MiB)`)
      per[adapter].push(perClient)
      closeAll(clients)
      await stopNodes([node])
      await sleep(500)
    }
    const rows: Row[] = (['local', 'redis'] as const).map((adapter) => ({
      label: adapter === 'local' ? 'twinport, in-process (default)' : 'twinport + twinport/redis',
      value: median(per[adapter]),
      detail: `runs: ${per[adapter].map((v) => fmt(v, 2)).join(', ')} KiB`,
    }))
    table(
      `Memory per idle client on a node ((server RSS with ${fmt(IDLE, 0)} idle clients in the /bcast room − RSS with ${BASE}) / ${fmt(IDLE - BASE, 0)}, KiB)`,
      'Target: with the adapter ≤ 1.1× without.',
      'KiB',
      rows,
      (rows[0] as Row).value,
    )
  }
} finally {
  await redis.dispose()
}

const header = [
  `## Scale-out on Redis (\`bench/cluster.ts\`)`,
  '',
  `Generated by \`node --import tsx bench/cluster.ts --clients ${N} --repeat ${REPEAT} --ms ${RATE_MS} --idle ${IDLE} --rounds ${ROUNDS}\` on ${new Date().toISOString()} in ${Math.round((Date.now() - started) / 1000)} s. ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, redis-server ${/v=([\d.]+)/.exec(spawnSync('redis-server', ['--version']).stdout?.toString() ?? '')?.[1] ?? '?'} (started by the script, no persistence), load average at the start ${loadAtStart}, at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}.`,
  '',
  `Method: every server is a child process${processes.pinned ? ' pinned to CPU 0 (both servers of a two-process case share it); the clients (this process) and Redis are pinned to CPU 1' : ' (not pinned)'}; the clients are raw-socket WebSocket clients in the benchmark process, speaking each contender's protocol. Both contenders serve the same contract: a \`/bcast\` room where each message goes to every member, the sender included.`,
  '',
]
const out = [...header, ...sections].join('\n')
mkdirSync('bench/.tmp', { recursive: true })
writeFileSync('bench/.tmp/cluster-results.md', out)
console.log(out)
process.exit(0)
