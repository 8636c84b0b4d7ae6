import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ClientSession } from '../../../lib/engine/recovery/client-session.js'
import { createDelivery, type Outlet } from '../../../lib/engine/delivery/delivery.js'
import { createNamespaceRegistry } from '../../../lib/engine/registry/namespace-registry.js'
import { portableFrames } from '../../../lib/engine/delivery/outgoing.js'
import type { SocketIo } from '../../../lib/engine/platform.js'

// An in-memory socket: `backlog` is what the runtime has not handed to the kernel yet;
// `drain(n)` is the peer reading n bytes.
interface FakeSocket {
  backlog: number
  written: number[]
  closed: boolean
  ended: boolean
}
const io: SocketIo<FakeSocket> = {
  write: (s, bytes) => {
    s.backlog += bytes.length
    s.written.push(bytes.length)
  },
  buffered: (s) => s.backlog,
  isClosed: (s) => s.closed,
  isEnded: (s) => s.ended,
  end: (s) => void (s.ended = true),
  destroy: (s) => void (s.closed = true),
  cork: () => undefined,
  uncork: () => undefined,
}

const LIMIT = 1000
const setup = () => {
  const socket: FakeSocket = { backlog: 0, written: [], closed: false, ended: false }
  const dropped: number[] = []
  const outlet: Outlet<FakeSocket> = { socket, inFlight: 0, dropSlow: () => void (socket.ended = true), deflate: undefined }
  const connections = new Map([[1, outlet]])
  const delivery = createDelivery({ io, frames: portableFrames, maxSendBuffer: LIMIT, registry: createNamespaceRegistry(), connections, parked: new Map(), onSlowConsumer: (_o, waiting) => dropped.push(waiting) })
  return { socket, dropped, delivery }
}
const bytes = (n: number): Uint8Array => new Uint8Array(n)

test('delivery :: a frame larger than the send buffer, then a ping while it drains: not slow', () => {
  const { socket, dropped, delivery } = setup()
  delivery.send(1, bytes(16 * LIMIT)) // the echo of a message near the message limit
  socket.backlog -= 3 * LIMIT // the peer is reading
  delivery.send(1, bytes(2)) // a ping, a pong or an event joins the queue behind it
  delivery.send(1, bytes(500))
  assert.equal(dropped, [])
  assert.equal(socket.written, [16 * LIMIT, 2, 500])
})

test('delivery :: past the limit beyond the largest frame queued since the backlog was empty: slow, told once', () => {
  const { socket, dropped, delivery } = setup()
  delivery.send(1, bytes(4 * LIMIT))
  delivery.send(1, bytes(LIMIT)) // 4000 waiting, 0 beyond the exempt frame
  delivery.send(1, bytes(10)) // 5000 waiting, 1000 beyond: at the limit, still accepted
  delivery.send(1, bytes(10)) // 5010 waiting, 1010 beyond: slow
  assert.equal(dropped, [5010])
  assert.equal(socket.written, [4 * LIMIT, LIMIT, 10])
  assert.ok(socket.ended)
  delivery.send(1, bytes(10)) // nothing more is written to an ended socket
  assert.equal(socket.written.length, 3)
})

test('delivery :: the exempt frame is the largest one accepted, and resets when the backlog empties', () => {
  const { socket, dropped, delivery } = setup()
  delivery.send(1, bytes(10))
  delivery.send(1, bytes(8 * LIMIT)) // accepted (10 waiting): it becomes the exempt frame
  delivery.send(1, bytes(LIMIT)) // 8010 waiting, 10 beyond
  socket.backlog = 0 // the peer read everything: the 8000-byte frame is exempt no more
  delivery.send(1, bytes(10)) // the exempt frame is now this one
  delivery.send(1, bytes(LIMIT)) // 10 waiting; now this larger one is exempt
  delivery.send(1, bytes(LIMIT - 10)) // 1010 waiting, 10 beyond
  delivery.send(1, bytes(5)) // 2000 waiting, 1000 beyond: accepted
  assert.equal(dropped, [])
  delivery.send(1, bytes(5)) // 2005 waiting, 1005 beyond: slow
  assert.equal(dropped, [2005])
})

