/**
 * Server-Sent Events broadcast benchmark (issue 23, "Measured"): not part of `npm run bench`;
 * run it alone (bench/README.md, "Server-Sent Events broadcast").
 *
 *   node --import tsx bench/sse-broadcast.ts                                 10,000 receivers, 3 rounds
 *   node --import tsx bench/sse-broadcast.ts --clients 500 --rounds 1 --broadcasts 5   a smoke run
 *
 * Contenders, each a fresh server per run pinned to CPU 0 (bench/load/start-server.ts):
 * - `twinport-ws`: twinport's `examples/echo.ts` (compiled, as bench/run.ts runs it), N
 *   WebSocket receivers on `/bcast`;
 * - `twinport-sse`: the same app, N event-stream receivers on `GET /events` (the same room);
 * - `better-sse`, `hono`: `bench/peers/sse-better-sse.ts` (a channel) and
 *   `bench/peers/sse-hono.ts` (`streamSSE`, a loop over the open streams), N receivers on
 *   `GET /events`.
 * One sender asks for a broadcast of a `--size`-byte text ending with `~` (twinport: a
 * WebSocket message on `/bcast`; the peers: `POST /bcast`), `--broadcasts` times one after
 * the other: each time, the time from the request's write until the last of the N receivers
 * has read the text's last byte (bench/load/marker-receivers.ts: raw sockets in this process,
 * pinned to CPU 1). A warm-up broadcast before them is not counted. Memory per idle receiver:
 * (server VmRSS with N open − with 500 open) / (N − 500), as the main bench's `ws-idle`.
 * Rounds are outermost and the order of the contenders rotates each round; each run first
 * waits (up to 3 s) for a quiet machine; `--budget` minutes bound the whole.
 * Output: a Markdown section, printed and written to `bench/.tmp/sse-results.md` (`--out`).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { MARKER, markerReceivers } from './load/marker-receivers.js'
import { pinSelf } from './load/own-cpu.js'
import { CLK_TCK, processCpuTicks, processRssBytes } from './load/proc.js'
import { waitForQuiet } from './load/quiet.js'
import { runBench, startServer } from './load/start-server.js'

const CONTENDERS = ['twinport-ws', 'twinport-sse', 'better-sse', 'hono'] as const
type Contender = (typeof CONTENDERS)[number]

const { values: opt } = parseArgs({
  options: {
    clients: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '3' },
    broadcasts: { type: 'string', default: '10' },
    size: { type: 'string', default: '64' },
    contenders: { type: 'string', default: CONTENDERS.join(',') },
    budget: { type: 'string', default: '15' },
    source: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/.tmp/sse-results.md' },
  },
})
const CLIENTS = Number(opt.clients)
const BASE = Math.min(500, Math.floor(CLIENTS / 2))
const ROUNDS = Number(opt.rounds)
const BROADCASTS = Number(opt.broadcasts)
const SIZE = Math.min(125, Math.max(2, Number(opt.size)))
const MESSAGE = `${'m'.repeat(SIZE - 1)}${String.fromCharCode(MARKER)}`
const WAIT_MS = 30_000
const DEADLINE = Date.now() + Number(opt.budget) * 60_000
const chosen = opt.contenders.split(',').filter((c): c is Contender => (CONTENDERS as readonly string[]).includes(c))

const log = (line: string): void => void process.stderr.write(`${line}\n`)
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

// twinport runs compiled (an application ships JavaScript; under tsx every closure pays
// esbuild's keepNames helper); the peers' few lines of glue go through tsx, their libraries
// are plain JavaScript. --source, or a failed build, runs twinport from source.
const built =
  !opt.source &&
  (log('compiling (tsc -p tsconfig.bench.json)…'),
  spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json'], { stdio: 'ignore', timeout: 300_000 }).status === 0)
if (!opt.source && !built) log('the build failed: twinport runs from source under tsx')
const ECHO = built ? 'bench/.tmp/dist/examples/echo.js' : 'examples/echo.ts'
const SCRIPT: Record<Contender, string> = {
  'twinport-ws': ECHO,
  'twinport-sse': ECHO,
  'better-sse': 'bench/peers/sse-better-sse.ts',
  hono: 'bench/peers/sse-hono.ts',
}

const UPGRADE = 'GET /bcast HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'
const EVENTS = 'GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n'
// A masked client text frame (key 0: the payload as it is), and the peers' POST.
const WS_SEND = Buffer.concat([Buffer.from([0x81, 0x80 | SIZE, 0, 0, 0, 0]), Buffer.from(MESSAGE, 'latin1')])
const POST_SEND = Buffer.from(`POST /bcast HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: ${SIZE}\r\n\r\n${MESSAGE}`, 'latin1')

// The sender: a WebSocket on /bcast (twinport) or a keep-alive HTTP connection (the peers);
// what it reads is thrown away. Resolves once it can send.
const openSender = (port: number, ws: boolean): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true })
    socket.once('error', reject)
    socket.on('data', () => undefined)
    if (!ws) socket.once('connect', () => resolve(socket))
    else {
      socket.once('connect', () => socket.write(UPGRADE))
      socket.once('data', (head: Buffer) => (head.toString('latin1').startsWith('HTTP/1.1 101') ? resolve(socket) : reject(new Error('sender refused'))))
    }
  })

/** One run of one contender. */
interface Run {
  readonly contender: Contender
  readonly times: readonly number[]
  readonly rssPerClient: number
  readonly serverCpuMs: number
  readonly clientCpuMs: number
}

