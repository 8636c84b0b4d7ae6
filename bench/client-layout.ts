/**
 * Benchmark (not a test): what a lighter class for HTTP clients would cost the WebSocket path
 * (docs/decisions.md "HTTP and event-stream clients keep the WebSocket fields"). Today every
 * client of a server is one class (`ClientContext`, which extends `WsConnection`), so the
 * adapter's read site, `client.receiver.receive(chunk)`, sees one map. An HTTP client of its
 * own lighter class would make that site see two (`two`), and, with one such pair per server,
 * a process of several servers sees more than V8's polymorphic caches hold (`five`: megamorphic).
 *
 * The echo app's engine over counting sockets (bench/load/counting-platform.ts): `--ws`
 * upgraded clients and `--http` idle HTTP clients, all read through one site. Each step hands
 * every WebSocket client a chunk of `--batch` masked 32-byte text frames (echoed) and every HTTP
 * client an empty chunk (nothing to do: the site's load and call are what differ). The holders
 * the site reads are the engine's clients (`one`), or, for the HTTP clients, objects of a
 * six-field class (the client's own fields) holding the same `HttpConnection` (`two`), or of
 * four such classes (`five`). Each variant runs in a child process of its own (a call site's
 * feedback is per process), the variants interleaved round by round; the figure is this
 * process's CPU ns per WebSocket chunk (`process.cpuUsage()`), its ratio to `one` in the same
 * round, and the load average beside it.
 *
 * Run: `npx tsx bench/client-layout.ts [--rounds 5] [--ms 600] [--ws 50] [--http 50] [--batch 10]`
 */
import { fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { encodeFrameBytes } from '../lib/core/ws/encode-frame.js'
import { OPCODE } from '../lib/core/ws/frame.js'
import type { Client, Receiver } from '../lib/engine/connection/client.js'
import { countingEngine, type CountingSocket, upgradeRequest } from './load/counting-platform.js'
import { cpuRounds } from './load/engine-rounds.js'

const VARIANTS = ['one', 'two', 'five'] as const
type Variant = (typeof VARIANTS)[number]

const { values: opt } = parseArgs({
  options: {
    variant: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    ms: { type: 'string', default: '600' },
    ws: { type: 'string', default: '50' },
    http: { type: 'string', default: '50' },
    batch: { type: 'string', default: '10' },
  },
})

// An HTTP client's own fields, and nothing of a WebSocket connection's: what a lighter class holds.
const lightClass = () =>
  class {
    data: Map<string, unknown> | undefined = undefined
    request: unknown = undefined
    remoteAddress: string | undefined = undefined
    constructor(
      public id: number,
      readonly socket: CountingSocket,
      public receiver: Receiver,
    ) {}
  }
const LIGHT = [lightClass(), lightClass(), lightClass(), lightClass()]

// One child: its variant's ns per WebSocket chunk, and ns per visit of the site alone (the load of
// `receiver`, no call), each one round of `ms` after a warm-up round.
const measure = (variant: Variant): readonly [number, number] => {
  const ws = Number(opt.ws)
  const http = Number(opt.http)
  const batch = Number(opt.batch)
  const frame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new TextEncoder().encode('x'.repeat(32)) }, Uint8Array.of(1, 2, 3, 4))
  const chunk = new Uint8Array(frame.length * batch)
  for (let i = 0; i < batch; i++) chunk.set(frame, i * frame.length)
  const { clients } = countingEngine(ws + http)
  for (const client of clients.slice(0, ws)) client.receiver.receive(upgradeRequest('/echo'))
  const holders: Client<CountingSocket>[] = clients.map((client, i) => {
    if (i < ws || variant === 'one') return client
    const Light = LIGHT[variant === 'two' ? 0 : i % LIGHT.length]!
    return new Light(client.id, client.socket, client.receiver) as unknown as Client<CountingSocket>
  })
  const empty = new Uint8Array(0)
  // The adapter's read site: one load of `receiver` and one call, for every holder.
  const step = (): number => {
    for (let i = 0; i < holders.length; i++) {
      const holder = holders[i]!
      holder.receiver.receive(i < ws ? chunk.slice() : empty)
    }
    return ws
  }
  const [figure] = cpuRounds(step, 1, Number(opt.ms))
  const s0 = clients[0]!.socket
  if (s0.closed || s0.ended || s0.bytes === 0) throw new Error('the echo did not answer')
  let seen = 0
  const none = {} as Receiver
  const visit = (): number => {
    for (let r = 0; r < 100; r++) for (let i = 0; i < holders.length; i++) if (holders[i]!.receiver !== none) seen++
    return 100 * holders.length
  }
  const [site] = cpuRounds(visit, 1, Number(opt.ms))
  if (seen === 0) throw new Error('no visits')
  return [figure!, site!]
}

const run = (variant: Variant): Promise<readonly [number, number]> =>
  new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url).pathname, ['--variant', variant, ...process.argv.slice(2)], { execArgv: ['--import', 'tsx'] })
    child.once('message', (figures) => resolve(figures as [number, number]))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`${variant} exited ${code}`))))
  })

const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!

if (opt.variant !== undefined) {
  process.send?.(measure(opt.variant as Variant))
} else {
  console.log(`${opt.ws} WebSocket + ${opt.http} HTTP clients, ${opt.batch} frames per chunk; ns of CPU per WebSocket chunk [ns per visit of the site alone]`)
  const ratios: Record<Variant, number[]> = { one: [], two: [], five: [] }
  const siteRatios: Record<Variant, number[]> = { one: [], two: [], five: [] }
  for (let round = 0; round < Number(opt.rounds); round++) {
    // Rotate the order each round, so that no variant always runs first.
    const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!)
    const figures = {} as Record<Variant, readonly [number, number]>
    const before = load()
    for (const variant of order) figures[variant] = await run(variant)
    for (const variant of VARIANTS) ratios[variant].push(figures[variant][0] / figures.one[0])
    for (const variant of VARIANTS) siteRatios[variant].push(figures[variant][1] / figures.one[1])
    const shown = (v: Variant): string =>
      `${v} ${figures[v][0].toFixed(0)} (${(figures[v][0] / figures.one[0]).toFixed(3)}×) [${figures[v][1].toFixed(2)}, ${(figures[v][1] / figures.one[1]).toFixed(2)}×]`
    console.log(`round ${round + 1} (load ${before}–${load()}): ${VARIANTS.map(shown).join(', ')}`)
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
  console.log(`median ratio to one per chunk: two ${median(ratios.two).toFixed(3)}×, five ${median(ratios.five).toFixed(3)}×`)
  console.log(`median ratio to one per visit of the site alone: two ${median(siteRatios.two).toFixed(2)}×, five ${median(siteRatios.five).toFixed(2)}×`)
}
