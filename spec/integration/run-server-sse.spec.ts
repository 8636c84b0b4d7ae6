/**
 * Server-Sent Events as a transport of the server (issue 23, DESIGN §8), end to end: the
 * answer's head and wire bytes, `Accept` and the HTTP middleware on its request, an
 * event-stream client as a client of the registry (connect and disconnect handlers, client
 * data, rooms, namespaces, `send`, `broadcast` with `except`, across nodes), its request's
 * signal when it vanishes without a FIN, the slow-consumer rule, an `upgradeGuard` of its path, `Last-Event-ID` resuming its
 * session (and `resync` past the window or across a gap), and the echo app's `GET /events`.
 * The server is an app of spec/integration/fixtures/sse.ts served by the runtime
 * TWINPORT_TARGET names; the clients are Node's `http.get` (spec/support/sse-client.ts), `ws`
 * and raw sockets.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PlainOptions } from '../support/fixture.js'
import { serve } from '../support/fixture-server.js'
import { delay, eventually, openClient, rawConnect, rawExchange, statusOf } from '../support/server.js'
import { openSse } from '../support/sse-client.js'
import { startProxy } from '../support/tcp-proxy.js'
import { connect } from '../../lib/client/connect.js'
import { eventStreamSocket } from '../../lib/client/fallback.js'

const Sse = suite('runServer :: Server-Sent Events')

const HEARTBEAT = 300
const options: PlainOptions = { limits: { heartbeatIntervalMs: HEARTBEAT } }
const envelope = (data: string): { event: string; data: unknown; seq?: number } => JSON.parse(data) as { event: string; data: unknown; seq?: number }

Sse('the head: 200, text/event-stream in UTF-8, no-cache, X-Accel-Buffering: no, chunked; retry first; 406 to a refusing Accept', async () => {
  const { server, port } = await serve('sse', 'main', options)
  try {
    const c = await openSse(port, '/events')
    assert.is(c.status, 200)
    assert.is(c.headers['content-type'], 'text/event-stream; charset=utf-8')
    assert.is(c.headers['cache-control'], 'no-cache')
    assert.is(c.headers['x-accel-buffering'], 'no')
    assert.is(c.headers['transfer-encoding'], 'chunked')
    await c.until(1)
    assert.ok(c.text().startsWith('retry: 1500\n\n'), c.text())
    assert.is(c.reader().retry, 1500)
    c.close()
    const refused = await openSse(port, '/events', { accept: 'application/json' })
    assert.is(refused.status, 406)
    refused.close()
  } finally {
    await server.close()
  }
})

Sse('the HTTP middleware runs on its request: 401 without credentials, a stream with them', async () => {
  const { server, port } = await serve('sse', 'main', options)
  try {
    const refused = await openSse(port, '/private')
    assert.is(refused.status, 401)
    refused.close()
    const admitted = await openSse(port, '/private', { authorization: 'Bearer x' })
    assert.is(admitted.status, 200)
    admitted.close()
  } finally {
    await server.close()
  }
})

// A path's guard (or upgrade middleware) refuses `target` both ways: an event stream gets
// `status` and no stream head, and so does the same target's WebSocket upgrade.
const refusedBothWays = async (port: number, target: string, status: number, opened: { close(): void }[]): Promise<void> => {
  const refused = await openSse(port, target)
  opened.push(refused)
  assert.is(refused.status, status)
  assert.not.ok(String(refused.headers['content-type']).startsWith('text/event-stream'), 'no stream head')
  const upgrade = `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`
  assert.is(statusOf(await rawExchange(port, upgrade)), status)
}

// `target` is admitted: its stream opens, its connect handler runs; the new client's id.
const admittedStream = async (server: Awaited<ReturnType<typeof serve>>['server'], port: number, target: string, opened: { close(): void }[]): Promise<number> => {
  const admitted = await openSse(port, target)
  opened.push(admitted)
  assert.is(admitted.status, 200)
  await eventually(async () => (await server.probe('connects')).length === 1, 2000, 'the connect handler')
  return Number((await server.probe('connects'))[0]?.split(' ')[0])
}

Sse('an upgradeGuard decides event streams to its path as it decides upgrades: 401/403 before the head, admitted with its data', async () => {
  const { server, port } = await serve('sse', 'main', options)
  const opened: { close(): void }[] = []
  try {
    for (const [query, status] of [['', 401], ['?token=nope', 403]] as const) await refusedBothWays(port, `/ops${query}`, status, opened)
    assert.equal(await server.probe('connects'), [], 'no refused stream became a client')
    const id = await admittedStream(server, port, '/ops/?token=secret', opened)
    assert.is(await server.getClientData(id, 'role'), 'ops', 'the admission is the client data')
    assert.equal(await server.namespaces.clientsInRoom('r'), [id])
  } finally {
    for (const c of opened) c.close()
    await server.close()
  }
})

Sse('an upgradeMiddleware decides event streams as it decides upgrades: 401 before the head, admitted with its data', async () => {
  const { server, port } = await serve('sse', 'main', options)
  const opened: { close(): void }[] = []
  try {
    await refusedBothWays(port, '/members', 401, opened)
    assert.equal(await server.probe('connects'), [], 'no refused stream became a client')
    const id = await admittedStream(server, port, '/members?member=ada', opened)
    assert.is(await server.getClientData(id, 'member'), 'ada', 'the admission is the client data')
  } finally {
    for (const c of opened) c.close()
    await server.close()
  }
})

Sse('an event-stream client is a client: connect handler, data, rooms, send, broadcast with except, disconnect', async () => {
  const { server, port } = await serve('sse', 'main', options)
  try {
    const c = await openSse(port, '/events')
    await eventually(async () => (await server.probe('connects')).length === 1, 2000, 'the connect handler')
    const [connect] = await server.probe('connects')
    const id = Number(connect?.split(' ')[0])
    assert.is(connect, `${id} /events`)
    assert.equal(await server.clients(), [{ id, type: 'sse' }])
    assert.is(await server.getClientData(id, 'path'), '/events')
    assert.equal(await server.namespaces.clientsInRoom('r'), [id])
    // A WebSocket client of the same room broadcasts; the event-stream client gets the envelope.
    const ws = await openClient(port, '/ws')
    await eventually(async () => (await server.namespaces.clientsInRoom('r')).length === 2, 2000, 'the ws client in the room')
    ws.ws.send(JSON.stringify({ event: 'say', data: { text: 'hi' } }))
    assert.equal(JSON.parse(await ws.next()), { event: 'said', data: { text: 'hi' } })
    await c.until(2)
    const said = envelope(c.events[1]?.data ?? '')
    assert.is(said.event, 'said')
    assert.equal(said.data, { text: 'hi' })
    // `except` the sender: the event-stream client still gets it.
    ws.ws.send(JSON.stringify({ event: 'sayOthers', data: 2 }))
    await c.until(3)
    assert.is(envelope(c.events[2]?.data ?? '').data, 2)
    // The handle: one client, and a broadcast except the event-stream client.
    assert.is(await server.send(id, 'direct', 'to you'), true)
    await c.until(4)
    assert.equal([envelope(c.events[3]?.data ?? '').event, envelope(c.events[3]?.data ?? '').data], ['direct', 'to you'])
    await server.broadcast('all', 'not you', { room: 'r', except: id })
    assert.is(JSON.parse(await ws.next()).data, 'not you')
    await delay(50)
    assert.is(c.events.length, 4)
    // disconnectClient ends the stream (its last chunk) and runs the disconnect handlers.
    await server.disconnectClient(id)
    await eventually(() => c.ended(), 2000, 'the stream to end')
    await eventually(async () => (await server.probe('disconnects')).includes(id), 2000, 'the disconnect handler')
    ws.ws.close()
  } finally {
    await server.close()
  }
})

Sse('namespaces: a broadcast to another namespace does not reach it; one to its own does', async () => {
  const { server, port } = await serve('sse', 'main', options)
  try {
    const c = await openSse(port, '/other')
    await c.until(1) // its session event
    await eventually(async () => (await server.namespaces.clientsInRoom('r', '/other')).length === 1, 2000, 'the room of /other')
    await server.broadcast('x', 1, { room: 'r' })
    await server.broadcast('x', 2, { room: 'r', namespace: '/other' })
    await c.until(2)
    await delay(50)
    assert.equal(c.events.slice(1).map((e) => envelope(e.data).data), [2])
    c.close()
  } finally {
    await server.close()
  }
})

Sse('the wire, byte for byte: chunked events with id and data, heartbeats', async () => {
  const { server, port } = await serve('sse', 'main', options)
  try {
    const conn = await rawConnect(port)
    conn.write('GET /events?room=q HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n')
    await conn.until((d) => d.includes('tp:session'))
    await server.broadcast('e', 'line', { room: 'q' })
    const body = (text: string): string => text.slice(text.indexOf('\r\n\r\n') + 4)
    const text = (await conn.until((d) => d.toString('latin1').includes('"seq":1'))).toString('latin1')
    const sid = /"sid":"([A-Za-z0-9_-]+)"/.exec(text)?.[1] ?? ''
    const session = `id: ${sid}:0\ndata: {"event":"tp:session","data":{"sid":"${sid}","recovered":false,"heartbeat":${HEARTBEAT}}}\n\n`
    const event = `id: ${sid}:1\ndata: {"event":"e","data":"line","seq":1}\n\n`
    const chunk = (s: string): string => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`
    assert.is(body(text), chunk('retry: 1500\n\n') + chunk(session) + chunk(event))
    // A heartbeat later: for a session client, the tp:heartbeat event (a comment for others).
    await conn.until((d) => d.toString('latin1').endsWith(chunk('data: {"event":"tp:heartbeat"}\n\n')), 3 * HEARTBEAT)
    conn.socket.destroy()
  } finally {
    await server.close()
  }
})

Sse('a client that vanishes without a FIN (stops taking bytes): the connection ends within two heartbeats, the signal aborts, onDisconnect runs', async () => {
  const { server, port } = await serve('sse', 'main', { limits: { heartbeatIntervalMs: HEARTBEAT, maxSendBuffer: 256 * 1024 * 1024 }, recovery: false })
  try {
    const conn = await rawConnect(port)
    conn.write('GET /watched HTTP/1.1\r\nHost: x\r\n\r\n')
    await eventually(async () => (await server.probe('connects')).length === 1, 2000, 'the connect handler')
    conn.socket.pause()
    // Far more than the kernel's buffers hold: a backlog stays on the server's side.
    const big = 'x'.repeat(256 * 1024)
    await server.batch(Array.from({ length: 96 }, () => ['broadcast', 'big', big, { room: 'r' }] as const))
    const sent = Date.now()
    await eventually(async () => (await server.probe('aborted')) === 1, 6 * HEARTBEAT + 2000, 'the signal to abort')
    assert.ok(Date.now() - sent <= 3 * HEARTBEAT + 500, `ended ${Date.now() - sent} ms after the backlog formed (heartbeat ${HEARTBEAT} ms)`)
    await eventually(async () => (await server.probe('disconnects')).length === 1, 2000, 'the disconnect handler')
    conn.socket.destroy()
  } finally {
    await server.close()
  }
})

Sse('a slow reader past maxSendBuffer is dropped like a slow WebSocket client', async () => {
  const { server, port } = await serve('sse', 'main', { limits: { heartbeatIntervalMs: 30_000, maxSendBuffer: 512 * 1024 }, recovery: false })
  try {
    const c = await openSse(port, '/events')
    await eventually(async () => (await server.probe('connects')).length === 1, 2000, 'the connect handler')
    c.socket.pause()
    const big = 'y'.repeat(128 * 1024)
    for (let i = 0; i < 20; i++) await server.batch(Array.from({ length: 10 }, () => ['broadcast', 'big', big, { room: 'r' }] as const))
    await eventually(async () => (await server.probe('disconnects')).length === 1, 5000, 'the slow client to be dropped')
    assert.ok((await server.records()).some((r) => r.message.includes('slow consumer')))
    c.close()
  } finally {
    await server.close()
  }
})

Sse('across nodes: a broadcast on one node reaches an event-stream client of another', async () => {
  const hub = `sse-${Date.now()}`
  const a = await serve('sse', 'node', options, { hub, node: 'a' })
  const b = await serve('sse', 'node', options, { hub, node: 'b' })
  try {
    const c = await openSse(b.port, '/events')
    await c.until(1)
    const ws = await openClient(a.port, '/ws')
    await delay(100)
    ws.ws.send(JSON.stringify({ event: 'say', data: 'from a' }))
    await c.until(2)
    assert.is(envelope(c.events[1]?.data ?? '').data, 'from a')
    c.close()
    ws.ws.close()
  } finally {
    await a.server.close()
    await b.server.close()
  }
})

Sse('Last-Event-ID resumes the session: what was missed, in order, once; the same client, no second connect', async () => {
  const { server, port } = await serve('sse', 'main', options)
  try {
    const first = await openSse(port, '/events')
    await first.until(1)
    await server.broadcast('n', 1, { room: 'r' })
    await first.until(2)
    const lastId = first.reader().lastEventId
    const [sid] = lastId.split(':')
    assert.is(lastId, `${sid}:1`)
    first.socket.destroy()
    await eventually(async () => (await server.clients()).length === 0, 2000, 'the first stream to go')
    await server.broadcast('n', 2, { room: 'r' })
    await server.broadcast('n', 3, { room: 'r' })
    const again = await openSse(port, '/events', { 'last-event-id': lastId })
    await again.until(3)
    const session = envelope(again.events[0]?.data ?? '')
    assert.equal(session.data, { sid, recovered: true, heartbeat: HEARTBEAT })
    assert.equal(again.events.slice(1).map((e) => [e.lastEventId, envelope(e.data).data]), [[`${sid}:2`, 2], [`${sid}:3`, 3]])
    await server.broadcast('n', 4, { room: 'r' })
    await again.until(4)
    assert.is(again.events.length, 4)
    assert.is(again.events[3]?.lastEventId, `${sid}:4`)
    assert.is((await server.probe('connects')).length, 1)
    again.close()
  } finally {
    await server.close()
  }
})

Sse('past the window, or across a gap: a fresh session with the resync reason', async () => {
  const { server, port } = await serve('sse', 'main', { ...options, recovery: { windowMs: 200 } })
  try {
    const first = await openSse(port, '/events')
    await first.until(1)
    const lastId = first.reader().lastEventId
    const [sid] = lastId.split(':')
    first.socket.destroy()
    await delay(500)
    const late = await openSse(port, '/events', { 'last-event-id': lastId })
    await late.until(1)
    const fresh = envelope(late.events[0]?.data ?? '').data as { sid: string; recovered: boolean; resync: string }
    assert.is(fresh.recovered, false)
    assert.is(fresh.resync, 'unknown_session')
    assert.is.not(fresh.sid, sid)
    // A cursor ahead of what the session sent is a gap.
    const ahead = await openSse(port, '/events', { 'last-event-id': `${fresh.sid}:99` })
    await ahead.until(1)
    assert.is((envelope(ahead.events[0]?.data ?? '').data as { resync: string }).resync, 'gap')
    late.close()
    ahead.close()
  } finally {
    await server.close()
  }
})

Sse('POST beside the stream: envelopes dispatched as WebSocket messages, acks on the stream, a retried id answered once; 400 and 404', async () => {
  const { server, port } = await serve('sse', 'main', options)
  try {
    const c = await openSse(port, '/events')
    await c.until(1)
    const sid = (envelope(c.events[0]?.data ?? '').data as { sid: string }).sid
    // The events but heartbeats: one comes every HEARTBEAT ms, so on a slow machine between any two.
    const told = () => c.events.filter((e) => envelope(e.data).event !== 'tp:heartbeat')
    const until = (count: number) => eventually(() => told().length >= count, 3000, `${count} events besides heartbeats`)
    const post = (body: string, headers: Record<string, string> = { 'x-twinport-session': sid }): Promise<Response> =>
      fetch(`http://127.0.0.1:${port}/events`, { method: 'POST', headers: { 'content-type': 'text/plain', ...headers }, body })
    assert.is((await post('{"event":"double","data":21,"id":1}')).status, 202)
    await until(2)
    assert.equal(envelope(told()[1]?.data ?? ''), { event: 'ack', id: 1, data: 42, seq: 1 })
    // The same id again (a retry after a lost answer): the answer kept, not a second run.
    assert.is((await post('{"event":"double","data":99,"id":1}')).status, 202)
    await until(3)
    assert.equal(envelope(told()[2]?.data ?? '').data, 42)
    // A batch (RS-separated), a bad envelope, and the handler sees the client's own context.
    assert.is((await post('{"event":"double","data":"x","id":2}\x1enot json')).status, 202)
    await until(5)
    // The bad one is answered at once, the handler's answer when it settles (as on a WebSocket).
    assert.equal(told().slice(3).map((e) => envelope(e.data).event), ['error', 'ack'])
    assert.is(envelope(told()[4]?.data ?? '').data, '/events')
    // A post to the room reaches the WebSocket clients too.
    const ws = await openClient(port, '/ws')
    await eventually(async () => (await server.namespaces.clientsInRoom('r')).length === 2, 2000, 'the ws client in the room')
    assert.is((await post('{"event":"say","data":"from sse"}')).status, 202)
    assert.equal(JSON.parse(await ws.next()), { event: 'said', data: 'from sse' })
    assert.is((await post('{"event":"say","data":1}', {})).status, 400)
    assert.is((await post('{"event":"say","data":1}', { 'x-twinport-session': 'NoSuchSession' })).status, 404)
    ws.ws.close()
    c.close()
  } finally {
    await server.close()
  }
})

Sse('twinport/client over eventStreamSocket: requests, events both ways, and a cut link resumed with Last-Event-ID, nothing lost or doubled', async () => {
  const { server, port } = await serve('sse', 'main', options)
  const proxy = await startProxy(port)
  // Closed whatever happens: a client left open would keep reconnecting after the run.
  const closers: (() => void)[] = []
  try {
    const client = connect(`http://127.0.0.1:${proxy.port}/events`, { WebSocket: eventStreamSocket(), reconnect: { minDelay: 50, maxDelay: 50, maxAttempts: 20 }, timeout: 3000 })
    closers.push(() => client.close())
    const said: unknown[] = []
    const sessions: { id: string; recovered: boolean }[] = []
    client.on('said', (data: unknown) => void said.push(data))
    client.on('session', (s) => void sessions.push(s))
    assert.is(await client.request('double', 21), 42)
    // A WebSocket client of the room hears what the fallback client emits, and the other way round.
    const ws = await openClient(port, '/ws')
    await eventually(async () => (await server.namespaces.clientsInRoom('r')).length === 2, 2000, 'both in the room')
    client.emit('say', 'over SSE')
    assert.equal(JSON.parse(await ws.next()), { event: 'said', data: 'over SSE' })
    await eventually(() => said.length === 1, 2000, 'its own broadcast')
    // The link is cut; broadcasts meanwhile are kept by its session and replayed once.
    proxy.cut()
    await server.broadcast('said', 'while away', { room: 'r' })
    await eventually(() => sessions.length === 2, 3000, 'the session to resume')
    assert.equal(sessions.map((s) => s.recovered), [false, true])
    assert.is(sessions[1]?.id, sessions[0]?.id)
    await server.broadcast('said', 'after', { room: 'r' })
    await eventually(() => said.length === 3, 2000, 'the missed and the next broadcast')
    await delay(100)
    assert.equal(said, ['over SSE', 'while away', 'after'])
    assert.is(await client.request('double', 2), 4)
    assert.is((await server.probe('connects')).filter((c) => c.endsWith('/events')).length, 1)
    client.close()
    // A client that answers server requests: asked on the stream, its answer posted. The
    // closed one may still be listed for a moment (its stream's end is seen when it comes).
    const before = new Set((await server.clients()).filter((c) => c.type === 'sse').map((c) => c.id))
    const asked = connect(`http://127.0.0.1:${port}/events`, { WebSocket: eventStreamSocket(), timeout: 3000 })
    closers.push(() => asked.close())
    asked.handle('confirm', (question: unknown) => `yes to ${String(question)}`)
    await new Promise((resolve) => asked.once('session', resolve))
    const id = (await server.clients()).find((c) => c.type === 'sse' && !before.has(c.id))?.id ?? -1
    assert.equal(await server.requestClient(id, 'confirm', 'this'), { _tag: 'Answered', clientId: id, data: 'yes to this' })
    ws.ws.close()
  } finally {
    for (const close of closers) close()
    await proxy.close()
    await server.close()
  }
})

Sse('the echo app: GET /events is in the /bcast room; a message sent there is one event whose data is its text', async () => {
  const { server, port } = await serve('sse', 'echo')
  try {
    const c = await openSse(port, '/events')
    assert.is(c.status, 200)
    const ws = await openClient(port, '/bcast')
    await eventually(async () => (await server.clients()).length === 2, 2000, 'both clients')
    ws.ws.send('hello, room')
    assert.is(await ws.next(), 'hello, room')
    await c.until(1)
    assert.equal(c.events.map((e) => e.data), ['hello, room'])
    ws.ws.send('two\nlines')
    await c.until(2)
    assert.is(c.events[1]?.data, 'two\nlines')
    c.close()
    ws.ws.close()
  } finally {
    await server.close()
  }
})

Sse.run()