const measure = async (contender: Contender): Promise<Run | string> => {
  const server = await startServer(SCRIPT[contender])
  if (typeof server === 'string') return server
  const receivers = markerReceivers(server.port, contender === 'twinport-ws' ? UPGRADE : EVENTS, contender === 'twinport-ws' ? 101 : 200)
  let sender: Socket | undefined
  try {
    await waitForQuiet(3000)
    await receivers.open(BASE)
    await delay(500)
    const before = processRssBytes(server.pid) ?? 0
    await receivers.open(CLIENTS - BASE)
    await delay(1000)
    const rssPerClient = ((processRssBytes(server.pid) ?? 0) - before) / (CLIENTS - BASE)
    sender = await openSender(server.port, contender.startsWith('twinport'))
    const payload = contender.startsWith('twinport') ? WS_SEND : POST_SEND
    const times: number[] = []
    let serverTicks = 0
    let clientUs = 0
    for (let n = 1; n <= BROADCASTS + 1; n++) {
      const all = receivers.reach(n, WAIT_MS)
      const ticks = processCpuTicks(server.pid) ?? 0
      const cpu = process.cpuUsage()
      const started = process.hrtime.bigint()
      sender.write(payload)
      await all
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const used = process.cpuUsage(cpu)
      if (n > 1) {
        // The first is the warm-up.
        times.push(ms)
        serverTicks += (processCpuTicks(server.pid) ?? 0) - ticks
        clientUs += used.user + used.system
      }
      await delay(50)
    }
    return { contender, times, rssPerClient, serverCpuMs: ((serverTicks / CLK_TCK) * 1000) / BROADCASTS, clientCpuMs: clientUs / 1000 / BROADCASTS }
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  } finally {
    sender?.destroy()
    receivers.close()
    await server.stop()
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}
const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
}
const f = (x: number, digits = 1): string => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a')

const LABEL: Record<Contender, string> = {
  'twinport-ws': 'twinport, WebSocket `/bcast`',
  'twinport-sse': 'twinport, SSE `/events` (`sseRoute`)',
  'better-sse': 'better-sse 0.16 channel (node:http)',
  hono: 'Hono 4 `streamSSE` (@hono/node-server)',
}

