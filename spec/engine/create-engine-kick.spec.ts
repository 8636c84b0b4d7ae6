/**
 * Kicks and refusals (issue 28): `disconnectClient(id, { code, reason })` with a checked
 * 4000–4999 code, here and on another node, and a refused upgrade as a close code for a client
 * that asks for it (`tp_c=1`, or the session query `tp_v=1`).
 */
import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { unauthorized } from '../../lib/core/http/response.js'
import { onConnect } from '../../lib/core/route/on-connect.js'
import { onDisconnect } from '../../lib/core/route/on-disconnect.js'
import { socketOn } from '../../lib/core/route/socket-on.js'
import { upgradeMiddleware } from '../../lib/core/route/upgrade-middleware.js'
import { parseClosePayload } from '../../lib/core/ws/close-payload.js'
import { decodeFrame } from '../../lib/core/ws/decode-frame.js'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../lib/core/ws/frame.js'
import type { Client } from '../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../lib/engine/create-engine.js'
import type { ServerOptions } from '../../lib/engine/options/server-options.js'
import { memoryHub } from '../support/memory-cluster.js'
import { memoryPlatform, type MemorySocket } from '../support/memory-platform.js'

const utf8 = new TextEncoder()
const tick = (ms = 15): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const events: string[] = []
const routes = [
  onConnect((ctx) => void events.push(`connect ${ctx.clientId}`)),
  onDisconnect((ctx) => void events.push(`disconnect ${ctx.clientId}`)),
  socketOn('leave-me', (_data, ctx) => ctx.disconnectClient(undefined, { code: 4001, reason: 'asked' })),
]

interface Conn {
  readonly socket: MemorySocket
  readonly client: Client<MemorySocket>
}
const open = async (engine: Engine<MemorySocket>, query = ''): Promise<Conn> => {
  const socket: MemorySocket = { out: [], ended: false, closed: false }
  const client = engine.accept(socket) as Client<MemorySocket>
  client.receiver.receive(utf8.encode(`GET /?${query} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`))
  await tick()
  return { socket, client }
}
const written = (c: Conn): Uint8Array => Uint8Array.from(c.socket.out.flatMap((b) => [...b]))
const head = (c: Conn): string => {
  const text = new TextDecoder('latin1').decode(written(c))
  return text.slice(0, text.indexOf('\r\n\r\n'))
}
// The close frame the server wrote after the head: its code and reason.
const closeOf = (c: Conn): { code: number | undefined; reason: string } | undefined => {
  const all = written(c)
  let rest: Uint8Array = all.subarray(new TextDecoder('latin1').decode(all).indexOf('\r\n\r\n') + 4)
  for (;;) {
    const step = decodeFrame(rest, { maxPayload: 1 << 20, requireMask: false })
    if (E.isLeft(step) || step.right._tag === 'NeedMore') return undefined
    const frame = step.right.value
    if (frame.opcode === OPCODE.CLOSE) {
      const info = parseClosePayload(frame.payload)
      return E.isRight(info) ? { code: info.right.code, reason: info.right.reason } : undefined
    }
    rest = step.right.rest
  }
}
const drop = (engine: Engine<MemorySocket>, c: Conn): void => {
  c.socket.closed = true
  engine.closed(c.client)
}
const engineWith = (options: ServerOptions = {}): Engine<MemorySocket> => createEngine({ routes, ...options }, memoryPlatform())

test('disconnectClient :: a kick closes with its code and reason, ends the session (not parked), runs onDisconnect', async () => {
  events.length = 0
  const engine = engineWith()
  const c = await open(engine, 'tp_v=1')
  const id = c.client.id
  engine.handle.disconnectClient(id, { code: 4403, reason: 'banned' })
  assert.equal(closeOf(c), { code: 4403, reason: 'banned' })
  drop(engine, c)
  await tick()
  assert.equal(events, [`connect ${id}`, `disconnect ${id}`])
  assert.equal(engine.handle.clients(), [])
  await engine.handle.close()
})

test('disconnectClient :: without options it closes with 1000; from a handler, with the context’s own id', async () => {
  const engine = engineWith()
  const plain = await open(engine)
  engine.handle.disconnectClient(plain.client.id)
  assert.equal(closeOf(plain), { code: 1000, reason: '' })
  const self = await open(engine)
  self.client.receiver.receive(encodeFrameBytes({ opcode: OPCODE.TEXT, payload: utf8.encode('{"event":"leave-me"}') }, Uint8Array.of(1, 2, 3, 4)))
  await tick()
  assert.equal(closeOf(self), { code: 4001, reason: 'asked' })
  drop(engine, plain)
  drop(engine, self)
  await engine.handle.close()
})

