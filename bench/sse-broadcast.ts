/**
 * Server-Sent Events broadcast benchmark (issue 23, "Measured"): not part of `npm run bench`;
 * run it alone.
 *
 *   node --import tsx bench/sse-broadcast.ts                         10,000 receivers, 30 broadcasts
 *   node --import tsx bench/sse-broadcast.ts --clients 300 --rounds 10   a smoke run (seconds)
 *
 * Twinport's `examples/echo.ts` is started twice (pinned to CPU 0, bench/load/start-server.ts);
 * against one, N WebSocket clients join `/bcast`; against the other, N Server-Sent Events
 * clients open `GET /events` (the same room). In both, one more WebSocket client on `/bcast`
 * sends a text message of `--size` bytes, `--rounds` times, one after the other: each time, the
 * time from the send until the last of the N receivers has read the whole message (a 2-byte
 * header frame for WebSocket; one chunk `data: <text>\n\n` for SSE), counted in bytes on raw
 * `node:net` sockets, so the clients cost as little as they can. Reported: the median and p90
 * of those times, and the server's resident memory per idle client (VmRSS after the N clients
 * connected and settled, less before, over N). This process pins itself to CPU 1.
 * The Markdown section is printed and written to `bench/.tmp/sse-results.md` (`--out`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { pinSelf } from './load/own-cpu.js'
import { parseVmRss } from './load/proc.js'
import { LIVE, type RunningServer, startServer } from './load/start-server.js'

const { values: opt } = parseArgs({
  options: {
    clients: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '30' },
    size: { type: 'string', default: '64' },
    out: { type: 'string', default: 'bench/.tmp/sse-results.md' },
  },
})
const CLIENTS = Number(opt.clients)
const ROUNDS = Number(opt.rounds)
const SIZE = Math.min(125, Math.max(1, Number(opt.size)))
const MESSAGE = 'm'.repeat(SIZE)
const WAIT_MS = 60_000

type Kind = 'ws' | 'sse'

// What one broadcast brings each receiver, in bytes.
const perMessage = (kind: Kind): number => {
  if (kind === 'ws') return 2 + SIZE
  const event = `data: ${MESSAGE}\n\n`
  return event.length.toString(16).length + 2 + event.length + 2
}

const UPGRADE = (path: string): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`
const EVENTS = 'GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n'

/** A receiver: counts the bytes after its answer's head. */
interface Receiver {
  readonly socket: Socket
  bytes: number
  headDone: boolean
}

const open = (port: number, request: string, onBytes: (r: Receiver) => void): Promise<Receiver> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port })
    const r: Receiver = { socket, bytes: 0, headDone: false }
    let head = ''
    socket.setNoDelay(true)
    socket.on('data', (chunk: Buffer) => {
      if (!r.headDone) {
        head += chunk.toString('latin1')
        const end = head.indexOf('\r\n\r\n')
        if (end < 0) return
        r.headDone = true
        r.bytes = head.length - end - 4
        resolve(r)
      } else r.bytes += chunk.length
      onBytes(r)
    })
    socket.once('error', reject)
    socket.once('connect', () => socket.write(request))
  })

// A masked client text frame (key 0: the payload as it is).
const frame = (text: string): Buffer => Buffer.concat([Buffer.from([0x81, 0x80 | text.length, 0, 0, 0, 0]), Buffer.from(text, 'latin1')])

const rssOf = (pid: number): number => parseVmRss(readFileSync(`/proc/${pid}/status`, 'utf8')) ?? 0
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

interface Outcome {
  readonly kind: Kind
  readonly times: readonly number[]
  readonly rssPerClient: number
}