test('delivery :: a stopped reader holds at most the limit plus two of the largest frames', () => {
  const { socket, dropped, delivery } = setup()
  for (let i = 0; i < 100; i++) delivery.send(1, bytes(300))
  assert.equal(dropped.length, 1)
  assert.ok(socket.backlog <= LIMIT + 2 * 300, `backlog ${socket.backlog}`)
})

test('delivery :: send to an unknown client answers false; broadcast counts receivers and skips `except`', () => {
  const { delivery } = setup()
  assert.is(delivery.send(2, bytes(1)), false)
  assert.is(delivery.broadcast(bytes(1), undefined), 1)
  assert.is(delivery.broadcast(bytes(1), { except: 1 }), 0)
  assert.is(delivery.broadcast(bytes(1), { room: 'nobody' }), 0)
  assert.is(delivery.broadcast(bytes(1), { namespace: '/none' }), 0)
})

test('delivery :: a broadcast offers each receiver\'s socket to hold (the end-of-turn batching) before writing; send does not', () => {
  const held: FakeSocket[] = []
  const sockets = [1, 2, 3].map(() => ({ backlog: 0, written: [] as number[], closed: false, ended: false }))
  const registry = createNamespaceRegistry()
  const connections = new Map(sockets.map((socket, i) => [i + 1, { socket, inFlight: 0, dropSlow: () => undefined, deflate: undefined }]))
  for (const id of connections.keys()) registry.joinRoom(id, 'r')
  const delivery = createDelivery({ io, frames: portableFrames, maxSendBuffer: LIMIT, registry, connections, parked: new Map(), onSlowConsumer: () => undefined, hold: (s) => void held.push(s) })
  assert.is(delivery.broadcast(bytes(3), { room: 'r', except: 2 }), 2)
  assert.equal(held, [sockets[0], sockets[2]])
  delivery.send(2, bytes(3))
  assert.is(held.length, 2)
  assert.equal(sockets.map((s) => s.written), [[3], [3], [3]])
})

test('delivery :: a compressing connection gets its frames through its queue, told which are broadcasts; admit writes at once', () => {
  const socket: FakeSocket = { backlog: 0, written: [], closed: false, ended: false }
  const queued: Array<[number, boolean]> = []
  const outlet: Outlet<FakeSocket> = { socket, inFlight: 0, dropSlow: () => undefined, deflate: { send: (frame, broadcast) => void queued.push([frame.length, broadcast]) } }
  const delivery = createDelivery({ io, frames: portableFrames, maxSendBuffer: LIMIT, registry: createNamespaceRegistry(), connections: new Map([[1, outlet]]), parked: new Map(), onSlowConsumer: () => undefined })
  delivery.send(1, bytes(5))
  delivery.write(outlet, bytes(6))
  assert.is(delivery.broadcast(bytes(7), undefined), 1)
  assert.equal(queued, [[5, false], [6, false], [7, true]])
  assert.equal(socket.written, [])
  delivery.admit(outlet, bytes(8))
  assert.equal(socket.written, [8])
})

// A socket that keeps the text of every frame written (unmasked, short or 16-bit length).
interface TextSocket {
  texts: string[]
  closed: boolean
}
const textIo: SocketIo<TextSocket> = {
  write: (s, frame) => void s.texts.push(new TextDecoder().decode(frame.subarray(frame[1] === 126 ? 4 : 2))),
  buffered: () => 0,
  isClosed: (s) => s.closed,
  isEnded: () => false,
  end: () => undefined,
  destroy: (s) => void (s.closed = true),
  cork: () => undefined,
  uncork: () => undefined,
}

