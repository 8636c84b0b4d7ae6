/**
 * Benchmark (not a test): what one idle WebSocket connection costs the server process
 * below any library, the floor under the "memory per idle connection" target.
 *
 * A server child (pinned to CPU 0, started with `--expose-gc`) accepts connections and
 * answers each upgrade request with a canned 101, keeping the connection open:
 * - `net`: a `node:net` server, one `net.Socket` per connection, nothing else kept;
 * - `tcp-wrap`: Node's private TCP handle (`process.binding('tcp_wrap')`) with no
 *   `net.Socket` around it, as a library that bypassed the stream layer would hold it;
 * - `twinport`: the compiled echo server (`bench/.tmp/dist/examples/echo.js`, built by
 *   `npm run bench` or `npx tsc -p tsconfig.bench.json`), for comparison;
 * - `bun-raw`: a `Bun.listen` server (Bun from node_modules), the socket and a one-field
 *   record per connection, the same canned 101;
 * - `bun-twinport`: the echo routes on `twinport/bun` (the sources, run by Bun).
 * This process (CPU 1) opens `--base` connections, reads the server's RSS, opens the rest
 * up to `--clients`, and reads it again: RSS delta ÷ connections, before and after a full
 * GC in the server (the heap delta after the GC is what stays reachable; on Bun, the JSC
 * heap after `Bun.gc(true)`).
 *
 * Loopback only, bounded in count and time. Run: `npx tsx bench/idle-floor.ts`
 * (`--clients 10000 --base 500 --modes net,tcp-wrap,twinport`, or `--modes bun-raw,bun-twinport`; `--node-flags="..."` passes
 * flags to the servers, e.g. `--max-semi-space-size=1` to see what the young generation's
 * growth adds; `--garbage 4096` makes the `net` and `tcp-wrap` floors allocate that many bytes of
 * short-lived objects per upgrade, to see what an upgrade's garbage alone adds to RSS).
 */
import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { BunApi } from '../lib/bun/bun-api.js'
import { connect, type Socket } from 'node:net'
import { parseArgs } from 'node:util'

const RESPONSE = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n'
const REQUEST =
  'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'
const TWINPORT = 'bench/.tmp/dist/examples/echo.js'
const BUN = 'node_modules/bun/bin/bun.exe'

type Mode = 'net' | 'tcp-wrap' | 'twinport' | 'bun-raw' | 'bun-twinport'
const MODES: readonly Mode[] = ['net', 'tcp-wrap', 'twinport', 'bun-raw', 'bun-twinport']
const isBun = (mode: Mode): boolean => mode.startsWith('bun-')
interface Usage {
  readonly rss: number
  readonly heapUsed: number
}

// ---- the server child -------------------------------------------------------------------

interface TcpHandle {
  onconnection: (err: number, handle: TcpHandle) => void
  onread: () => void
  bind(host: string, port: number): number
  listen(backlog: number): number
  readStart(): number
  setNoDelay(on: boolean): number
  writeLatin1String(req: object, text: string): number
  getsockname(out: { port?: number }): number
}

type FloorMode = Exclude<Mode, 'twinport'>

// Short-lived objects of about `bytes` in all (each ~112 B): what a handshake's garbage costs.
const sink: { last: unknown } = { last: undefined }
const makeGarbage = (bytes: number): void => {
  for (let i = 0; i < bytes / 112; i++) sink.last = { i, pair: [i, i], text: `x${i}` }
}

// On Bun: the raw floor, or twinport's echo routes on `twinport/bun`.
const serveBun = async (mode: 'bun-raw' | 'bun-twinport'): Promise<number> => {
  if (mode === 'bun-twinport') {
    const { runServer } = await import('../lib/bun/run-server.js')
    const { echoOptions, echoRoutes } = await import('../examples/echo-routes.js')
    const server = await runServer({ host: '127.0.0.1', port: 0, routes: echoRoutes, ...echoOptions, logger: undefined })
    return server.address.port
  }
  const bun = (globalThis as { Bun?: BunApi }).Bun as BunApi
  const listener = bun.listen<{ answered: boolean }>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(socket) {
        socket.data = { answered: false }
        socket.setNoDelay(true)
      },
      data(socket) {
        if (socket.data.answered) return
        socket.data.answered = true
        socket.write(new TextEncoder().encode(RESPONSE))
      },
      drain: () => undefined,
      end: () => undefined,
      close: () => undefined,
      error: () => undefined,
    },
  })
  return listener.port
}