test('disconnectClient :: a code out of 4000–4999, a reason over 123 bytes, a reason without code: RangeError, nothing closed', async () => {
  const engine = engineWith()
  const c = await open(engine)
  const id = c.client.id
  assert.throws(() => engine.handle.disconnectClient(id, { code: 1000, reason: 'x' }), (e: unknown) => e instanceof RangeError && /1000 is not 4000-4999/.test(e.message))
  assert.throws(() => engine.handle.disconnectClient(id, { code: 5000 }), RangeError)
  assert.throws(() => engine.handle.disconnectClient(id, { code: 4000.5 }), RangeError)
  assert.throws(() => engine.handle.disconnectClient(id, { code: 4000, reason: 'é'.repeat(62) }), (e: unknown) => e instanceof RangeError && /124 bytes/.test(e.message))
  assert.throws(() => engine.handle.disconnectClient(id, { reason: 'why' }), RangeError)
  engine.handle.disconnectClient(id, { code: 4000, reason: 'é'.repeat(61) + 'x' })
  assert.equal(closeOf(c)?.reason, 'é'.repeat(61) + 'x')
  drop(engine, c)
  await engine.handle.close()
})

test('cluster.disconnectClient :: a kick reaches a client of another node with its code and reason', async () => {
  const hub = memoryHub()
  const a = engineWith({ cluster: hub.node('a') })
  const b = engineWith({ cluster: hub.node('b') })
  const c = await open(b)
  const result = await a.handle.cluster.disconnectClient(b.handle.cluster.idOf(c.client.id), { code: 4409, reason: 'elsewhere' })
  assert.equal(result, { found: true, missingNodes: [] })
  assert.equal(closeOf(c), { code: 4409, reason: 'elsewhere' })
  assert.throws(() => a.handle.cluster.disconnectClient('b/1', { code: 999 }), RangeError)
  drop(b, c)
  await Promise.all([a.handle.close(), b.handle.close()])
})

const auth = upgradeMiddleware(() => unauthorized('bad token'))

test('refused upgrade :: a client asking for close codes (tp_c=1) gets the 101, then close 4401 with the reason; no handler runs', async () => {
  events.length = 0
  const engine = engineWith({ httpMiddleware: [auth] })
  for (const query of ['tp_c=1', 'tp_v=1&tp_b=4096']) {
    const c = await open(engine, query)
    assert.match(head(c), /^HTTP\/1\.1 101 /)
    assert.equal(closeOf(c), { code: 4401, reason: 'bad token' })
    assert.ok(c.socket.ended)
    assert.equal(engine.handle.clients(), [{ id: c.client.id, type: 'http' }])
    c.client.receiver.receive(utf8.encode('anything'))
    drop(engine, c)
  }
  assert.equal(events, [])
  assert.equal(engine.handle.clients(), [])
  await engine.handle.close()
})

test('refused upgrade :: the cut timer is cleared once the socket is gone; a client that never closes is cut after closeTimeoutMs', async () => {
  const platform = memoryPlatform<MemorySocket>()
  const pending = new Set<unknown>()
  const timers = platform.timers
  const counting = {
    ...platform,
    timers: {
      ...timers,
      setTimeout: (run: () => void, ms: number) => {
        const id: unknown = timers.setTimeout(() => {
          pending.delete(id)
          run()
        }, ms)
        pending.add(id)
        return id as ReturnType<typeof timers.setTimeout>
      },
      clearTimeout: (id: ReturnType<typeof timers.setTimeout>) => {
        pending.delete(id)
        timers.clearTimeout(id)
      },
    },
  }
  const engine = createEngine({ routes, httpMiddleware: [auth], limits: { closeTimeoutMs: 40 } }, counting)
  const gone = await open(engine, 'tp_c=1')
  const before = pending.size
  drop(engine, gone)
  assert.is(pending.size, before - 1, 'the refusal’s timer cleared')
  const stays = await open(engine, 'tp_c=1')
  assert.not.ok(stays.socket.closed)
  await tick(80)
  assert.ok(stays.socket.closed, 'cut after closeTimeoutMs')
  drop(engine, stays)
  await engine.handle.close()
})

test('refused upgrade :: other clients get the HTTP status, as before', async () => {
  const engine = engineWith({ httpMiddleware: [auth] })
  const c = await open(engine, 'tp_c=0')
  assert.match(head(c), /^HTTP\/1\.1 401 /)
  drop(engine, c)
  await engine.handle.close()
})

test.run()