const measure = async (kind: Kind, server: RunningServer): Promise<Outcome> => {
  const size = perMessage(kind)
  // Each receiver's byte target in the current round (none before the first).
  let targetOf: (r: Receiver) => number = () => Number.POSITIVE_INFINITY
  let done = 0
  let finished: (() => void) | undefined
  const reached = new Set<Receiver>()
  const onBytes = (r: Receiver): void => {
    if (!reached.has(r) && r.bytes >= targetOf(r)) {
      reached.add(r)
      done++
      if (done === CLIENTS) finished?.()
    }
  }
  await delay(300)
  const before = rssOf(server.pid)
  const receivers: Receiver[] = []
  // In batches: the kernel's accept queue is finite.
  for (let i = 0; i < CLIENTS; i += 200) {
    const batch = Math.min(200, CLIENTS - i)
    receivers.push(...(await Promise.all(Array.from({ length: batch }, () => open(server.port, kind === 'ws' ? UPGRADE('/bcast') : EVENTS, onBytes)))))
  }
  await delay(1000)
  const rssPerClient = (rssOf(server.pid) - before) / CLIENTS
  // What each receiver has before the first broadcast (an SSE client may have a first chunk).
  const base = new Map(receivers.map((r) => [r, r.bytes]))
  const sender = await open(server.port, UPGRADE('/bcast'), () => undefined)
  const times: number[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    reached.clear()
    done = 0
    const all = new Promise<void>((resolve, reject) => {
      finished = resolve
      setTimeout(() => reject(new Error(`${kind}: round ${round}: ${done} of ${CLIENTS} receivers within ${WAIT_MS} ms`)), WAIT_MS).unref()
    })
    // Its bytes before the first broadcast, and `round` messages.
    targetOf = (r) => (base.get(r) ?? 0) + round * size
    const started = process.hrtime.bigint()
    sender.socket.write(frame(MESSAGE))
    await all
    times.push(Number(process.hrtime.bigint() - started) / 1e6)
    await delay(20)
  }
  for (const r of [...receivers, sender]) r.socket.destroy()
  return { kind, times, rssPerClient }
}

const quantile = (xs: readonly number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

const main = async (): Promise<void> => {
  if (!pinSelf(1)) console.error('taskset missing: this process is not pinned')
  const outcomes: Outcome[] = []
  for (const kind of ['ws', 'sse'] as const) {
    const server = await startServer('examples/echo.ts')
    if (typeof server === 'string') throw new Error(`echo server: ${server}`)
    try {
      outcomes.push(await measure(kind, server))
    } finally {
      await server.stop()
    }
  }
  const [ws, sse] = outcomes as [Outcome, Outcome]
  const row = (o: Outcome): string =>
    `| ${o.kind === 'ws' ? 'WebSocket `/bcast`' : 'SSE `/events`'} | ${quantile(o.times, 0.5).toFixed(2)} | ${quantile(o.times, 0.9).toFixed(2)} | ${(o.rssPerClient / 1024).toFixed(1)} |`
  const md = [
    `## Broadcast to ${CLIENTS.toLocaleString('en')} SSE vs WebSocket clients (\`bench/sse-broadcast.ts\`)`,
    '',
    `\`node --import tsx bench/sse-broadcast.ts --clients ${CLIENTS} --rounds ${ROUNDS} --size ${SIZE}\`: twinport's echo app on Node, ${ROUNDS} broadcasts of ${SIZE} bytes, time until the last receiver read it.`,
    '',
    '| receivers | median ms | p90 ms | server RSS per idle client (KiB) |',
    '|---|---|---|---|',
    row(ws),
    row(sse),
    '',
    `SSE / WebSocket: time to the last receipt ${(quantile(sse.times, 0.5) / quantile(ws.times, 0.5)).toFixed(2)}× (median), memory per idle client ${(sse.rssPerClient / ws.rssPerClient).toFixed(2)}×.`,
    '',
  ].join('\n')
  console.log(md)
  mkdirSync(dirname(opt.out), { recursive: true })
  writeFileSync(opt.out, md)
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    for (const child of LIVE) child.kill('SIGKILL')
    process.exit(1)
  },
)