const serve = async (mode: FloorMode, garbage: number): Promise<number> => {
  if (mode === 'bun-raw' || mode === 'bun-twinport') return serveBun(mode)
  const kept: unknown[] = []
  if (mode === 'net') {
    const { createServer } = await import('node:net')
    const server = createServer({ noDelay: true }, (socket) => {
      socket.on('error', () => socket.destroy())
      socket.once('data', () => {
        socket.write(RESPONSE)
        makeGarbage(garbage)
      })
      kept.push(socket)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    return typeof address === 'object' && address !== null ? address.port : 0
  }
  // Private API, on purpose: this is the floor a library could reach only by using it.
  const binding = (process as unknown as { binding(name: string): Record<string, unknown> }).binding
  const { TCP, constants } = binding('tcp_wrap') as { TCP: new (type: number) => TcpHandle; constants: { SERVER: number } }
  const { WriteWrap } = binding('stream_wrap') as { WriteWrap: new () => object }
  const server = new TCP(constants.SERVER)
  server.bind('127.0.0.1', 0)
  server.onconnection = (err, handle) => {
    if (err !== 0) return
    handle.setNoDelay(true)
    // The upgrade request is read and dropped; the canned 101 goes out once.
    let answered = false
    handle.onread = () => {
      if (answered) return
      answered = true
      const req = Object.assign(new WriteWrap(), { handle, oncomplete: () => undefined })
      handle.writeLatin1String(req, RESPONSE)
      makeGarbage(garbage)
    }
    handle.readStart()
    kept.push(handle)
  }
  server.listen(511)
  const out: { port?: number } = {}
  server.getsockname(out)
  return out.port ?? 0
}

const usage = (): Usage => {
  const m = process.memoryUsage()
  return { rss: m.rss, heapUsed: m.heapUsed }
}

const child = async (mode: FloorMode, garbage: number): Promise<void> => {
  const port = await serve(mode, garbage)
  process.on('message', (message: unknown) => {
    if (message === 'gc') {
      const bun = (globalThis as { Bun?: { gc(full: boolean): void } }).Bun
      if (bun === undefined) (globalThis as { gc?: () => void }).gc?.()
      else bun.gc(true)
    }
    process.send?.(usage())
  })
  process.send?.({ port })
}

// ---- the load side ----------------------------------------------------------------------

const open = (port: number, n: number, into: Socket[]): Promise<void> =>
  new Promise((resolve, reject) => {
    let left = n
    if (left === 0) return resolve()
    for (let i = 0; i < n; i++) {
      const socket = connect({ host: '127.0.0.1', port, noDelay: true }, () => socket.write(REQUEST))
      socket.once('data', () => {
        if (--left === 0) resolve()
      })
      socket.on('error', reject)
      into.push(socket)
    }
  })

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const measure = async (mode: Mode, clients: number, base: number): Promise<Record<string, string>> => {
  const script = mode === 'twinport' ? TWINPORT : new URL(import.meta.url).pathname
  const port = mode === 'twinport' ? 6200 : 0
  const server = fork(script, mode === 'twinport' ? [] : ['--serve', mode, '--garbage', String(garbageBytes)], {
    ...(isBun(mode) ? { execPath: BUN } : {}),
    execArgv: isBun(mode)
      ? []
      : ['--expose-gc', ...nodeFlags, ...(mode === 'twinport' ? ['--import', `data:text/javascript,${encodeURIComponent(PROBE)}`] : ['--import', 'tsx'])],
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  const ask = (what: 'usage' | 'gc'): Promise<Usage> =>
    new Promise((resolve) => {
      server.once('message', (m) => resolve(m as Usage))
      server.send(what)
    })
  try {
    const ready = await new Promise<{ port: number }>((resolve) => server.once('message', (m) => resolve(m as { port: number })))
    const { execFileSync } = await import('node:child_process')
    execFileSync('taskset', ['-pc', '0', String(server.pid)], { stdio: 'ignore' })
    const sockets: Socket[] = []
    for (let opened = 0; opened < base; opened += 100) await open(ready.port, Math.min(100, base - opened), sockets)
    await sleep(1000)
    const a = await ask('usage')
    const ag = await ask('gc')
    for (let opened = base; opened < clients; opened += 100) await open(ready.port, Math.min(100, clients - opened), sockets)
    await sleep(1500)
    const b = await ask('usage')
    const bg = await ask('gc')
    for (const s of sockets) s.destroy()
    const per = (x: number, y: number): string => ((y - x) / (clients - base) / 1024).toFixed(2)
    return { mode, 'RSS KiB': per(a.rss, b.rss), 'heap KiB': per(a.heapUsed, b.heapUsed), 'RSS after GC': per(ag.rss, bg.rss), 'heap after GC': per(ag.heapUsed, bg.heapUsed) }
  } finally {
    server.kill()
  }
}

// The twinport child reports its port and usage through the same messages.
const PROBE = `
const port = Number(process.env.PORT)
process.on('message', (m) => { if (m === 'gc') globalThis.gc?.(); const u = process.memoryUsage(); process.send({ rss: u.rss, heapUsed: u.heapUsed }) })
setTimeout(() => process.send({ port }), 500)
`

const { values } = parseArgs({
  options: {
    serve: { type: 'string' },
    clients: { type: 'string', default: '10000' },
    base: { type: 'string', default: '500' },
    modes: { type: 'string', default: 'net,tcp-wrap,twinport' },
    'node-flags': { type: 'string', default: '' },
    garbage: { type: 'string', default: '0' },
  },
})
const garbageBytes = Math.max(0, Number(values.garbage) || 0)
// Flags for the server processes, e.g. `--node-flags=--max-semi-space-size=1`.
const nodeFlags = (values['node-flags'] ?? '').split(' ').filter((f) => f !== '')

const serveMode = MODES.find((m) => m === values.serve && m !== 'twinport') as FloorMode | undefined
if (serveMode !== undefined) await child(serveMode, garbageBytes)
else {
  const modes = (values.modes ?? '').split(',').filter((m): m is Mode => (MODES as readonly string[]).includes(m))
  const rows: Record<string, string>[] = []
  for (const mode of modes) {
    if (mode === 'twinport' && !existsSync(TWINPORT)) {
      console.log(`twinport: ${TWINPORT} missing (npx tsc -p tsconfig.bench.json)`)
      continue
    }
    if (isBun(mode) && !existsSync(BUN)) {
      console.log(`${mode}: ${BUN} missing (npm ci installs it)`)
      continue
    }
    const row = await measure(mode, Number(values.clients), Number(values.base))
    rows.push(garbageBytes === 0 || mode === 'twinport' || isBun(mode) ? row : { ...row, mode: `${mode} +${garbageBytes} B garbage` })
  }
  console.table(rows)
}
