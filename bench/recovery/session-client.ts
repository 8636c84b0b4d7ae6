/**
 * The lean WebSocket clients of `bench/recovery-store.ts`: raw `node:net` sockets that speak
 * RFC 6455 and, when asked, twinport's session protocol (docs/protocol.md "Sessions"): they
 * connect with `tp_v=1`, keep the `sid` of `tp:session` and the `seq` of the last numbered
 * message, and resume with `tp_sid` and `tp_last` on any node. In counting mode only the
 * `tp:session` message is decoded and every later one is counted from its frame header (as
 * bench/cluster.ts's clients, so 10,000 of them stay cheap); in parsing mode every message
 * is decoded, numbered ones already processed (`seq` not above the last) are dropped as the
 * protocol says, and the `n` of each `t` event is kept. Reads land in one shared buffer.
 */
import { connect, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import { afterUpgradeAnswer, scanFrames } from '../load/ws-frames.js'

/** One `tp:session` the client got. */
export interface SessionAnswer {
  readonly recovered: boolean
  readonly resync: string | undefined
  /** performance.now() when it arrived. */
  readonly at: number
}

export interface SessionClient {
  socket: Socket
  /** Opts in to sessions (`tp_v=1`). */
  readonly session: boolean
  /** Decodes every message (else counts them). */
  readonly parse: boolean
  state: 'handshake' | 'session' | 'open'
  pending: Buffer | null
  /** Data messages after `tp:session` (heartbeats included, none come in these runs). */
  received: number
  sid: string | undefined
  lastSeq: number
  readonly sessions: SessionAnswer[]
  /** Parsing mode: the `n` of each `t` event accepted, in order. */
  readonly ticks: number[]
  /** Parsing mode: numbered messages dropped because their `seq` was not above the last. */
  overlap: number
}

/** Told of every client's progress; set by the benchmark. */
export interface ClientHooks {
  message(c: SessionClient): void
  session(c: SessionClient): void
  close(c: SessionClient): void
}

export const hooks: ClientHooks = { message: () => undefined, session: () => undefined, close: () => undefined }

const HOST = '127.0.0.1'
const SHARED = Buffer.allocUnsafe(256 * 1024)
const text = new TextDecoder()

interface Envelope {
  readonly event?: string
  readonly data?: { readonly n?: number; readonly sid?: string; readonly recovered?: boolean; readonly resync?: string }
  readonly seq?: number
}

const onMessage = (c: SessionClient, payload: Uint8Array, ready: (ok: boolean) => void): void => {
  if (c.state === 'session' || c.parse) {
    const m = JSON.parse(text.decode(payload)) as Envelope
    if (m.event === 'tp:session') {
      c.sid = m.data?.sid
      if (m.data?.recovered !== true) c.lastSeq = 0
      c.sessions.push({ recovered: m.data?.recovered === true, resync: m.data?.resync, at: performance.now() })
      c.state = 'open'
      hooks.session(c)
      return ready(true)
    }
    if (m.event === 'tp:heartbeat') return
    if (typeof m.seq === 'number') {
      if (m.seq <= c.lastSeq) return void (c.overlap += 1)
      c.lastSeq = m.seq
    }
    if (m.event === 't' && typeof m.data?.n === 'number') c.ticks.push(m.data.n)
  }
  c.received += 1
}

const onChunk = (c: SessionClient, chunk: Buffer, ready: (ok: boolean) => void): void => {
  let buf = c.pending === null ? chunk : Buffer.concat([c.pending, chunk])
  c.pending = null
  if (c.state === 'handshake') {
    const rest = afterUpgradeAnswer(buf)
    if (rest === undefined) return void (c.pending = Buffer.from(buf))
    if (rest === false) return ready(false)
    buf = rest
    c.state = c.session ? 'session' : 'open'
    if (c.state === 'open') ready(true)
  }
  const before = c.received
  const decode = c.parse || c.state === 'session'
  const scan = scanFrames(buf, decode ? (_op, payload) => onMessage(c, payload, ready) : undefined)
  if (!decode) c.received += scan.messages
  if (scan.consumed < buf.length) c.pending = Buffer.from(buf.subarray(scan.consumed))
  if (c.received > before) hooks.message(c)
}

const dial = (c: SessionClient, port: number, path: string): Promise<SessionClient> =>
  new Promise((resolve, reject) => {
    let settled = false
    const ready = (ok: boolean): void => {
      if (settled) return
      settled = true
      if (ok) resolve(c)
      else reject(new Error(`upgrade refused on ${port}`))
    }
    c.state = 'handshake'
    c.pending = null
    const socket = connect({
      host: HOST,
      port,
      noDelay: true,
      onread: { buffer: SHARED, callback: (n, buf) => (onChunk(c, (buf as Buffer).subarray(0, n), ready), true) },
    })
    c.socket = socket
    socket.on('connect', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${HOST}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    )
    socket.on('error', (error) => {
      if (!settled) {
        settled = true
        reject(error)
      }
    })
    socket.on('close', () => {
      if (c.socket === socket) hooks.close(c)
      ready(false)
    })
  })

/** Opens one client; resolves once it is open (with a session: once `tp:session` came). */
export const openClient = (port: number, session: boolean, parse: boolean): Promise<SessionClient> => {
  const c: SessionClient = {
    socket: undefined as unknown as Socket,
    session,
    parse,
    state: 'handshake',
    pending: null,
    received: 0,
    sid: undefined,
    lastSeq: 0,
    sessions: [],
    ticks: [],
    overlap: 0,
  }
  return dial(c, port, session ? '/?tp_v=1' : '/')
}

/** Opens `n` clients, 200 at a time. */
export const openClients = async (port: number, n: number, session: boolean, parse = false): Promise<SessionClient[]> => {
  const out: SessionClient[] = []
  for (let i = 0; i < n; i += 200) out.push(...(await Promise.all(Array.from({ length: Math.min(200, n - i) }, () => openClient(port, session, parse)))))
  return out
}

/** Reconnects a session client to `port`, asking to resume; resolves on its `tp:session`. */
export const resumeClient = (c: SessionClient, port: number): Promise<SessionClient> =>
  dial(c, port, `/?tp_v=1&tp_sid=${encodeURIComponent(c.sid ?? '')}&tp_last=${c.lastSeq}`)

/** Closes clients without a close frame (their sessions stay, as after a network failure). */
export const dropClients = (clients: readonly SessionClient[]): void => {
  for (const c of clients) c.socket.destroy()
}
