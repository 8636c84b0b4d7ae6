/**
 * WebSocket end to end: events and acks, bad input, rooms, ping, lifecycle hooks, handshake
 * refusals, protocol errors and their close codes, fragmentation, middleware, slow
 * consumers, heartbeat, graceful close and the handle's operations. The server is an app of
 * spec/integration/fixtures/ws.ts, served by the runtime TWINPORT_TARGET names; the clients are
 * Node's `ws` and raw sockets.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../lib/core/ws/frame.js'
import { serve } from '../support/fixture-server.js'
import { closeCodeOf, delay, eventually, openClient, rawConnect, rawExchange, rawWebSocket, statusOf } from '../support/server.js'

const MASK = new Uint8Array([1, 2, 3, 4])
const masked = (opcode: number, payload: Uint8Array, fin = true): Uint8Array => encodeFrameBytes({ opcode, payload, fin }, MASK)

const Ws = suite('runServer :: WebSocket')

Ws('events are dispatched; an id gets an ack with the return value; without id nothing comes back', async () => {
  const { server, port } = await serve('ws', 'chat')
  try {
    const c = await openClient(port)
    c.emit('echo', { x: [1, 'two'] }, 'r1')
    assert.equal(await c.nextJson(), { event: 'ack', id: 'r1', data: { x: [1, 'two'] } })
    c.emit('add', { a: 2, b: 3 })
    c.emit('add', { a: 2, b: 40 }, 7)
    assert.equal(await c.nextJson(), { event: 'ack', id: 7, data: 42 })
    c.emit('destructured', 'hey')
    const told = await c.nextJson()
    assert.equal(told, { event: 'told', data: { text: 'hey', clientId: (await server.clients())[0]?.id } })
    c.emit('remember', 'kept', 1)
    assert.equal(await c.nextJson(), { event: 'ack', id: 1, data: 'kept' })
    c.ws.close()
  } finally {
    await server.close()
  }
})

Ws('bad input gets an error event and the connection stays usable', async () => {
  const { server, port } = await serve('ws', 'chat')
  try {
    const c = await openClient(port)
    c.ws.send('{not json')
    const invalidJson = await c.nextJson()
    assert.is(invalidJson.event, 'error')
    assert.is((invalidJson.data as { error: string }).error, 'invalid_json')
    c.ws.send('{"data": 1}')
    assert.is(((await c.nextJson()).data as { error: string }).error, 'invalid_message')
    c.emit('nope', 1, 'u')
    const unknown = await c.nextJson()
    assert.equal([unknown.event, unknown.id, (unknown.data as { error: string }).error], ['error', 'u', 'unknown_event'])
    c.emit('add', { a: 'x', b: 1 }, 'p')
    const invalid = await c.nextJson()
    assert.is((invalid.data as { error: string }).error, 'invalid_payload')
    assert.match(JSON.stringify(invalid.data), /a/)
    c.emit('fail', null, 'f')
    const failed = await c.nextJson()
    assert.is((failed.data as { error: string }).error, 'handler_error')
    assert.match(String((await server.records()).find((r) => r.level === 'error')?.context.exception), /handler broke/)
    c.emit('cyclic', null, 'cy')
    const cyclic = await c.nextJson()
    assert.equal([cyclic.event, cyclic.id, (cyclic.data as { error: string }).error], ['error', 'cy', 'handler_error'])
    c.emit('add', { a: 1, b: 1 }, 'ok')
    assert.equal(await c.nextJson(), { event: 'ack', id: 'ok', data: 2 })
    c.ws.close()
  } finally {
    await server.close()
  }
})

Ws('rooms: a broadcast to a room reaches its members only; a broadcast to all reaches hundreds', async () => {
  const { server, port } = await serve('ws', 'chat')
  try {
    const [a, b, c] = await Promise.all([openClient(port), openClient(port), openClient(port)])
    if (a === undefined || b === undefined || c === undefined) throw new Error('clients')
    a.emit('join', 'red', 1)
    b.emit('join', 'red', 1)
    await a.nextJson()
    await b.nextJson()
    a.emit('say', { room: 'red', text: 'hi' })
    assert.equal((await b.nextJson()).data, { from: (await server.clients())[0]?.id, text: 'hi' })
    assert.equal((await a.nextJson()).event, 'said')
    await delay(30)
    assert.is(c.pending.length, 0, 'not in the room')
    const many = await Promise.all(Array.from({ length: 200 }, () => openClient(port)))
    const reached = await server.broadcast('news', { n: 1 })
    assert.is(reached, 203)
    const got = await Promise.all(many.map((m) => m.nextJson(5000)))
    assert.ok(got.every((m) => m.event === 'news'))
    assert.is(await server.broadcast('news', 2, { room: 'red', except: (await server.clients())[0]?.id }), 1)
    for (const m of [a, b, c, ...many]) m.ws.terminate()
  } finally {
    await server.close()
  }
})

Ws('ping is answered with pong carrying the same payload', async () => {
  const { server, port } = await serve('ws', 'chat')
  try {
    const c = await openClient(port)
    const pong = new Promise<string>((resolve) => c.ws.once('pong', (data: Buffer) => resolve(data.toString())))
    c.ws.ping('are you there')
    assert.is(await pong, 'are you there')
    c.ws.close()
  } finally {
    await server.close()
  }
})

Ws('onConnect and onDisconnect run exactly once per client; a refused handshake runs neither', async () => {
  const { server, port } = await serve('ws', 'lifecycle', { allowedOrigins: ['https://ok.example'] })
  const events = (): Promise<readonly string[]> => server.probe('events')
  try {
    const refused = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nOrigin: https://evil.example\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
    assert.is(statusOf(refused), 403)
    const c = await openClient(port, '/', { origin: 'https://ok.example' })
    await eventually(async () => (await events()).length === 1)
    c.ws.close(1000)
    await c.closed()
    await eventually(async () => (await events()).length === 2)
    await delay(20)
    const seen = await events()
    assert.is(seen.length, 2)
    assert.match(seen[0] ?? '', /^in \d+$/)
    assert.is(seen[1], seen[0]?.replace('in', 'out'))
  } finally {
    await server.close()
  }
})

Ws('handshake refusals: wrong version gets 426 with the supported version', async () => {
  const { server, port } = await serve('ws', 'chat')
  try {
    const text = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n')
    assert.is(statusOf(text), 426)
    assert.match(text, /Sec-WebSocket-Version: 13/i)
  } finally {
    await server.close()
  }
})

const failures: ReadonlyArray<readonly [string, (ws: { write(b: Uint8Array): void }) => void, number]> = [
  ['an unmasked frame', (ws) => ws.write(encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new Uint8Array([104, 105]) })), 1002],
  ['a reserved opcode', (ws) => ws.write(masked(3, new Uint8Array(0))), 1002],
  ['invalid UTF-8 in a text message', (ws) => ws.write(masked(OPCODE.TEXT, new Uint8Array([0xc3, 0x28]))), 1007],
  ['a frame over the limit', (ws) => ws.write(masked(OPCODE.TEXT, new Uint8Array(2000).fill(97))), 1009],
  ['a binary message with no raw route', (ws) => ws.write(masked(OPCODE.BINARY, new Uint8Array([1]))), 1003],
  ['a continuation without a start', (ws) => ws.write(masked(OPCODE.CONTINUATION, new Uint8Array([1]))), 1002],
]

Ws('protocol errors close with the RFC code, and other clients are unaffected', async () => {
  const { server, port } = await serve('ws', 'chat', { limits: { maxFramePayload: 1024 } })
  try {
    const bystander = await openClient(port)
    for (const [what, send, code] of failures) {
      const raw = await rawWebSocket(port)
      send(raw)
      await raw.until(() => raw.frames().some((f) => f.opcode === OPCODE.CLOSE))
      const close = raw.frames().find((f) => f.opcode === OPCODE.CLOSE)
      assert.is(closeCodeOf(close), code, what)
      raw.socket.destroy()
      bystander.emit('echo', what, what)
      assert.equal(await bystander.nextJson(), { event: 'ack', id: what, data: what })
    }
    bystander.ws.close()
  } finally {
    await server.close()
  }
})

Ws('invalid UTF-8 fails the connection on the read that brings it, before the rest of the frame', async () => {
  const { server, port } = await serve('ws', 'chat')
  try {
    const raw = await rawWebSocket(port)
    // A text frame announcing 60,000 bytes (a 16-bit length: 8 header bytes with the key):
    // "ok" then ff, and the rest never sent.
    const frame = masked(OPCODE.TEXT, new Uint8Array([0x6f, 0x6b, 0xff, ...new Uint8Array(59_997).fill(0x61)]))
    raw.write(frame.subarray(0, 8 + 2))
    await delay(20)
    assert.is(raw.frames().length, 0, 'valid so far: nothing to say')
    raw.write(frame.subarray(8 + 2, 8 + 3))
    await raw.until(() => raw.frames().some((f) => f.opcode === OPCODE.CLOSE))
    assert.is(closeCodeOf(raw.frames().find((f) => f.opcode === OPCODE.CLOSE)), 1007)
    raw.socket.destroy()
  } finally {
    await server.close()
  }
})

Ws('the close handshake: the client\'s close is echoed and the server closes TCP', async () => {
  const { server, port } = await serve('ws', 'chat')
  try {
    const raw = await rawWebSocket(port)
    raw.write(masked(OPCODE.CLOSE, new Uint8Array([0x03, 0xe8, 0x62, 0x79, 0x65])))
    await raw.closed()
    const close = raw.frames().find((f) => f.opcode === OPCODE.CLOSE)
    assert.is(closeCodeOf(close), 1000)
  } finally {
    await server.close()
  }
})

Ws('a fragmented message with an interleaved ping is assembled', async () => {
  const { server, port } = await serve('ws', 'chat')
  try {
    const raw = await rawWebSocket(port)
    const text = new TextEncoder().encode('{"event":"echo","data":"héllo","id":1}')
    raw.write(masked(OPCODE.TEXT, text.subarray(0, 20), false))
    raw.write(masked(OPCODE.PING, new Uint8Array([7])))
    raw.write(masked(OPCODE.CONTINUATION, text.subarray(20), true))
    await raw.until(() => raw.frames().length >= 2)
    const [pong, ack] = raw.frames()
    assert.is(pong?.opcode, OPCODE.PONG)
    assert.equal([...(pong?.payload ?? [])], [7])
    assert.equal(JSON.parse(new TextDecoder().decode(ack?.payload)), { event: 'ack', id: 1, data: 'héllo' })
    raw.socket.destroy()
  } finally {
    await server.close()
  }
})

Ws('WebSocket middleware runs in onion order, can rewrite data and answer early', async () => {
  const { server, port } = await serve('ws', 'middleware')
  try {
    const c = await openClient(port)
    c.emit('echo', 'x', 1)
    assert.equal(await c.nextJson(), { event: 'ack', id: 1, data: 'mw:x' })
    assert.equal(await server.probe('order'), ['outer in', 'rewrite', 'outer out'])
    c.emit('blocked', null)
    assert.is(((await c.nextJson()).data as { message: string }).message, 'blocked by policy')
    c.ws.close()
  } finally {
    await server.close()
  }
})

Ws('a slow consumer past its send buffer is disconnected; others keep receiving', async () => {
  const { server, port } = await serve('ws', 'chat', { limits: { maxSendBuffer: 64 * 1024 } })
  try {
    const slow = await rawWebSocket(port)
    slow.socket.pause() // never reads: its kernel buffers fill, then the server's
    const fast = await openClient(port)
    const big = 'x'.repeat(32 * 1024)
    let received = 0
    fast.ws.on('message', () => {
      received += 1
    })
    const bothOpen = async (): Promise<boolean> => {
      const clients = await server.clients()
      return clients.some((c) => c.type === 'ws' && c.id !== undefined) && clients.length === 2
    }
    for (let i = 0; i < 400 && (await bothOpen()); i++) {
      await server.broadcast('big', big)
      await delay(1)
    }
    await eventually(async () => (await server.clients()).length === 1, 5000, 'the slow consumer to be dropped')
    assert.ok((await server.records()).some((r) => /slow consumer/.test(r.message)))
    await server.broadcast('after', 1)
    await eventually(() => fast.pending.some((m) => m.toString().includes('"after"')) || received > 0, 3000, 'the fast client to keep receiving')
    fast.ws.terminate()
    slow.socket.destroy()
  } finally {
    await server.close()
  }
})

Ws('heartbeat: a client that answers no ping is dropped', async () => {
  const { server, port } = await serve('ws', 'chat', { limits: { heartbeatIntervalMs: 150 } })
  try {
    const mute = await rawWebSocket(port) // reads pings, never answers
    await mute.closed(3000)
    assert.ok(mute.frames().some((f) => f.opcode === OPCODE.PING))
    const alive = await openClient(port) // ws answers pings by itself
    await delay(600)
    assert.is(alive.ws.readyState, alive.ws.OPEN)
    alive.ws.close()
  } finally {
    await server.close()
  }
})

Ws('graceful close: WebSocket clients get 1001 and close() resolves', async () => {
  const { server, port } = await serve('ws', 'chat')
  const a = await openClient(port)
  const b = await openClient(port)
  await server.close()
  assert.equal((await a.closed()).code, 1001)
  assert.equal((await b.closed()).code, 1001)
})

Ws('server operations: send, clients with types, client data, disconnectClient', async () => {
  const { server, port } = await serve('ws', 'chat')
  try {
    const c = await openClient(port)
    const id = (await server.clients()).find((x) => x.type === 'ws')?.id ?? -1
    assert.ok(await server.send(id, 'hello', [1]))
    assert.equal(await c.nextJson(), { event: 'hello', data: [1] })
    assert.not.ok(await server.send(9999, 'hello'))
    await server.setClientData(id, 'k', 'v')
    assert.is(await server.getClientData(id, 'k'), 'v')
    assert.equal(await server.getClientData(id), { k: 'v' })
    await server.joinRoom(4242, 'ghost') // no such WebSocket client: no stale member
    assert.equal(await server.namespaces.listRooms(), [])
    await server.joinRoom(id, 'r', '/ns')
    assert.equal(await server.namespaces.clientsInRoom('r', '/ns'), [id])
    await server.leaveRoom(id, 'r', '/ns')
    assert.equal(await server.namespaces.clientsInRoom('r', '/ns'), [])
    await server.disconnectClient(id)
    assert.is((await c.closed()).code, 1000)
    await eventually(async () => (await server.clients()).length === 0)
    assert.equal(await server.namespaces.clientsInNamespace(), [])
  } finally {
    await server.close()
  }
})

Ws('HTTP middleware sees the upgrade request and may refuse it (authentication)', async () => {
  const { server, port } = await serve('ws', 'guarded')
  try {
    const refused = await rawExchange(port, 'GET /?token=bad HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
    assert.is(statusOf(refused), 401)
    const raw = await rawWebSocket(port, '/?token=good')
    assert.match(raw.received().toString(), /^HTTP\/1\.1 101[\s\S]*X-Seen: yes\r\n/)
    raw.socket.destroy()
    const c = await openClient(port, '/?token=good')
    c.emit('echo', 'in', 1)
    assert.equal(await c.nextJson(), { event: 'ack', id: 1, data: 'in' })
    c.ws.close()
  } finally {
    await server.close()
  }
})

Ws('a client that leaves while the middleware decides its upgrade is not taken over; the server keeps serving', async () => {
  const { server, port } = await serve('ws', 'heldUpgrade')
  try {
    const raw = await rawConnect(port)
    raw.write('GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
    await eventually(async () => (await server.clients()).length === 1)
    await delay(20)
    // A reset, not a FIN: a half-closed connection stays until its upgrade is decided.
    raw.socket.resetAndDestroy()
    await eventually(async () => (await server.clients()).length === 0)
    await server.probe('release')
    await delay(20)
    assert.is(await server.probe('connected'), 0)
    const c = await openClient(port)
    await eventually(async () => (await server.probe('connected')) === 1)
    c.ws.close()
  } finally {
    await server.probe('release')
    await server.close()
  }
})

Ws.run()
