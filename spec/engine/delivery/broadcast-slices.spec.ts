/**
 * Large broadcasts a slice per I/O turn (lib/engine/delivery/broadcast-slices.ts, through
 * delivery.ts): small ones written at once, large ones a bounded slice at a time; a broadcast
 * started during another waits behind it; a direct write to a client first catches it up on
 * the broadcasts it is owed, and is not followed by them again. The I/O turns are the spec's
 * (`afterIo` queues, `turn()` runs one): no timing. Portable (Node, Bun, Deno).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BROADCAST_CHECK_EVERY, BROADCAST_SLICE, BROADCAST_SLICE_MS } from '../../../lib/engine/delivery/broadcast-slices.js'
import { createDelivery, type Outlet } from '../../../lib/engine/delivery/delivery.js'
import { portableFrames } from '../../../lib/engine/delivery/outgoing.js'
import { createNamespaceRegistry } from '../../../lib/engine/registry/namespace-registry.js'
import type { SocketIo } from '../../../lib/engine/platform.js'
import { frame, logSocketIo } from './log-socket-io.js'

// A socket that logs the messages written to it by name (each frame's one payload byte).
interface LogSocket {
  readonly got: string[]
}
let writesThisTurn = 0
const io: SocketIo<LogSocket> = logSocketIo<LogSocket>({}, () => void (writesThisTurn += 1))

const SLICE = 4
const setup = (clients: number, clock?: { now: () => number; sliceSize: number }) => {
  const registry = createNamespaceRegistry()
  const connections = new Map<number, Outlet<LogSocket>>()
  for (let id = 1; id <= clients; id++) {
    connections.set(id, { socket: { got: [] }, inFlight: 0, dropSlow: () => undefined, deflate: undefined, ctx: { clientId: id }, lastBroadcast: 0 })
    registry.joinNamespace(id)
  }
  let queued: (() => void)[] = []
  const delivery = createDelivery({
    io, frames: portableFrames, maxSendBuffer: 1 << 20, registry, connections, parked: new Map(), onSlowConsumer: () => undefined,
    afterIo: (run) => void queued.push(run), sliceSize: clock?.sliceSize ?? SLICE,
    ...(clock === undefined ? {} : { now: clock.now }),
  })
  // One I/O turn: what waited for its end runs; answers how many writes it made.
  const turn = (): number => {
    writesThisTurn = 0
    const now = queued
    queued = []
    for (const run of now) run()
    return writesThisTurn
  }
  const got = (id: number): string => (connections.get(id) as Outlet<LogSocket>).socket.got.join('')
  const outlet = (id: number): Outlet<LogSocket> => connections.get(id) as Outlet<LogSocket>
  return { registry, delivery, turn, got, outlet, pending: () => queued.length }
}

test('BROADCAST_SLICE :: is documented as 512 receivers', () => {
  assert.is(BROADCAST_SLICE, 512)
})

test('BROADCAST_SLICE_MS :: a slice is documented to end past 4 ms, the clock read every 16 receivers', () => {
  assert.is(BROADCAST_SLICE_MS, 4)
  assert.is(BROADCAST_CHECK_EVERY, 16)
})

// A clock that moves 1 ms per write: a slice (20 receivers) reaches its time bound first, at its first check.
const slowWrites = (): { now: () => number; sliceSize: number } => ({ now: () => writesThisTurn, sliceSize: 20 })

test('broadcast slices :: a slice ends at the first clock check past its time bound, the rest follow turn by turn', () => {
  const { delivery, got, turn } = setup(100, slowWrites())
  writesThisTurn = 0
  assert.is(delivery.broadcast(frame('A'), undefined), 100)
  assert.is(writesThisTurn, BROADCAST_CHECK_EVERY, 'the first slice stops at its first check (16 ms > 4 ms)')
  const turns: number[] = []
  for (let writes = turn(); writes > 0; writes = turn()) turns.push(writes)
  assert.equal(turns, [16, 16, 16, 16, 16, 4])
  for (let id = 1; id <= 100; id++) assert.is(got(id), 'A', `client ${id} once`)
})

test('broadcast slices :: time-bounded slices keep the order per receiver across overlapping broadcasts', () => {
  const { delivery, registry, got, turn } = setup(40, slowWrites())
  for (const id of [3, 20, 39]) registry.joinRoom(id, 'r')
  delivery.broadcast(frame('A'), undefined)
  delivery.broadcast(frame('B'), undefined)
  delivery.broadcast(frame('C'), { room: 'r' })
  delivery.send(30, frame('X')) // not reached by A yet: caught up on A and B first
  for (let writes = turn(); writes > 0; writes = turn()) assert.ok(writes <= BROADCAST_CHECK_EVERY + 2, `${writes} writes in a turn`)
  for (let id = 1; id <= 40; id++) assert.is(got(id), id === 30 ? 'ABX' : [3, 20, 39].includes(id) ? 'ABC' : 'AB', `client ${id}`)
})

test('broadcast slices :: with a clock that stands still, a slice is bounded by its count', () => {
  const { delivery, turn } = setup(1200, { now: () => 0, sliceSize: 500 })
  writesThisTurn = 0
  delivery.broadcast(frame('A'), undefined)
  assert.is(writesThisTurn, 500)
  assert.is(turn(), 500)
  assert.is(turn(), 200)
})

test('broadcast slices :: a broadcast to at most a slice, none queued: written at once', () => {
  const { delivery, got, pending } = setup(SLICE)
  assert.is(delivery.broadcast(frame('A'), undefined), SLICE)
  assert.is(pending(), 0, 'nothing left for later')
  for (let id = 1; id <= SLICE; id++) assert.is(got(id), 'A')
})

test('broadcast slices :: a large broadcast: one slice now, one per turn after, every receiver once', () => {
  const { delivery, got, turn } = setup(10)
  writesThisTurn = 0
  assert.is(delivery.broadcast(frame('A'), undefined), 10, 'answers the receivers it is addressed to')
  assert.is(writesThisTurn, SLICE, 'the first slice at once')
  assert.is(turn(), SLICE)
  assert.is(turn(), 2)
  assert.is(turn(), 0, 'done: no turn scheduled')
  for (let id = 1; id <= 10; id++) assert.is(got(id), 'A')
})

test('broadcast slices :: except is skipped; a room broadcast counts its members', () => {
  const { delivery, registry, got, turn } = setup(12)
  for (let id = 1; id <= 9; id++) registry.joinRoom(id, 'r')
  assert.is(delivery.broadcast(frame('A'), { room: 'r', except: 3 }), 8)
  while (turn() > 0);
  assert.equal([...Array(12).keys()].map((i) => got(i + 1)), ['A', 'A', '', 'A', 'A', 'A', 'A', 'A', 'A', '', '', ''])
})

test('broadcast slices :: two overlapping broadcasts and a small one: each receiver gets them in order, no slice past the bound', () => {
  const { delivery, registry, got, turn } = setup(11)
  for (const id of [2, 7, 11]) registry.joinRoom(id, 'small')
  delivery.broadcast(frame('A'), undefined) // 11 receivers: sliced
  delivery.broadcast(frame('B'), undefined) // started during A: behind it
  delivery.broadcast(frame('C'), { room: 'small' }) // small, but queued behind both
  for (let writes = turn(); writes > 0; writes = turn()) assert.ok(writes <= SLICE, `${writes} writes in a turn`)
  for (let id = 1; id <= 11; id++) assert.is(got(id), [2, 7, 11].includes(id) ? 'ABC' : 'AB', `client ${id}`)
})

test('broadcast slices :: a direct send during a broadcast catches the client up first, and the slice does not repeat it', () => {
  const { delivery, got, turn } = setup(10)
  delivery.broadcast(frame('A'), undefined)
  delivery.broadcast(frame('B'), undefined)
  // Client 9 is not reached yet by A: a direct message to it comes after A and B.
  assert.is(delivery.send(9, frame('X')), true)
  assert.is(got(9), 'ABX')
  // Client 2 got A already; it is owed B only.
  delivery.send(2, frame('Y'))
  assert.is(got(2), 'ABY')
  while (turn() > 0);
  assert.is(got(9), 'ABX', 'not written again by the slices')
  assert.is(got(2), 'ABY')
  assert.is(got(10), 'AB')
  delivery.send(10, frame('Z'))
  assert.is(got(10), 'ABZ', 'nothing owed once the queue is empty')
})

test('broadcast slices :: a reply written to a connection (write, admit) catches it up too', () => {
  const { delivery, got, outlet, turn } = setup(10)
  delivery.broadcast(frame('A'), undefined)
  delivery.write(outlet(8), frame('R'))
  delivery.admit(outlet(7), frame('S'))
  while (turn() > 0);
  assert.is(got(8), 'AR')
  assert.is(got(7), 'AS')
})

test('broadcast slices :: a client that joins the room before its turn gets it; one that leaves does not', () => {
  const { delivery, registry, got, turn } = setup(12)
  for (let id = 1; id <= 10; id++) registry.joinRoom(id, 'r')
  delivery.broadcast(frame('A'), { room: 'r' })
  registry.leaveRoom(9, 'r')
  registry.joinRoom(12, 'r')
  while (turn() > 0);
  assert.is(got(9), '')
  assert.is(got(12), 'A')
  assert.is(got(11), '')
})

test('broadcast slices :: without afterIo every broadcast is written at once', () => {
  const connections = new Map<number, Outlet<LogSocket>>()
  for (let id = 1; id <= 2 * BROADCAST_SLICE; id++) connections.set(id, { socket: { got: [] }, inFlight: 0, dropSlow: () => undefined, deflate: undefined })
  const delivery = createDelivery({ io, frames: portableFrames, maxSendBuffer: 1 << 20, registry: createNamespaceRegistry(), connections, parked: new Map(), onSlowConsumer: () => undefined })
  assert.is(delivery.broadcast(frame('A'), undefined), 2 * BROADCAST_SLICE)
  assert.ok([...connections.values()].every((o) => o.socket.got.join('') === 'A'))
})

test.run()
