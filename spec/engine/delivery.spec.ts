import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createDelivery, type Outlet } from '../../lib/engine/delivery.js'
import { createNamespaceRegistry } from '../../lib/engine/namespace-registry.js'
import { portableFrames } from '../../lib/engine/outgoing.js'
import type { SocketIo } from '../../lib/engine/platform.js'

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
  const sessions = new Map([[1, outlet]])
  const delivery = createDelivery({ io, frames: portableFrames, maxSendBuffer: LIMIT, registry: createNamespaceRegistry(), sessions, parked: new Map(), onSlowConsumer: (_o, waiting) => dropped.push(waiting) })
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
  const sessions = new Map(sockets.map((socket, i) => [i + 1, { socket, inFlight: 0, dropSlow: () => undefined, deflate: undefined }]))
  for (const id of sessions.keys()) registry.joinRoom(id, 'r')
  const delivery = createDelivery({ io, frames: portableFrames, maxSendBuffer: LIMIT, registry, sessions, parked: new Map(), onSlowConsumer: () => undefined, hold: (s) => void held.push(s) })
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
  const delivery = createDelivery({ io, frames: portableFrames, maxSendBuffer: LIMIT, registry: createNamespaceRegistry(), sessions: new Map([[1, outlet]]), parked: new Map(), onSlowConsumer: () => undefined })
  delivery.send(1, bytes(5))
  delivery.write(outlet, bytes(6))
  assert.is(delivery.broadcast(bytes(7), undefined), 1)
  assert.equal(queued, [[5, false], [6, false], [7, true]])
  assert.equal(socket.written, [])
  delivery.admit(outlet, bytes(8))
  assert.equal(socket.written, [8])
})

test.run()
