/**
 * A broadcast's plain receivers written together where the runtime can (`SocketIo.writeShared`,
 * the native transport's one addon call per batch; lib/engine/delivery/delivery.ts): each
 * socket gets exactly what one `write` per receiver would have given it, in the same order,
 * with direct writes, session receivers and sliced broadcasts interleaved; slices hand over
 * their batch at each clock check, so a slice's time includes its writes. The I/O turns are
 * the spec's (`afterIo` queues, `turn()` runs one): no timing. Portable (Node, Bun, Deno).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BROADCAST_CHECK_EVERY } from '../../../lib/engine/delivery/broadcast-slices.js'
import { createDelivery, type Outlet } from '../../../lib/engine/delivery/delivery.js'
import { portableFrames } from '../../../lib/engine/delivery/outgoing.js'
import { createNamespaceRegistry } from '../../../lib/engine/registry/namespace-registry.js'
import { ClientSession } from '../../../lib/engine/recovery/client-session.js'
import type { SocketIo } from '../../../lib/engine/platform.js'
import { frame, logSocketIo } from './log-socket-io.js'

// A socket that logs its messages by name (a frame's first payload byte), in the order written.
interface LogSocket {
  readonly id: number
  readonly got: string[]
  backlog: number
  closed: boolean
}
const setup = (clients: number, sliceSize = 4, clock?: () => number) => {
  const calls: number[] = [] // the count of each writeShared call
  const io: SocketIo<LogSocket> = logSocketIo<LogSocket>({
    writeShared: (sockets, count, bytes) => {
      calls.push(count)
      for (let i = 0; i < count; i++) io.write(sockets[i] as LogSocket, bytes)
    },
    buffered: (s) => s.backlog,
    isClosed: (s) => s.closed,
  })
  const registry = createNamespaceRegistry()
  const connections = new Map<number, Outlet<LogSocket>>()
  const dropped: number[] = []
  for (let id = 1; id <= clients; id++) {
    const socket: LogSocket = { id, got: [], backlog: 0, closed: false }
    connections.set(id, { socket, inFlight: 0, dropSlow: () => void dropped.push(id), deflate: undefined, ctx: { clientId: id }, lastBroadcast: 0 })
    registry.joinNamespace(id)
  }
  let queued: (() => void)[] = []
  const delivery = createDelivery({
    io, frames: portableFrames, maxSendBuffer: 100, registry, connections, parked: new Map(), onSlowConsumer: () => undefined,
    afterIo: (run) => void queued.push(run), sliceSize, ...(clock === undefined ? {} : { now: clock }),
  })
  const turn = (): void => {
    const now = queued
    queued = []
    for (const run of now) run()
  }
  const got = (id: number): string => (connections.get(id) as Outlet<LogSocket>).socket.got.join('')
  const outlet = (id: number): Outlet<LogSocket> => connections.get(id) as Outlet<LogSocket>
  return { calls, delivery, turn, got, outlet, dropped }
}

test('writeShared :: a small broadcast reaches every receiver in one call, after what was written to them before', () => {
  const { calls, delivery, got } = setup(3)
  delivery.send(2, frame('x'))
  assert.is(delivery.broadcast(frame('a'), undefined), 3)
  assert.equal(calls, [3])
  assert.equal([got(1), got(2), got(3)], ['a', 'xa', 'a'])
})

test('writeShared :: a session receiver gets its own frame at once; the batch before it leaves first', () => {
  const { calls, delivery, got, outlet } = setup(3)
  const session = new ClientSession('s', 2, { windowMs: 1000, maxMessages: 100, maxAnswers: 10 })
  Object.assign(outlet(2), { session })
  delivery.broadcast(frame('a'), undefined, '{"event":"e"}')
  // 1 joins the batch, 2 (numbered) is written alone after the batch leaves, 3 in a batch of its own
  assert.equal(calls, [1, 1])
  assert.is(got(1), 'a')
  assert.is(got(3), 'a')
  assert.is(outlet(2).socket.got.length, 1)
})

test('writeShared :: a slow receiver is dropped, not written; a closed one is skipped', () => {
  const { calls, delivery, got, outlet, dropped } = setup(3)
  outlet(1).socket.backlog = 1000
  outlet(1).inFlight = 1
  outlet(3).socket.closed = true
  delivery.broadcast(frame('a'), undefined)
  assert.equal(dropped, [1])
  assert.equal(calls, [1])
  assert.equal([got(1), got(2), got(3)], ['', 'a', ''])
})

test('writeShared :: a close frame is never shared (nothing may follow it)', () => {
  const { calls, delivery, outlet } = setup(2)
  const close = Uint8Array.of(0x88, 0x02, 0x03, 0xe8)
  delivery.broadcast(close, undefined)
  assert.equal(calls, [])
  assert.ok(outlet(1).shut)
  assert.ok(outlet(2).shut)
})

test('writeShared :: sliced broadcasts keep their order per receiver, with a direct write between slices', () => {
  const { delivery, turn, got } = setup(10, 4)
  delivery.broadcast(frame('a'), undefined)
  delivery.broadcast(frame('b'), undefined)
  delivery.send(9, frame('x')) // 9 is owed a and b: caught up first
  for (let i = 0; i < 10; i++) turn()
  for (let id = 1; id <= 10; id++) assert.is(got(id), id === 9 ? 'abx' : 'ab', `client ${id}`)
})

test('writeShared :: a slice hands its batch over at every clock check, so its time includes the writes', () => {
  let t = 0
  const size = BROADCAST_CHECK_EVERY * 4
  const { calls, delivery, turn, got } = setup(size * 2, size, () => t)
  delivery.broadcast(frame('a'), undefined)
  assert.ok(calls.length >= 4, String(calls))
  assert.ok(calls.every((count) => count <= BROADCAST_CHECK_EVERY), String(calls))
  t = 100 // past the budget: the next slice ends at its first check
  turn()
  const after = calls.length
  assert.ok(after >= 5)
  for (let i = 0; i < 10; i++) turn()
  for (let id = 1; id <= size * 2; id++) assert.is(got(id), 'a', `client ${id}`)
})

test.run()
