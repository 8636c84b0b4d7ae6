/**
 * Server-Sent Events clients in the engine, on an in-memory platform (portable: Node, Bun and
 * Deno): an `sseRoute` request becomes a client of the registry (type `sse`, in its rooms,
 * reached by `send` and `broadcast`); a broadcast's event bytes are built once and the same
 * array is written to every event-stream receiver; HTTP/1.0 gets the stream delimited by the
 * close; HEAD gets the head alone; binary messages skip event-stream receivers.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { onConnect } from '../../lib/core/route/on-connect.js'
import { rawBinary, rawText } from '../../lib/core/route/raw-message.js'
import { sseRoute } from '../../lib/core/route/sse-route.js'
import type { Client } from '../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../lib/engine/create-engine.js'
import type { Platform } from '../../lib/engine/platform.js'
import { memoryPlatform, type MemorySocket } from '../support/memory-platform.js'

const utf8 = new TextEncoder()
const text = (bytes: readonly Uint8Array[]): string => bytes.map((b) => new TextDecoder().decode(b)).join('')
const tick = (ms = 10): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

// The memory platform, keeping the very arrays written (not copies): one encode is one array.
const platform = (): Platform<MemorySocket> => {
  const base = memoryPlatform<MemorySocket>()
  return { ...base, io: { ...base.io, write: (s, bytes) => void s.out.push(bytes) } }
}

// Every client opened, to report gone when the engine closes (as an adapter would).
const opened: Client<MemorySocket>[] = []
const close = async (engine: Engine<MemorySocket>): Promise<void> => {
  const closing = engine.handle.close()
  for (const client of opened.splice(0)) engine.closed(client)
  await closing
}

const open = async (engine: Engine<MemorySocket>, request: string): Promise<{ socket: MemorySocket; client: Client<MemorySocket> }> => {
  const socket: MemorySocket = { out: [], ended: false, closed: false }
  const client = engine.accept(socket) as Client<MemorySocket>
  opened.push(client)
  client.receiver.receive(utf8.encode(request))
  await tick()
  return { socket, client }
}
const GET = (path: string, protocol = 'HTTP/1.1'): string => `GET ${path} ${protocol}\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`

test('createEngine/sse :: an event-stream client is a client: type sse, its rooms, send and broadcast reach it', async () => {
  const connected: string[] = []
  const engine = createEngine({ recovery: false, cors: false, routes: [sseRoute('/events', { rooms: ['r'] }), onConnect((ctx) => void connected.push(ctx.request.path))] }, platform())
  try {
    const c = await open(engine, GET('/events'))
    assert.equal(connected, ['/events'])
    assert.equal(engine.handle.clients(), [{ id: c.client.id, type: 'sse' }])
    assert.equal(engine.handle.namespaces.clientsInRoom('r'), [c.client.id])
    const head = text(c.socket.out)
    assert.match(head, /^HTTP\/1\.1 200 OK\r\nContent-Type: text\/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\nCache-Control: no-cache\r\nX-Accel-Buffering: no\r\n/)
    assert.match(head, /\r\nConnection: close\r\n\r\n$/)
    c.socket.out.length = 0
    assert.is(engine.handle.send(c.client.id, 'one', 1), true)
    assert.is(engine.handle.broadcast('two', 2, { room: 'r' }), 1)
    assert.is(text(c.socket.out), '20\r\ndata: {"event":"one","data":1}\n\n\r\n20\r\ndata: {"event":"two","data":2}\n\n\r\n')
  } finally {
    await close(engine)
  }
})

test('createEngine/sse :: a broadcast is encoded once: the same array goes to every event-stream receiver', async () => {
  const engine = createEngine({ recovery: false, routes: [sseRoute('/events', { rooms: ['r'] })] }, platform())
  try {
    const clients = [await open(engine, GET('/events')), await open(engine, GET('/events')), await open(engine, GET('/events'))]
    for (const c of clients) c.socket.out.length = 0
    engine.handle.broadcastRaw(rawText('a\nb'), { room: 'r' })
    engine.handle.broadcast('e', { x: 1 })
    const [first, ...others] = clients.map((c) => c.socket.out)
    assert.is(first?.length, 2)
    for (const out of others) {
      assert.is(out[0], first?.[0])
      assert.is(out[1], first?.[1])
    }
    assert.is(text(first ?? []), '11\r\ndata: a\ndata: b\n\n\r\n24\r\ndata: {"event":"e","data":{"x":1}}\n\n\r\n')
  } finally {
    await close(engine)
  }
})

test('createEngine/sse :: a binary message has no event-stream form: skipped, not counted', async () => {
  const engine = createEngine({ recovery: false, routes: [sseRoute('/events', { rooms: ['r'] })] }, platform())
  try {
    const c = await open(engine, GET('/events'))
    c.socket.out.length = 0
    assert.is(engine.handle.broadcastRaw(rawBinary(new Uint8Array([1, 2])), { room: 'r' }), 0)
    assert.is(engine.handle.sendRaw(c.client.id, rawBinary(new Uint8Array([1]))), false)
    assert.equal(c.socket.out, [])
  } finally {
    await close(engine)
  }
})

test('createEngine/sse :: HTTP/1.0: no chunks, the stream ends with the connection; HEAD: the head alone, no client', async () => {
  const engine = createEngine({ recovery: false, routes: [sseRoute('/events', { retry: 500 })] }, platform())
  try {
    const old = await open(engine, GET('/events', 'HTTP/1.0'))
    const all = text(old.socket.out)
    assert.not.match(all, /Transfer-Encoding/)
    assert.ok(all.endsWith('\r\n\r\nretry: 500\n\n'), all)
    old.socket.out.length = 0
    engine.handle.broadcast('e', 1)
    assert.is(text(old.socket.out), 'data: {"event":"e","data":1}\n\n')
    const head = await open(engine, 'HEAD /events HTTP/1.1\r\nHost: x\r\n\r\n')
    assert.match(text(head.socket.out), /^HTTP\/1\.1 200 OK\r\nContent-Type: text\/event-stream/)
    assert.equal(engine.handle.clients().map((c) => c.type), ['sse', 'http'])
  } finally {
    await close(engine)
  }
})

test('createEngine/sse :: disconnectClient ends the stream with its last chunk', async () => {
  const engine = createEngine({ recovery: false, routes: [sseRoute('/events')] }, platform())
  try {
    const c = await open(engine, GET('/events'))
    c.socket.out.length = 0
    engine.handle.disconnectClient(c.client.id)
    assert.is(text(c.socket.out), '0\r\n\r\n')
    assert.ok(c.socket.ended)
  } finally {
    await close(engine)
  }
})

test.run()
