/**
 * The lean WebSocket load client: raw `node:net` sockets, a handshake written
 * once, masked frames built before the run, and server frames counted without
 * decoding payloads, so that the client is not the bottleneck. It measures the
 * server itself (CPU from `/proc/<pid>/stat`, RSS from `/proc/<pid>/status`) at
 * the exact edges of the measured window, reports its own CPU beside it, and
 * prints one `RESULT {json}` line. Targets 127.0.0.1 only; every mode is
 * bounded in time and count and exits by itself (a hard deadline too).
 *
 *   node --import tsx bench/load/ws-client.ts --mode echo --port 7000 --server-pid 123 \
 *     [--dialect ws|socketio] [--conns 50] [--inflight 10] [--ms 5000] [--warmup 1000]
 *   --mode rate  --rate 10000 --conns 50 --ms 5000     fixed-rate latency p50/p99 (evenly paced)
 *   --mode bcast --clients 10000 --repeat 5            time to the last receipt on /bcast
 *   --mode idle  --clients 10000 --base 500            server RSS per idle connection
 *   [--settle 1000]  ms to let the server settle before reading RSS or broadcasting
 *   [--json 4096]    send a realistic JSON message of about this size instead of 32 bytes
 *   [--variants 16]  with --json: rotate through this many different messages of that size
 *   [--offer 'permessage-deflate; client_max_window_bits']  offer compression (RFC 7692): the
 *                    client's messages go out compressed (RSV1) on connections that agreed, and
 *                    the bytes on the wire per message are reported
 */
import { connect, type Socket } from 'node:net'
import { constants, deflateRawSync } from 'node:zlib'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { Worker } from 'node:worker_threads'
import { RESULT_PREFIX, type ClientResult } from './client-result.js'
import { dialectOf, type Room } from './dialect.js'
import { CLK_TCK, processCpuTicks, processRssBytes } from './proc.js'
import { jsonPayload } from './json-payload.js'
import { maskedFrame, OPCODE, scanFrames } from './ws-frames.js'
import { percentile } from '../report/stats.js'

const HOST = '127.0.0.1'

const { values: opt } = parseArgs({
  options: {
    mode: { type: 'string', default: 'echo' },
    port: { type: 'string' },
    'server-pid': { type: 'string' },
    dialect: { type: 'string', default: 'ws' },
    conns: { type: 'string', default: '50' },
    inflight: { type: 'string', default: '10' },
    ms: { type: 'string', default: '5000' },
    warmup: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '10000' },
    clients: { type: 'string', default: '10000' },
    repeat: { type: 'string', default: '5' },
    base: { type: 'string', default: '500' },
    payload: { type: 'string', default: '32' },
    concurrency: { type: 'string', default: '200' },
    deadline: { type: 'string', default: '120000' },
    settle: { type: 'string', default: '1000' },
    json: { type: 'string', default: '0' },
    variants: { type: 'string', default: '1' },
    offer: { type: 'string', default: '' },
  },
})