const render = (runs: readonly Run[], failures: readonly string[], skipped: number): string => {
  const of = (c: Contender): readonly Run[] => runs.filter((r) => r.contender === c)
  const timeOf = (c: Contender): number => median(of(c).flatMap((r) => r.times))
  const memOf = (c: Contender): number => median(of(c).map((r) => r.rssPerClient))
  const rows = chosen.map((c) => {
    const rs = of(c)
    const perRun = rs.map((r) => median(r.times))
    return `| ${LABEL[c]} | ${f(timeOf(c))} | ${f(quantile(rs.flatMap((r) => r.times), 0.9))} | ${rs.length === 0 ? 'n/a' : `${f(Math.min(...perRun))}–${f(Math.max(...perRun))}`} | ${f(median(rs.map((r) => r.serverCpuMs)))} | ${f(median(rs.map((r) => r.clientCpuMs)))} | ${f(memOf(c) / 1024, 2)} | ${rs.length} |`
  })
  const ratio = (a: number, b: number): string => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : 'n/a')
  const verdict = (x: number, bound: number): string => (Number.isFinite(x) ? (x <= bound ? 'met' : 'not met') : 'n/a')
  const sse = timeOf('twinport-sse')
  const targets = [
    `| SSE broadcast / twinport WebSocket broadcast | ≤ 1.0× | ${ratio(sse, timeOf('twinport-ws'))} | ${verdict(sse / timeOf('twinport-ws'), 1.0)} |`,
    `| SSE broadcast / better-sse | ≤ 0.5× | ${ratio(sse, timeOf('better-sse'))} | ${verdict(sse / timeOf('better-sse'), 0.5)} |`,
    `| SSE broadcast / Hono streamSSE | ≤ 0.5× | ${ratio(sse, timeOf('hono'))} | ${verdict(sse / timeOf('hono'), 0.5)} |`,
    `| memory per idle SSE client / per idle WebSocket client | ≤ 1.2× | ${ratio(memOf('twinport-sse'), memOf('twinport-ws'))} | ${verdict(memOf('twinport-sse') / memOf('twinport-ws'), 1.2)} |`,
  ]
  return [
    `### Broadcast to ${CLIENTS.toLocaleString('en')} receivers: time to the last receipt, and memory per idle receiver`,
    '',
    `\`node --import tsx bench/sse-broadcast.ts --clients ${CLIENTS} --rounds ${ROUNDS} --broadcasts ${BROADCASTS} --size ${SIZE}\`${built ? '' : ' (twinport from source)'}: ${SIZE}-byte text, ${ROUNDS} interleaved rounds × ${BROADCASTS} broadcasts after a warm-up; time median and p90 over every broadcast, min–max of the runs' medians; CPU per broadcast (server on CPU 0, the receivers' process on CPU 1); memory = (RSS with ${CLIENTS.toLocaleString('en')} − RSS with ${BASE}) / ${(CLIENTS - BASE).toLocaleString('en')}, median of the runs.`,
    '',
    '| contender | median ms | p90 ms | runs\' medians ms | server CPU ms / bcast | client CPU ms / bcast | RSS per idle receiver KiB | runs |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '| target (issue 23) | bound | measured | verdict |',
    '|---|---|---|---|',
    ...targets,
    '',
    ...(failures.length > 0 ? ['Failed runs:', '', ...failures.map((x) => `- ${x}`), ''] : []),
    ...(skipped > 0 ? [`${skipped} runs skipped: past the ${opt.budget}-minute budget.`, ''] : []),
  ].join('\n')
}

const main = async (): Promise<void> => {
  if (!pinSelf(1)) log('taskset missing: this process is not pinned')
  const runs: Run[] = []
  const failures: string[] = []
  let skipped = 0
  for (let round = 0; round < ROUNDS; round++) {
    const order = chosen.map((_, i) => chosen[(i + round) % chosen.length] as Contender)
    for (const contender of order) {
      if (Date.now() > DEADLINE) {
        skipped++
        continue
      }
      const run = await measure(contender)
      if (typeof run === 'string') {
        failures.push(`round ${round + 1}, ${contender}: ${run}`)
        log(`round ${round + 1} ${contender}: failed: ${run}`)
      } else {
        runs.push(run)
        log(`round ${round + 1} ${contender}: median ${f(median(run.times))} ms, server CPU ${f(run.serverCpuMs)} ms/bcast, client ${f(run.clientCpuMs)} ms/bcast, ${f(run.rssPerClient / 1024, 2)} KiB/receiver`)
      }
    }
  }
  const md = render(runs, failures, skipped)
  console.log(md)
  mkdirSync(dirname(opt.out), { recursive: true })
  writeFileSync(opt.out, md)
}

runBench(main)
