/**
 * Harness `engine`: the engine as a whole on random byte streams, through the in-memory
 * platform of the engine specs (spec/support/memory-platform.ts). Each input is one
 * connection: after a selector byte, the bytes go to the receiver in pieces (as reads), either
 * as they are or after a valid WebSocket upgrade request (so frames, pipelined requests and
 * the upgrade itself are reached), then the connection goes away. Checked: the engine never
 * throws; it writes only byte arrays; what it writes first on a connection is an HTTP/1.1
 * status line (a response or the 101); the work per input is bounded (writes at most a fixed
 * multiple of the input); after the connection is gone the engine lists no client.
 */
import { httpRoute } from '../../lib/core/route/http-route.js'
import { socketOn } from '../../lib/core/route/socket-on.js'
import { createEngine } from '../../lib/engine/create-engine.js'
import { memoryPlatform, type MemorySocket } from '../../spec/support/memory-platform.js'
import { expect, plainBytes, splitPoint } from '../support/contract.js'

const UPGRADE = new TextEncoder().encode(
  'GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
)

const engine = createEngine(
  {
    routes: [
      httpRoute('GET', '/hello', () => ({ hello: 'world' })),
      httpRoute('POST', '/echo', (req) => req.rawBody),
      socketOn('echo', (data) => data),
    ],
  },
  memoryPlatform(),
)

const HTTP = [...'HTTP/1.1 '].map((c) => c.charCodeAt(0))

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  const socket: MemorySocket = { out: [], ended: false, closed: false }
  const client = engine.accept(socket)
  expect(client !== undefined, 'the engine accepts a connection')
  if (client === undefined) return
  const body = data.subarray(1)
  const wire = (data[0] ?? 0) & 1 ? Uint8Array.from([...UPGRADE, ...body]) : body
  const k = splitPoint(wire)
  for (const piece of [wire.subarray(0, k), wire.subarray(k)]) if (piece.length > 0 && !socket.closed) client.receiver.receive(piece)
  socket.closed = true
  engine.closed(client)
  expect(socket.out.every((b) => b instanceof Uint8Array), 'writes are bytes')
  const first = socket.out[0]
  if (first !== undefined && first.length >= HTTP.length) expect(HTTP.every((c, i) => first[i] === c), 'the first bytes written are a status line')
  const written = socket.out.reduce((n, b) => n + b.length, 0)
  expect(written <= 64 * wire.length + 4096, `wrote ${written} bytes for ${wire.length}`)
  expect(engine.handle.clients().length === 0, 'no client left')
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))

/** Stops the engine's timers, so the corpus replay can end. */
export const close = (): Promise<void> => engine.handle.close()