const num = (name: keyof typeof opt): number => {
  const n = Number(opt[name])
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number, got ${String(opt[name])}`)
  return n
}
const mode = opt.mode as ClientResult['mode']
const port = num('port')
const serverPid = num('server-pid')
const dialect = dialectOf(opt.dialect ?? 'ws')
if (dialect === undefined) throw new Error(`--dialect must be ws or socketio, got ${String(opt.dialect)}`)
if (!['echo', 'rate', 'bcast', 'idle'].includes(mode)) throw new Error(`unknown --mode ${mode}`)
// The ticker sleeps 1/rate between messages: past this it could not sleep at all, and both
// threads would spin on a machine the server shares.
const MAX_RATE = 200_000
if (mode === 'rate' && (num('rate') < 1 || num('rate') > MAX_RATE)) throw new Error(`--rate must be from 1 to ${MAX_RATE} messages a second, got ${String(opt.rate)}`)

// 32 printable bytes by default: the message every contender echoes or broadcasts; or JSON,
// in one or more variants (messages that differ, as an application's do).
const PAYLOADS: readonly string[] =
  num('json') > 0
    ? Array.from({ length: Math.max(1, num('variants')) }, (_, v) => jsonPayload(num('json'), v))
    : ['twinport-bench-0123456789abcdefghijklmnopqrstuvwxyz'.repeat(1 + (num('payload') >> 5)).slice(0, num('payload'))]
const KEY = new Uint8Array([0x37, 0xfa, 0x21, 0x3d])
const OFFER = opt.offer ?? ''
// RFC 7692 §7.2.1: DEFLATE with a sync flush, the trailing 00 00 ff ff left off. Compressed
// on its own (no window carried over), which is valid whatever context takeover was agreed.
const deflate = (bytes: Uint8Array): Uint8Array => {
  const out = deflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH })
  return out.subarray(0, out.length - 4)
}
const frameFor = (room: Room, compressed = false, variant = 0): Buffer => {
  const message = new TextEncoder().encode(dialect.wrap(room, PAYLOADS[variant % PAYLOADS.length]!))
  return Buffer.from(compressed ? maskedFrame(OPCODE.text, deflate(message), KEY, true) : maskedFrame(OPCODE.text, message, KEY))
}

let failures = 0
let lastError = ''

interface Conn {
  readonly socket: Socket
  /** the server agreed on permessage-deflate. */
  deflate: boolean
  state: 'handshake' | 'preamble' | 'open'
  pending: Buffer | null
  preambleLeft: number
  /** send times of the messages in flight (rate mode only). */
  readonly sent: number[]
}

/** Called with the number of complete messages a connection just received. */
let onMessages: (c: Conn, n: number) => void = () => {}

const open = (room: Room, done: (c: Conn | undefined) => void): void => {
  const onread = (nread: number, buf: Uint8Array): boolean => {
    bytesIn += nread
    receive(c, room, settle, (buf as Buffer).subarray(0, nread))
    return true
  }
  const socket = connect({ host: HOST, port, noDelay: true, onread: { buffer: SHARED, callback: onread } })
  const c: Conn = { socket, deflate: false, state: 'handshake', pending: null, preambleLeft: dialect.preambleFrames, sent: [] }
  let settled = false
  const settle = (ok: boolean): void => {
    if (settled) return
    settled = true
    if (!ok) failures++
    done(ok ? c : undefined)
  }
  socket.on('connect', () => {
    socket.write(
      `GET ${dialect.path(room)} HTTP/1.1\r\nHost: ${HOST}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' +
        (OFFER === '' ? '' : `Sec-WebSocket-Extensions: ${OFFER}\r\n`) +
        '\r\n',
    )
  })
  socket.on('error', (err) => {
    lastError = err.message
    settle(false)
  })
  socket.on('close', () => {
    if (settled && c.state === 'open' && !finished) {
      failures++
      lastError = 'server closed a connection during the run'
    }
    settle(false)
  })
}

/*
 * Reads go through `onread` into one buffer shared by every socket: no Buffer per
 * read and no stream machinery, which is most of a Node client's cost. A chunk is
 * handled synchronously before the next read, so only an incomplete tail is copied.
 */
const SHARED = Buffer.allocUnsafe(256 * 1024)
/** Bytes read from every socket, handshakes included. */
let bytesIn = 0

const receive = (c: Conn, room: Room, settle: (ok: boolean) => void, chunk: Buffer): void => {
  let buf = c.pending === null ? chunk : Buffer.concat([c.pending, chunk])
  c.pending = null
  if (c.state === 'handshake') {
    const end = buf.indexOf('\r\n\r\n')
    if (end < 0) {
      c.pending = Buffer.from(buf)
      return
    }
    const status = buf.subarray(0, buf.indexOf('\r\n')).toString('latin1')
    if (!status.startsWith('HTTP/1.1 101')) {
      lastError = `upgrade refused: ${status}`
      settle(false)
      c.socket.destroy()
      return
    }
    c.deflate = /\r\nsec-websocket-extensions:[ \t]*permessage-deflate/i.test(buf.subarray(0, end + 2).toString('latin1'))
    buf = buf.subarray(end + 4)
    c.state = c.preambleLeft > 0 ? 'preamble' : 'open'
    if (c.state === 'open') settle(true)
  }
  let extra = 0
  if (c.state === 'preamble') {
    const scan = scanFrames(buf, () => {
      if (c.preambleLeft === 0) return void extra++
      if (c.preambleLeft === dialect.preambleFrames) {
        const greet = dialect.greet(room)
        if (greet !== undefined) c.socket.write(maskedFrame(OPCODE.text, new TextEncoder().encode(greet), KEY))
      }
      c.preambleLeft--
    })
    if (scan.consumed < buf.length) c.pending = Buffer.from(buf.subarray(scan.consumed))
    if (c.preambleLeft === 0) {
      c.state = 'open'
      settle(true)
    }
    if (extra > 0) onMessages(c, extra)
    return
  }
  const scan = scanFrames(buf)
  if (scan.consumed < buf.length) c.pending = Buffer.from(buf.subarray(scan.consumed))
  if (scan.messages > 0) onMessages(c, scan.messages)
  if (scan.closed) c.socket.destroy()
}

/** Opens `n` connections, at most `concurrency` handshakes at a time; resolves with those that opened. */
const openAll = (n: number, room: Room): Promise<Conn[]> =>
  new Promise((resolve) => {
    const conns: Conn[] = []
    const limit = Math.max(1, num('concurrency'))
    let started = 0
    let settled = 0
    const next = (): void => {
      while (started < n && started - settled < limit) {
        started++
        open(room, (c) => {
          settled++
          if (c !== undefined) conns.push(c)
          if (settled === n) resolve(conns)
          else next()
        })
      }
    }
    if (n === 0) resolve(conns)
    else next()
  })

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

