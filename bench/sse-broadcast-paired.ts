/**
 * SSE against WebSocket broadcast, paired (issue 23; session 13): not part of `npm run bench`.
 * Two twinport servers (`examples/echo.ts`, compiled) run at once, both pinned to CPU 0: one
 * with N WebSocket receivers on `/bcast`, one with N event-stream receivers on `GET /events`
 * (raw sockets of this process, pinned to CPU 1, bench/load/marker-receivers.ts). Broadcasts
 * alternate between the two servers (the first of each pair alternates too), so both kinds
 * see the same machine load, broadcast by broadcast. For each broadcast: the time from the
 * sender's write until the last receiver read the marker, and the server's main-thread time on
 * a CPU (`/proc/<pid>/task/<pid>/schedstat`, nanoseconds; it excludes time spent waiting for a
 * CPU, so it survives load far better than wall time). Reported: medians, and per receiver.
 *
 *   node --import tsx bench/sse-broadcast-paired.ts                     3,000 receivers, 40 pairs
 *   node --import tsx bench/sse-broadcast-paired.ts --clients 500 --pairs 5   a smoke run
 *
 * `--source` runs twinport from source under tsx instead of compiling it first; `--no-build` runs
 * the last compiled copy (bench/.tmp/dist) as it is. User and system CPU (ticks of /proc/<pid>/stat,
 * summed over the pairs) split the per-receiver cost between JavaScript and the kernel's TCP.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { parseArgs } from 'node:util'
import { MARKER, markerReceivers, type ReceiverSet } from './load/marker-receivers.js'
import { pinSelf } from './load/own-cpu.js'
import { threadSchedTimes } from './load/proc.js'
import { type RunningServer, runBench, startServer } from './load/start-server.js'

const { values: opt } = parseArgs({
  options: {
    clients: { type: 'string', default: '3000' },
    pairs: { type: 'string', default: '40' },
    size: { type: 'string', default: '64' },
    source: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
})
const CLIENTS = Number(opt.clients)
const PAIRS = Number(opt.pairs)
const SIZE = Math.min(125, Math.max(2, Number(opt.size)))
const MESSAGE = `${'m'.repeat(SIZE - 1)}${String.fromCharCode(MARKER)}`
const log = (line: string): void => void process.stderr.write(`${line}\n`)
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

const built =
  (!opt.source && opt['no-build'] === true) ||
  (!opt.source &&
  (log('compiling (tsc -p tsconfig.bench.json)…'),
  spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json'], { stdio: 'ignore', timeout: 300_000 }).status === 0))
const ECHO = built ? 'bench/.tmp/dist/examples/echo.js' : 'examples/echo.ts'

const UPGRADE = 'GET /bcast HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'
const EVENTS = 'GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n'
const WS_SEND = Buffer.concat([Buffer.from([0x81, 0x80 | SIZE, 0, 0, 0, 0]), Buffer.from(MESSAGE, 'latin1')])

const openSender = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true })
    socket.once('error', reject)
    socket.on('data', () => undefined)
    socket.once('connect', () => socket.write(UPGRADE))
    socket.once('data', (head: Buffer) => (head.toString('latin1').startsWith('HTTP/1.1 101') ? resolve(socket) : reject(new Error('sender refused'))))
  })

interface Side {
  readonly kind: 'ws' | 'sse'
  readonly server: RunningServer
  readonly receivers: ReceiverSet
  sender?: Socket
  sent: number
  readonly ms: number[]
  readonly cpuNs: number[]
  user: number
  system: number
}

const onCpu = (pid: number): number => threadSchedTimes(pid)?.onCpuNs ?? Number.NaN
// utime and stime of the process (clock ticks), fields 14 and 15 of /proc/<pid>/stat: user (JavaScript, V8,
// libuv) against system (the kernel's TCP) time.
const userSystem = (pid: number): readonly [number, number] => {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return [Number(fields[11]), Number(fields[12])]
}

const broadcast = async (side: Side, counted: boolean): Promise<void> => {
  side.sent += 1
  const all = side.receivers.reach(side.sent, 30_000)
  const cpu = onCpu(side.server.pid)
  const [user, system] = userSystem(side.server.pid)
  const started = process.hrtime.bigint()
  ;(side.sender as Socket).write(WS_SEND)
  await all
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  // The server may still be finishing its last slice's bookkeeping: a short settle.
  await delay(30)
  if (!counted) return
  side.ms.push(ms)
  side.cpuNs.push(onCpu(side.server.pid) - cpu)
  const [user2, system2] = userSystem(side.server.pid)
  side.user += user2 - user
  side.system += system2 - system
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}
const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'

const main = async (): Promise<void> => {
  if (!pinSelf(1)) log('taskset missing: this process is not pinned')
  const sides: Side[] = []
  try {
    for (const kind of ['ws', 'sse'] as const) {
      const server = await startServer(ECHO)
      if (typeof server === 'string') throw new Error(`${kind}: ${server}`)
      const receivers = markerReceivers(server.port, kind === 'ws' ? UPGRADE : EVENTS, kind === 'ws' ? 101 : 200)
      sides.push({ kind, server, receivers, sent: 0, ms: [], cpuNs: [], user: 0, system: 0 })
    }
    for (const side of sides) {
      await side.receivers.open(CLIENTS)
      side.sender = await openSender(side.server.port)
    }
    await delay(500)
    const loadBefore = loadavg()
    // Warm-up: three broadcasts each, not counted.
    for (let i = 0; i < 3; i++) for (const side of sides) await broadcast(side, false)
    for (let p = 0; p < PAIRS; p++) {
      const order = p % 2 === 0 ? sides : [...sides].reverse()
      for (const side of order) await broadcast(side, true)
    }
    const loadAfter = loadavg()
    const [ws, sse] = sides as [Side, Side]
    const row = (s: Side): string =>
      `| ${s.kind === 'ws' ? 'WebSocket `/bcast`' : 'SSE `/events`'} | ${median(s.ms).toFixed(1)} | ${(median(s.cpuNs) / 1e6).toFixed(2)} | ${(median(s.cpuNs) / CLIENTS / 1e3).toFixed(2)} | ${((s.user * 1e4) / PAIRS / CLIENTS).toFixed(2)} | ${((s.system * 1e4) / PAIRS / CLIENTS).toFixed(2)} |`
    // Per pair: SSE / WebSocket, then the median of those ratios.
    const ratios = (a: readonly number[], b: readonly number[]): number => median(a.map((x, i) => x / (b[i] as number)))
    console.log(
      [
        `\`node --import tsx bench/sse-broadcast-paired.ts --clients ${CLIENTS} --pairs ${PAIRS} --size ${SIZE}\`${built ? '' : ' (from source)'}, load ${loadBefore} → ${loadAfter}:`,
        '',
        '| receivers of | median ms to the last receipt | server on-CPU ms / bcast | µs / receiver | of which user µs | system µs |',
        '|---|--:|--:|--:|--:|--:|',
        row(ws),
        row(sse),
        '',
        `SSE / WebSocket, median of the ${PAIRS} pairs' ratios: time ${ratios(sse.ms, ws.ms).toFixed(3)}×, server CPU ${ratios(sse.cpuNs, ws.cpuNs).toFixed(3)}×.`,
      ].join('\n'),
    )
  } finally {
    for (const side of sides) {
      side.sender?.destroy()
      side.receivers.close()
    }
    await Promise.all(sides.map((s) => s.server.stop()))
  }
}

runBench(main)
