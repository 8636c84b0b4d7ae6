/**
 * Issue 24's `attach` bench: twinport attached to a plain `node:http` server beside `ws`
 * attached to the same kind of server (bench/embed/attach-server.ts), in the same run, on
 * loopback: WebSocket echo throughput with 50 connections × 10 messages in flight (64-byte
 * text), and the server's memory per idle connection (JS heap + external after a full GC,
 * before and after opening them; RSS is printed too, not compared: it moves by whole pages). Rounds alternate the order of the contenders; figures are medians, ratios
 * twinport/ws. Both servers run under tsx (the same loader for both). Bounded: every wait has
 * a deadline, the servers are killed at the end.
 *
 *   node --import tsx bench/embed-attach.ts [--rounds 2] [--ms 3000] [--idle 1000]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import WebSocket from 'ws'

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(process.argv[at + 1])
}
const ROUNDS = arg('rounds', 2)
const MS = arg('ms', 3000)
const WARMUP = 1000
const IDLE = arg('idle', 1000)
const CONNECTIONS = 50
const IN_FLIGHT = 10
const MESSAGE = 'x'.repeat(64)
const CONTENDERS = ['twinport', 'ws'] as const
type Contender = (typeof CONTENDERS)[number]

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

// The server's `MEM` lines, answered in order to each SIGUSR2.
const memLines = new Map<ChildProcess, ((line: readonly number[]) => void)[]>()

const start = (which: Contender): Promise<{ child: ChildProcess; port: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/embed/attach-server.ts', which], {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const timer = setTimeout(() => reject(new Error(`${which} did not start in 30 s`)), 30_000)
    memLines.set(child, [])
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const [, heap, rss] of chunk.toString().matchAll(/MEM (\d+) (\d+)/g)) memLines.get(child)?.shift()?.([Number(heap), Number(rss)])
      const port = /PORT (\d+)/.exec(chunk.toString())?.[1]
      if (port === undefined) return
      clearTimeout(timer)
      resolve({ child, port: Number(port) })
    })
    child.once('exit', (code) => reject(new Error(`${which} exited with ${code}`)))
  })

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })


const open = (port: number): Promise<WebSocket> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`)
    const timer = setTimeout(() => reject(new Error('open timed out')), 10_000)
    ws.once('open', () => (clearTimeout(timer), resolve(ws)))
    ws.once('error', (error) => (clearTimeout(timer), reject(error)))
  })

// Echoes per second over the window after the warm-up: each connection answers an echo with the next message.
const echo = async (port: number): Promise<number> => {
  const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => open(port)))
  let counting = false
  let count = 0
  let running = true
  for (const ws of sockets) {
    ws.on('message', () => {
      if (counting) count += 1
      if (running) ws.send(MESSAGE)
    })
    for (let i = 0; i < IN_FLIGHT; i++) ws.send(MESSAGE)
  }
  await sleep(WARMUP)
  counting = true
  const t0 = performance.now()
  await sleep(MS)
  counting = false
  const seconds = (performance.now() - t0) / 1000
  running = false
  for (const ws of sockets) ws.terminate()
  return count / seconds
}

// Bytes per idle connection, [JS heap + external, RSS]: after a full GC, before and after opening them.
const memory = async (child: ChildProcess, port: number): Promise<readonly number[]> => {
  const settle = async (): Promise<readonly number[]> => {
    await sleep(500)
    const line = new Promise<readonly number[]>((resolve, reject) => {
      memLines.get(child)?.push(resolve)
      setTimeout(() => reject(new Error('no MEM line in 10 s')), 10_000).unref()
    })
    child.kill('SIGUSR2')
    return line
  }
  const before = await settle()
  const sockets: WebSocket[] = []
  for (let i = 0; i < IDLE; i += 100) sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, IDLE - i) }, () => open(port)))))
  const after = await settle()
  for (const ws of sockets) ws.terminate()
  return [(after[0]! - before[0]!) / IDLE, (after[1]! - before[1]!) / IDLE]
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const results: Record<Contender, { echo: number[]; heap: number[]; rss: number[] }> = { twinport: { echo: [], heap: [], rss: [] }, ws: { echo: [], heap: [], rss: [] } }
const live = new Set<ChildProcess>()
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse()
    for (const which of order) {
      const { child, port } = await start(which)
      live.add(child)
      try {
        results[which].echo.push(await echo(port))
        await sleep(300)
        const [heap, rss] = await memory(child, port)
        results[which].heap.push(heap!)
        results[which].rss.push(rss!)
      } finally {
        await stop(child)
        live.delete(child)
      }
      const r = results[which]
      console.error(`round ${round + 1} ${which}: ${Math.round(r.echo.at(-1) ?? 0)} echoes/s, ${Math.round(r.heap.at(-1) ?? 0)} B heap+external and ${Math.round(r.rss.at(-1) ?? 0)} B RSS per connection`)
    }
  }
} finally {
  for (const child of live) await stop(child)
}

const e = { twinport: median(results.twinport.echo), ws: median(results.ws.echo) }
const h = { twinport: median(results.twinport.heap), ws: median(results.ws.heap) }
const r = { twinport: median(results.twinport.rss), ws: median(results.ws.rss) }
const kib = (n: number): string => `${(n / 1024).toFixed(2)} KiB`
// RSS moves by whole pages and with the allocator's mood: printed per round, not compared.
console.log(`| contender | echo, ${CONNECTIONS} conns × ${IN_FLIGHT} in flight (msg/s) | JS heap + external per idle connection (${IDLE}, after GC) |`)
console.log('|---|---|---|')
console.log(`| twinport \`attach\` on node:http | ${Math.round(e.twinport).toLocaleString('en')} | ${kib(h.twinport)} |`)
console.log(`| \`ws\` on node:http | ${Math.round(e.ws).toLocaleString('en')} | ${kib(h.ws)} |`)
console.log(`| **ratio twinport / ws** | **${(e.twinport / e.ws).toFixed(2)}×** | **${(h.twinport / h.ws).toFixed(2)}×** |`)
console.log(`(RSS per connection, medians, not compared: twinport ${kib(r.twinport)}, ws ${kib(r.ws)})`)
