/**
 * The engine's client registry on an in-memory platform (portable: Node, Bun and Deno): one
 * record per connection, a WebSocket client being a connection whose upgrade was accepted.
 * An HTTP connection is listed but gets no events and joins no room; a WebSocket client that
 * leaves stops being one before its disconnect handlers run, which still read its data.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { onConnect } from '../../lib/core/route/on-connect.js'
import { onDisconnect } from '../../lib/core/route/on-disconnect.js'
import type { SocketContext } from '../../lib/core/route/socket-context.js'
import type { Client } from '../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../lib/engine/create-engine.js'
import { memoryPlatform, type MemorySocket } from '../support/memory-platform.js'

const utf8 = new TextEncoder()
const tick = (ms = 10): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const UPGRADE = 'GET /chat?room=a HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'

interface Conn {
  readonly socket: MemorySocket
  readonly client: Client<MemorySocket>
}
const connect = (engine: Engine<MemorySocket>): Conn => {
  const socket: MemorySocket = { out: [], ended: false, closed: false }
  return { socket, client: engine.accept(socket) as Client<MemorySocket> }
}
const upgrade = async (engine: Engine<MemorySocket>): Promise<Conn> => {
  const conn = connect(engine)
  conn.client.receiver.receive(utf8.encode(UPGRADE))
  await tick()
  return conn
}
const gone = (engine: Engine<MemorySocket>, conn: Conn): void => {
  conn.socket.closed = true
  engine.closed(conn.client)
}

test('createEngine :: an HTTP connection is listed as http, but gets no event and joins no room', async () => {
  const engine = createEngine({}, memoryPlatform())
  try {
    const http = connect(engine)
    const ws = await upgrade(engine)
    assert.equal(engine.handle.clients(), [{ id: http.client.id, type: 'http' }, { id: ws.client.id, type: 'ws' }])
    assert.is(engine.handle.send(http.client.id, 'hi'), false)
    assert.is(engine.handle.send(ws.client.id, 'hi'), true)
    engine.handle.joinRoom(http.client.id, 'r')
    engine.handle.joinRoom(ws.client.id, 'r')
    assert.equal(engine.handle.namespaces.clientsInRoom('r'), [ws.client.id])
    assert.is(engine.handle.broadcast('all'), 1)
    gone(engine, http)
    gone(engine, ws)
    assert.equal(engine.handle.clients(), [])
    assert.equal(engine.handle.namespaces.listRooms(), [])
  } finally {
    await engine.handle.close()
  }
})

test('createEngine :: in onDisconnect the client is no WebSocket client any more, and its data is still there', async () => {
  const seen: unknown[] = []
  const engine = createEngine(
    {
      routes: [
        onConnect((ctx) => ctx.setClientData('name', 'ada')),
        onDisconnect((ctx: SocketContext) => {
          ctx.joinRoom('late')
          seen.push(ctx.getClientData('name'), engine.handle.send(ctx.clientId, 'bye'), engine.handle.clients().length)
        }),
      ],
    },
    memoryPlatform(),
  )
  try {
    const ws = await upgrade(engine)
    const other = await upgrade(engine)
    gone(engine, ws)
    await tick()
    assert.equal(seen, ['ada', false, 2], 'data kept, no delivery, still listed while its handlers run')
    assert.equal(engine.handle.namespaces.listRooms(), [], 'a room joined while leaving is not kept')
    assert.equal(engine.handle.clients(), [{ id: other.client.id, type: 'ws' }])
    assert.is(engine.handle.broadcast('all'), 1)
    gone(engine, other)
  } finally {
    await engine.handle.close()
  }
})

test('createEngine :: close sends 1001 to every WebSocket client, not to the HTTP ones', async () => {
  const engine = createEngine({}, memoryPlatform())
  const http = connect(engine)
  const ws = await upgrade(engine)
  const before = ws.socket.out.length
  const closing = engine.handle.close()
  const frame = ws.socket.out[before]
  assert.ok(frame !== undefined && frame[0] === 0x88 && ((frame[2] ?? 0) << 8 | (frame[3] ?? 0)) === 1001)
  assert.equal(http.socket.out.length, 0)
  gone(engine, http)
  gone(engine, ws)
  await closing
})

test.run()