// Two session clients in room r: one batching (limit `batch`), one not; `turn()` ends the I/O turn.
const batching = (batch: number) => {
  const limits = { windowMs: 1000, maxMessages: 100, maxAnswers: 10 }
  const outlets = [batch, 0].map((b, i): Outlet<TextSocket> => ({ socket: { texts: [], closed: false }, inFlight: 0, dropSlow: () => undefined, deflate: undefined, session: new ClientSession(`s${i}`, i + 1, limits), batch: b }))
  const registry = createNamespaceRegistry()
  for (const id of [1, 2]) registry.joinRoom(id, 'r')
  const ends: Array<() => void> = []
  const delivery = createDelivery({
    io: textIo,
    frames: portableFrames,
    maxSendBuffer: LIMIT,
    registry,
    connections: new Map(outlets.map((o, i) => [i + 1, o])),
    parked: new Map(),
    onSlowConsumer: () => undefined,
    afterIo: (run) => void ends.push(run),
  })
  const turn = (): void => {
    for (const run of ends.splice(0)) run()
  }
  return { outlets, delivery, turn, ends }
}

test('delivery :: a batching session gets the envelopes of a turn in one message, in the order numbered; the others at once', () => {
  const { outlets, delivery, turn, ends } = batching(1 << 20)
  const [a, b] = outlets.map((o) => o.socket) as [TextSocket, TextSocket]
  delivery.sendToSession(1, '{"event":"ack","id":1,"data":1}')
  delivery.broadcast(portableFrames.text('{"event":"m","data":2}'), { room: 'r' }, '{"event":"m","data":2}')
  delivery.sendToSession(1, '{"event":"ack","id":2,"data":3}')
  assert.equal(a.texts, [])
  assert.equal(b.texts, ['{"event":"m","data":2,"seq":1}'])
  assert.is(ends.length, 1, 'one end-of-turn flush for the whole turn')
  turn()
  assert.equal(a.texts, ['{"event":"ack","id":1,"data":1,"seq":1}\x1e{"event":"m","data":2,"seq":2}\x1e{"event":"ack","id":2,"data":3,"seq":3}'])
  // A lone envelope goes as it is; the next turn is flushed again.
  delivery.sendToSession(1, '{"event":"ack","id":3}')
  turn()
  assert.equal(a.texts.slice(1), ['{"event":"ack","id":3,"seq":4}'])
})

test('delivery :: a batch is split where it would pass the byte limit (3 bytes counted per UTF-16 unit); flushOut writes at once', () => {
  // Each numbered text is 28 characters: 85 bytes counted (with its separator); two fit in 172, three do not.
  const { outlets, delivery, turn } = batching(172)
  const a = outlets[0]?.socket as TextSocket
  for (const n of [1, 2, 3, 4, 5]) delivery.sendToSession(1, `{"event":"e","id":${n}}`)
  turn()
  assert.equal(
    a.texts.map((t) => t.split('\x1e').map((e) => (JSON.parse(e) as { seq: number }).seq)),
    [[1, 2], [3, 4], [5]],
  )
  delivery.sendToSession(1, '{"event":"e","id":6}')
  delivery.flushOut(outlets[0] as Outlet<TextSocket>)
  assert.is(a.texts.length, 4)
  turn()
  assert.is(a.texts.length, 4, 'nothing left for the end of the turn')
})

test('delivery :: nothing is written to a session after its close frame (RFC 6455 §5.5.1)', () => {
  const { socket, delivery } = setup()
  delivery.send(1, Uint8Array.of(0x81, 0x01, 0x61))
  delivery.send(1, Uint8Array.of(0x88, 0x02, 0x03, 0xe8)) // close 1000
  delivery.send(1, Uint8Array.of(0x81, 0x01, 0x62))
  delivery.broadcast(Uint8Array.of(0x81, 0x01, 0x63), undefined)
  delivery.send(1, Uint8Array.of(0x89, 0x00)) // a ping: no control frame either
  assert.equal(socket.written, [3, 4])
})

test.run()
