/**
 * Node's platform less its sockets, for the in-process engine benches (bench/http-engine.ts,
 * bench/ws-echo-engine.ts): what the engine writes is counted, not sent, and a corked socket
 * flushes at its last uncork, so a bench can tell writes per chunk and flushes per chunk.
 */
import { echoOptions, echoRoutes } from '../../examples/echo-routes.js'
import type { Client } from '../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../lib/engine/create-engine.js'
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
  uncork: (s) => {
    s.corked -= 1
    if (s.corked === 0) s.flushes += 1
  },
}

/** Node's platform (allocation, text, masking) over counting sockets. */
export const countingPlatform: Platform<CountingSocket> = { ...(nodePlatform as unknown as Platform<CountingSocket>), io }

/** The echo app's engine over counting sockets (no heartbeat), with `conns` of them accepted. */
export const countingEchoEngine = (
  conns: number,
): { engine: Engine<CountingSocket>; sockets: CountingSocket[]; clients: Client<CountingSocket>[] } => {
  const engine = createEngine({ ...echoOptions, routes: echoRoutes, heartbeatIntervalMs: 0 } as never, countingPlatform)
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