interface Mark {
  readonly t: number
  readonly server: number
  readonly client: NodeJS.CpuUsage
}
const mark = (): Mark => ({ t: performance.now(), server: processCpuTicks(serverPid) ?? Number.NaN, client: process.cpuUsage() })
const span = (a: Mark, b: Mark): Pick<ClientResult, 'ms' | 'serverCpuMs' | 'clientCpuMs'> => ({
  ms: b.t - a.t,
  serverCpuMs: ((b.server - a.server) * 1000) / CLK_TCK,
  clientCpuMs: (b.client.user - a.client.user + b.client.system - a.client.system) / 1000,
})

let finished = false
let everyone: Conn[] = []

// With --offer, every connection must have agreed: the frames are built compressed.
const agreement = (): Pick<ClientResult, 'agreed'> => (OFFER === '' ? {} : { agreed: everyone.filter((c) => c.deflate).length })

const echo = async (): Promise<ClientResult> => {
  const inflight = Math.max(1, num('inflight'))
  // Every variant in a ring of frames, long enough to take `inflight` of them from any point.
  const ring = PAYLOADS.map((_, v) => frameFor('echo', OFFER !== '', v))
  const frameBytes = ring.reduce((sum, f) => sum + f.length, 0) / ring.length
  const wrap = Buffer.concat(Array.from({ length: ring.length + inflight }, (_, i) => ring[i % ring.length]!))
  const offsets = [0]
  for (let i = 0; i < ring.length + inflight; i++) offsets.push(offsets[i]! + ring[i % ring.length]!.length)
  let next = 0
  // The next `k` frames of the ring (k ≤ inflight), as one view: no copy per write.
  const take = (k: number): Buffer => {
    const from = next
    next = (next + k) % ring.length
    return wrap.subarray(offsets[from]!, offsets[from + k]!)
  }
  everyone = await openAll(num('conns'), 'echo')
  if (everyone.length === 0) return fail('echo', 'no connection opened')
  if (OFFER !== '' && everyone.some((c) => !c.deflate)) return fail('echo', 'permessage-deflate was offered and not agreed')
  let received = 0
  let refill = true
  onMessages = (c, n) => {
    received += n
    if (!refill) return
    for (let left = n; left > 0; left -= inflight) c.socket.write(take(Math.min(left, inflight)))
  }
  for (const c of everyone) c.socket.write(take(inflight))
  await sleep(num('warmup'))
  const a = mark()
  const r0 = received
  const in0 = bytesIn
  await sleep(num('ms'))
  const b = mark()
  const messages = received - r0
  const wire = { down: (bytesIn - in0) / Math.max(1, messages), up: frameBytes }
  refill = false
  return { mode: 'echo', ok: messages > 0, failures, messages, ...span(a, b), wire, ...agreement() }
}

/*
 * Fixed rate: one message every 1/rate, round robin over the connections, each stamped when
 * it is written; its latency ends when its echo is read. Node's timers count whole
 * milliseconds, so a worker thread keeps the clock: it sleeps to each send time (`Atomics.wait`
 * takes fractional milliseconds) and bumps a shared count, which the main thread awaits with
 * `Atomics.waitAsync` between reads. Both threads sleep between events (no spinning, so other
 * processes on the machine do not starve the client), a message is never queued behind the
 * client's own writes, and an echo is read when it arrives. (A 1 ms interval sending what was
 * due in one burst measured mostly the client's burst: see bench/README.md, "Latency".) A
 * client that falls behind catches up at once: the rate holds, and those messages are stamped
 * when they actually leave.
 */
const TICKER = `
const { workerData } = require('node:worker_threads')
const shared = new Int32Array(workerData.shared)
const nap = new Int32Array(new SharedArrayBuffer(4))
const t0 = performance.now()
for (let n = 1; Atomics.load(shared, 1) === 0; n++) {
  const wait = t0 + n * workerData.every - performance.now()
  if (wait > 0) Atomics.wait(nap, 0, 0, wait)
  Atomics.store(shared, 0, n)
  Atomics.notify(shared, 0)
}`
// Node has had Atomics.waitAsync since 16; TypeScript types it from lib es2024.
type WaitAsync = (array: Int32Array, index: number, value: number) => { readonly async: boolean; readonly value: Promise<string> | string }
const waitAsync = (Atomics as unknown as { readonly waitAsync: WaitAsync }).waitAsync

