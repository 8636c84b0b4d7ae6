/**
 * The engine with a shared recovery store (recovery.store), on an in-memory platform and an
 * in-memory store (portable: runs in Node, Bun and Deno; no Redis): two engines stand for
 * two nodes. A session written by one is resumed by the other with its rooms, its data, its
 * recorded messages after the client's last and what its targets' logs got meanwhile, in
 * order, once; the node it left learns it moved. Every failure is a fresh session with the
 * resync reason, never a hang.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { LogEntry } from '../../lib/core/log/logger.js'
import { makeLogger } from '../../lib/core/log/make-logger.js'
import { socketOn } from '../../lib/core/route/socket-on.js'
import { decodeFrame } from '../../lib/core/ws/decode-frame.js'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../lib/core/ws/frame.js'
import type { Client } from '../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../lib/engine/create-engine.js'
import { inProcessCluster } from '../../lib/engine/cluster/in-process-cluster.js'
import { portableFrames } from '../../lib/engine/delivery/outgoing.js'
import type { Platform } from '../../lib/engine/platform.js'
import type { RecoveryOptions } from '../../lib/engine/options/server-options.js'
import { memoryPlatform, type MemorySocket } from '../support/memory-platform.js'
import { memoryRecoveryStore, type MemoryRecoveryStore } from '../support/memory-recovery-store.js'

interface FakeSocket extends MemorySocket {
  read: number
}

const platform: Platform<FakeSocket> = memoryPlatform<FakeSocket>()

const utf8 = new TextEncoder()
const tick = (ms = 15): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const routes = [
  socketOn('join', t.string, (room, ctx) => ctx.joinRoom(room)),
  socketOn('remember', t.string, (name, ctx) => ctx.setClientData('name', name)),
]

interface Node {
  readonly engine: Engine<FakeSocket>
  readonly entries: LogEntry[]
  readonly conns: Conn[]
}
const node = (id: string, store: MemoryRecoveryStore, recovery: RecoveryOptions = {}): Node => {
  const entries: LogEntry[] = []
  const engine = createEngine(
    { routes, cluster: inProcessCluster(id), logger: makeLogger((e) => entries.push(e)), recovery: { store, flushMs: 1, ...recovery } },
    platform,
  )
  return { engine, entries, conns: [] }
}

interface Conn {
  readonly socket: FakeSocket
  readonly client: Client<FakeSocket>
}
const open = async (n: Node, query: string): Promise<Conn> => {
  const socket: FakeSocket = { out: [], read: 0, ended: false, closed: false }
  const client = n.engine.accept(socket) as Client<FakeSocket>
  client.receiver.receive(utf8.encode(`GET /?${query} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`))
  await tick()
  const conn = { socket, client }
  n.conns.push(conn)
  return conn
}
const say = (c: Conn, text: string): void => c.client.receiver.receive(encodeFrameBytes({ opcode: OPCODE.TEXT, payload: utf8.encode(text) }, Uint8Array.of(1, 2, 3, 4)))

// The JSON messages written since the last call (after the 101's head).
const messages = (c: Conn): Record<string, unknown>[] => {
  const all = new Uint8Array(c.socket.out.reduce((n, b) => n + b.length, 0))
  let at = 0
  for (const b of c.socket.out) {
    all.set(b, at)
    at += b.length
  }
  const head = new TextDecoder('latin1').decode(all).indexOf('\r\n\r\n') + 4
  let rest: Uint8Array = all.subarray(Math.max(head, c.socket.read))
  const out: Record<string, unknown>[] = []
  for (;;) {
    const step = decodeFrame(rest, { maxPayload: 1 << 20, requireMask: false })
    if (E.isLeft(step) || step.right._tag === 'NeedMore') break
    if (step.right.value.opcode === OPCODE.TEXT) out.push(JSON.parse(new TextDecoder().decode(step.right.value.payload)) as Record<string, unknown>)
    rest = step.right.rest
  }
  c.socket.read = all.length - rest.length
  return out
}
const envelope = (event: string, data: unknown): Uint8Array => portableFrames.text(JSON.stringify({ event, data }))
// Closes the engines; the fake sockets end at once (the peer's side of the close).
const close = async (...nodes: Node[]): Promise<void> => {
  await Promise.all(
    nodes.map((n) => {
      const closing = n.engine.handle.close()
      for (const c of n.conns) {
        c.socket.closed = true
        n.engine.closed(c.client)
      }
      return closing
    }),
  )
}

test('recovery store :: a session moves to another node: rooms, data, its recorded messages after the last seen, then its room log, in order, once', async () => {
  const store = memoryRecoveryStore()
  const a = node('a', store)
  const b = node('b', store)
  const first = await open(a, 'tp_v=1')
  const sid = (messages(first)[0]?.['data'] as { sid: string }).sid
  say(first, '{"event":"join","data":"lobby"}')
  say(first, '{"event":"remember","data":"Ada"}')
  await tick()
  a.engine.handle.broadcast('n', 1, { room: 'lobby' })
  a.engine.handle.broadcast('n', 2, { room: 'lobby' })
  a.engine.handle.send(first.client.id, 'd', 1)
  assert.equal(messages(first).map((m) => [m['event'], m['data'], m['seq']]), [['n', 1, 1], ['n', 2, 2], ['d', 1, 3]])
  await tick()
  const record = store.sessions.get(sid)
  assert.equal([record?.rooms, record?.data, record?.lastSeq, record?.node], [['lobby'], { name: 'Ada' }, 3, 'a'])
  assert.equal(Object.keys(record?.cursors ?? {}).sort(), ['', '/', '/\u0000lobby'])

  // The link dies (a keeps the session for its window); a broadcasts to the room (numbered 4
  // for the session and recorded; in the log too: not for the replay from the log), and
  // other nodes broadcast.
  first.socket.closed = true
  a.engine.closed(first.client)
  a.engine.handle.broadcast('n', 99, { room: 'lobby' })
  await tick()
  store.log({ namespace: '/', room: 'lobby' }, envelope('n', 4), 'x')
  store.log({ namespace: '/', room: 'lobby' }, envelope('n', 99), 'a')
  store.log({}, envelope('n', 5), 'x')

  // The client saw up to 2: it gets 3 and 4 (recorded), then 5 (everyone's log) and 4 (its room's).
  const back = await open(b, `tp_v=1&tp_sid=${sid}&tp_last=2`)
  const got = messages(back)
  assert.equal(got[0], { event: 'tp:session', data: { sid, recovered: true, heartbeat: 30000 } })
  assert.equal(got.slice(1).map((m) => [m['event'], m['data'], m['seq']]), [['d', 1, 3], ['n', 99, 4], ['n', 5, 5], ['n', 4, 6]])
  assert.equal(b.engine.handle.namespaces.clientsInRoom('lobby'), [back.client.id])
  assert.equal(b.engine.handle.getClientData(back.client.id), { name: 'Ada' })
  b.engine.handle.broadcast('n', 6, { room: 'lobby' })
  assert.equal(messages(back).map((m) => [m['data'], m['seq']]), [[6, 7]])
  await tick()
  assert.is(store.sessions.get(sid)?.node, 'b')
  assert.equal(store.frames.get(sid)?.map((f) => f.seq), [1, 2, 3, 4, 5, 6, 7])

  // a still held it (parked): its next write is refused, and it lets the session go.
  a.engine.handle.broadcast('n', 7, { room: 'lobby' })
  await tick()
  assert.equal(a.engine.handle.namespaces.clientsInRoom('lobby'), [])
  assert.is(store.sessions.get(sid)?.node, 'b')
  assert.equal(store.frames.get(sid)?.map((f) => f.seq), [1, 2, 3, 4, 5, 6, 7])
  await close(a, b)
})

test('recovery store :: what reaches the client on its new node while the store is read is delivered after the log, once', async () => {
  const store = memoryRecoveryStore()
  const a = node('a', store)
  const b = node('b', store)
  const first = await open(a, 'tp_v=1')
  const sid = (messages(first)[0]?.['data'] as { sid: string }).sid
  say(first, '{"event":"join","data":"lobby"}')
  await tick()
  first.socket.closed = true
  a.engine.closed(first.client)
  await tick()
  // b's own broadcast while nobody held the session: in the log (origin b), not yet delivered.
  const early = envelope('n', 1)
  store.log({ namespace: '/', room: 'lobby' }, early, 'b')
  // Reading the log waits until b broadcasts again: that one reaches the session (held), and
  // enters the log too; it must come once, after the first.
  const read = store.readTargetSince?.bind(store)
  store.readTargetSince = async (target, after) => {
    await tick(5)
    return (read as NonNullable<typeof read>)(target, after)
  }
  const opening = open(b, `tp_v=1&tp_sid=${sid}&tp_last=0`)
  await tick(1)
  const text = '{"event":"n","data":2}'
  b.engine.handle.broadcast('n', 2, { room: 'lobby' })
  store.log({ namespace: '/', room: 'lobby' }, portableFrames.text(text), 'b')
  const back = await opening
  await tick()
  assert.equal(messages(back).slice(1).map((m) => [m['data'], m['seq']]), [[1, 1], [2, 2]])
  await close(a, b)
})

test('recovery store :: a resume that cannot be served: unknown, ahead of the record, store down or silent: a fresh session with the reason', async () => {
  const store = memoryRecoveryStore()
  const a = node('a', store)
  const b = node('b', store, { loadTimeoutMs: 30 })
  const session = async (query: string): Promise<unknown> => messages(await open(b, query))[0]?.['data']
  const unknown = (await session('tp_v=1&tp_sid=nobody&tp_last=0')) as { sid: string }
  assert.equal(unknown, { sid: unknown.sid, recovered: false, heartbeat: 30000, resync: 'unknown_session' })
  assert.is.not(unknown.sid, 'nobody')
  const first = await open(a, 'tp_v=1')
  const sid = (messages(first)[0]?.['data'] as { sid: string }).sid
  a.engine.handle.send(first.client.id, 'd', 1)
  await tick()
  // Seen more than the store recorded: its node died before writing it (the record does not
  // catch up within loadTimeoutMs).
  const behind = open(b, `tp_v=1&tp_sid=${sid}&tp_last=5`)
  await tick(60)
  const ahead = messages(await behind)[0]?.['data'] as { recovered: boolean; resync: string }
  assert.equal([ahead.recovered, ahead.resync], [false, 'gap'])
  store.mode = 'down'
  const down = (await session(`tp_v=1&tp_sid=${sid}&tp_last=1`)) as { resync: string }
  assert.is(down.resync, 'unavailable')
  store.mode = 'hang'
  const opening = open(b, `tp_v=1&tp_sid=${sid}&tp_last=1`)
  await tick(60)
  const silent = messages(await opening)[0]?.['data'] as { resync: string }
  assert.is(silent.resync, 'unavailable')
  assert.ok(b.entries.some((e) => e.level === 'warning' && e.message.startsWith('recovery: the session store did not serve a resume')))
  store.mode = 'ok'
  await close(a, b)
})
test('recovery store :: a client ahead of the record because its old node has not written yet (alive, late) resumes once the write lands, in order, once', async () => {
  const store = memoryRecoveryStore()
  const a = node('a', store)
  const b = node('b', store, { loadTimeoutMs: 2000 })
  const first = await open(a, 'tp_v=1')
  const sid = (messages(first)[0]?.['data'] as { sid: string }).sid
  a.engine.handle.send(first.client.id, 'd', 1)
  await tick()
  assert.is(store.sessions.get(sid)?.lastSeq, 1)
  // a's writes are held back (its event loop is late, its flush waits): the client sees 2 and
  // 3, the store still says 1; the client drops and comes back on b at once, having seen 3.
  const save = store.saveProgress?.bind(store) as NonNullable<typeof store.saveProgress>
  let release = (): void => undefined
  const late = new Promise<void>((resolve) => (release = resolve))
  store.saveProgress = async (session, frames, claim) => {
    if (session.node === 'a') await late
    return save(session, frames, claim)
  }
  a.engine.handle.send(first.client.id, 'd', 2)
  a.engine.handle.send(first.client.id, 'd', 3)
  assert.equal(messages(first).map((m) => [m['data'], m['seq']]), [[1, 1], [2, 2], [3, 3]])
  first.socket.closed = true
  a.engine.closed(first.client)
  const opening = open(b, `tp_v=1&tp_sid=${sid}&tp_last=3`)
  await tick(60)
  assert.is(store.sessions.get(sid)?.lastSeq, 1, 'the record is still behind the client')
  release()
  const back = await opening
  await tick(60)
  const got = messages(back)
  assert.equal(got[0], { event: 'tp:session', data: { sid, recovered: true, heartbeat: 30000 } })
  b.engine.handle.send(back.client.id, 'd', 4)
  assert.equal(messages(back).map((m) => [m['data'], m['seq']]), [[4, 4]])
  assert.is(store.sessions.get(sid)?.node, 'b')
  await close(a, b)
})

test('recovery store :: a session opened while the store is down gets its cursors once it answers, so it can move to another node', async () => {
  const store = memoryRecoveryStore()
  const a = node('a', store)
  const b = node('b', store)
  store.mode = 'down'
  const first = await open(a, 'tp_v=1')
  const sid = (messages(first)[0]?.['data'] as { sid: string }).sid
  a.engine.handle.send(first.client.id, 'd', 1)
  await tick()
  store.mode = 'ok'
  // The journal writes it again, then the cursors asked for again come (within seconds).
  for (let i = 0; i < 300 && Object.keys(store.sessions.get(sid)?.cursors ?? {}).length < 2; i++) await tick(10)
  assert.equal(Object.keys(store.sessions.get(sid)?.cursors ?? {}).sort(), ['', '/'])
  first.socket.closed = true
  a.engine.closed(first.client)
  await tick()
  store.log({}, envelope('n', 2), 'x')
  const back = await open(b, `tp_v=1&tp_sid=${sid}&tp_last=1`)
  const got = messages(back)
  assert.equal(got[0], { event: 'tp:session', data: { sid, recovered: true, heartbeat: 30000 } })
  assert.equal(got.slice(1).map((m) => [m['event'], m['data'], m['seq']]), [['n', 2, 2]])
  await close(a, b)
})

test('recovery store :: a clean close forgets the session; a server shutting down leaves it for another node', async () => {
  const store = memoryRecoveryStore()
  const a = node('a', store)
  const gone = await open(a, 'tp_v=1')
  const goneSid = (messages(gone)[0]?.['data'] as { sid: string }).sid
  const kept = await open(a, 'tp_v=1')
  const keptSid = (messages(kept)[0]?.['data'] as { sid: string }).sid
  say(kept, '{"event":"join","data":"lobby"}')
  await tick()
  assert.ok(store.sessions.has(goneSid) && store.sessions.has(keptSid))
  gone.client.receiver.receive(encodeFrameBytes({ opcode: OPCODE.CLOSE, payload: Uint8Array.of(0x03, 0xe8) }, Uint8Array.of(1, 2, 3, 4)))
  gone.socket.closed = true
  a.engine.closed(gone.client)
  await tick()
  assert.not.ok(store.sessions.has(goneSid), 'a deliberate close ends the session')
  const closing = a.engine.handle.close()
  kept.socket.closed = true
  a.engine.closed(kept.client)
  await closing
  assert.equal(store.sessions.get(keptSid)?.rooms, ['lobby'], 'kept for another node')
  const b = node('b', store)
  const back = await open(b, `tp_v=1&tp_sid=${keptSid}&tp_last=0`)
  assert.equal(messages(back)[0]?.['data'], { sid: keptSid, recovered: true, heartbeat: 30000 })
  await close(b)
})

test.run()
