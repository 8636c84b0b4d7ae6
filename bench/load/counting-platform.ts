/**
 * Node's platform less its sockets, for the in-process engine benches (bench/http-engine.ts,
 * bench/ws-echo-engine.ts, bench/ws-bcast-engine.ts, bench/bun-http/engine-requests.ts): what the engine writes is counted, not sent, and a corked socket
 * flushes at its last uncork, so a bench can tell writes per chunk and flushes per chunk.
 */
import { echoOptions, echoRoutes } from '../../examples/echo-routes.js'
import type { Client } from '../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../lib/engine/create-engine.js'
import type { ServerOptions } from '../../lib/engine/options/server-options.js'
import type { Platform, SocketIo } from '../../lib/engine/platform.js'
import { nodePlatform } from '../../lib/runtime/node-platform.js'

/** A socket as the counting layer keeps it: bytes written, write calls, cork depth, flushes. */
export interface CountingSocket {
  bytes: number
  writes: number
  corked: number
  flushes: number
  ended: boolean
  closed: boolean
}

/** A fresh socket with nothing written. */
export const countingSocket = (): CountingSocket => ({ bytes: 0, writes: 0, corked: 0, flushes: 0, ended: false, closed: false })

const io: SocketIo<CountingSocket> = {
  write: (s, bytes) => {
    s.bytes += bytes.length
    s.writes += 1
    if (s.corked === 0) s.flushes += 1
  },
  buffered: () => 0,
  isClosed: (s) => s.closed,
  isEnded: (s) => s.ended,
  end: (s) => void (s.ended = true),
  destroy: (s) => void (s.closed = true),
  cork: (s) => void (s.corked += 1),
  pause: () => undefined,
  resume: () => undefined,
  uncork: (s) => {
    s.corked -= 1
    if (s.corked === 0) s.flushes += 1
  },
}

/** Node's platform (allocation, text, masking) over counting sockets. */
export const countingPlatform: Platform<CountingSocket> = { ...(nodePlatform as unknown as Platform<CountingSocket>), io }

/**
 * An engine over counting sockets, with `conns` of them accepted: by default the echo app's (its
 * routes and options), else the server `options` given (bench/bun-http/). The heartbeat is the
 * default one: `heartbeatIntervalMs` is a limit of at least 1 ms, and the `heartbeatIntervalMs: 0`
 * this once passed beside the options (cast) was never read.
 */
export const countingEngine = (
  conns: number,
  options: ServerOptions = { ...echoOptions, routes: echoRoutes },
): { engine: Engine<CountingSocket>; sockets: CountingSocket[]; clients: Client<CountingSocket>[] } => {
  const engine = createEngine(options, countingPlatform)
  const sockets: CountingSocket[] = []
  const clients: Client<CountingSocket>[] = []
  for (let i = 0; i < conns; i++) {
    const socket = countingSocket()
    const client = engine.accept(socket)
    if (client === undefined) throw new Error('refused')
    sockets.push(socket)
    clients.push(client)
  }
  return { engine, sockets, clients }
}

/** A client's WebSocket upgrade request for `path` of the echo app, as bytes (a fresh copy per call). */
export const upgradeRequest = (path: string): Uint8Array =>
  new TextEncoder().encode(
    `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  )