const rate = async (): Promise<ClientResult> => {
  const frame = frameFor('echo')
  everyone = await openAll(num('conns'), 'echo')
  if (everyone.length === 0) return fail('rate', 'no connection opened')
  const latencies: number[] = []
  let measuring = false
  let received = 0
  onMessages = (c, n) => {
    const now = performance.now()
    received += n
    for (let i = 0; i < n; i++) {
      const t = c.sent.shift()
      if (measuring && t !== undefined) latencies.push(now - t)
    }
  }
  // [messages due so far, stop]
  const shared = new Int32Array(new SharedArrayBuffer(8))
  let sent = 0
  const due = (): void => {
    const n = Atomics.load(shared, 0)
    for (; sent < n; sent++) {
      const c = everyone[sent % everyone.length]!
      c.sent.push(performance.now())
      c.socket.write(frame)
    }
    if (Atomics.load(shared, 1) !== 0) return
    const next = waitAsync(shared, 0, n)
    if (typeof next.value === 'string') setImmediate(due)
    else void next.value.then(due)
  }
  const ticker = new Worker(TICKER, { eval: true, workerData: { shared: shared.buffer, every: 1000 / num('rate') } })
  due()
  await sleep(num('warmup'))
  measuring = true
  const a = mark()
  const r0 = received
  await sleep(num('ms'))
  const b = mark()
  measuring = false
  Atomics.store(shared, 1, 1)
  await ticker.terminate()
  latencies.sort((x, y) => x - y)
  return {
    mode: 'rate',
    ok: latencies.length > 0,
    failures,
    messages: received - r0,
    ...span(a, b),
    latency: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? Number.NaN, samples: latencies.length },
  }
}

const bcast = async (): Promise<ClientResult> => {
  everyone = await openAll(num('clients'), 'bcast')
  const expected = everyone.length
  const sender = everyone[0]
  if (sender === undefined) return fail('bcast', 'no connection opened')
  if (OFFER !== '' && everyone.some((c) => !c.deflate)) return fail('bcast', 'permessage-deflate was offered and not agreed')
  const frames = PAYLOADS.map((_, v) => frameFor('bcast', sender.deflate, v))
  await sleep(num('settle') / 2)
  let got = 0
  let total = 0
  let wake: () => void = () => {}
  onMessages = (_c, n) => {
    got += n
    total += n
    if (got >= expected) wake()
  }
  const times: number[] = []
  const in0 = bytesIn
  const a = mark()
  for (let i = 0; i < num('repeat'); i++) {
    got = 0
    const arrived = new Promise<boolean>((resolve) => {
      wake = () => resolve(true)
      setTimeout(() => resolve(false), 15_000)
    })
    const t = performance.now()
    sender.socket.write(frames[i % frames.length]!)
    const ok = await arrived
    times.push(ok ? performance.now() - t : Number.NaN)
    if (!ok) lastError = `broadcast ${i + 1}: ${got} of ${expected} receipts within 15 s`
    await sleep(Math.min(300, num('settle')))
  }
  const b = mark()
  const wire = { down: (bytesIn - in0) / Math.max(1, total) }
  return {
    mode: 'bcast', ok: times.every(Number.isFinite), ...(lastError === '' ? {} : { error: lastError }), failures, messages: total, ...span(a, b),
    broadcasts: times, wire, ...agreement(),
  }
}

const idle = async (): Promise<ClientResult> => {
  const clients = num('clients')
  const base = Math.min(num('base'), clients)
  const a = mark()
  const first = await openAll(base, 'echo')
  await sleep(num('settle'))
  const rssBase = processRssBytes(serverPid) ?? Number.NaN
  const rest = await openAll(clients - base, 'echo')
  everyone = [...first, ...rest]
  await sleep(num('settle') * 1.5)
  const rssFull = processRssBytes(serverPid) ?? Number.NaN
  const b = mark()
  return {
    mode: 'idle',
    ok: everyone.length === clients,
    ...(everyone.length === clients ? {} : { error: `${clients - everyone.length} connections failed: ${lastError}` }),
    failures,
    messages: 0,
    ...span(a, b),
    memory: { base: first.length, full: everyone.length, rssBase, rssFull },
    ...agreement(),
  }
}

const fail = (m: ClientResult['mode'], why: string): ClientResult => ({
  mode: m,
  ok: false,
  error: `${why}${lastError === '' ? '' : `: ${lastError}`}`,
  failures,
  ms: 0,
  messages: 0,
  serverCpuMs: 0,
  clientCpuMs: 0,
})

const report = (result: ClientResult): void => {
  finished = true
  const r = result.error === undefined && lastError !== '' ? { ...result, error: lastError } : result
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(r)}\n`, () => {
    for (const c of everyone) c.socket.destroy()
    process.exit(r.ok ? 0 : 1)
  })
}

const deadline = setTimeout(() => report(fail(mode, `deadline of ${num('deadline')} ms reached`)), num('deadline'))
deadline.unref()

const run = { echo, rate, bcast, idle }[mode]
report(await run())
