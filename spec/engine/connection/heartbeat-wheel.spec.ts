/**
 * The heartbeat spread over its interval (lib/engine/connection/heartbeat-wheel.ts), on its own
 * and in the engine on an in-memory platform with manual timers: each tick visits a bounded
 * slice, every client is pinged once per interval with the one shared ping, an empty pong
 * keeps a client, and a client that answered nothing is ended at the visit after its ping.
 * No timing: the clock moves only when the spec says. Portable (Node, Bun, Deno).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { HeartbeatWheel, heartbeatTicks, pingSettled, stampPing } from '../../../lib/engine/connection/heartbeat-wheel.js'
import type { Client } from '../../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../../lib/engine/create-engine.js'
import { manualTimers, type ManualTimers } from '../../support/manual-timers.js'
import { memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'

const utf8 = new TextEncoder()
const UPGRADE = 'GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'
// An empty masked pong, as a client answers the server's empty ping (RFC 6455 §5.5.3).
const PONG = Uint8Array.of(0x8a, 0x80, 0x01, 0x02, 0x03, 0x04)

test('heartbeatTicks :: one tick per 50 ms of the interval, at least one', () => {
  assert.is(heartbeatTicks(30_000), 600)
  assert.is(heartbeatTicks(1_000), 20)
  assert.is(heartbeatTicks(40), 1)
})

test('HeartbeatWheel :: each tick visits at most ceil(size / ticks), every item once per round', () => {
  const items = new Map<number, number>()
  for (let i = 0; i < 1003; i++) items.set(i, i)
  const seen = new Map<number, number>()
  const wheel = new HeartbeatWheel(items, (item: number) => void seen.set(item, (seen.get(item) ?? 0) + 1), 10)
  for (let round = 1; round <= 3; round++) {
    for (let t = 0; t < 10; t++) assert.ok(wheel.turn() <= Math.ceil(1003 / 10), 'a tick visits one slice')
    assert.is(seen.size, 1003)
    assert.ok([...seen.values()].every((n) => n === round), `round ${round}: every item visited exactly ${round} times`)
  }
})

test('HeartbeatWheel :: items added mid-round are visited, removed ones skipped; a round done early waits for the next', () => {
  const items = new Map<number, string>()
  for (let i = 0; i < 100; i++) items.set(i, `c${i}`)
  const seen: string[] = []
  const wheel = new HeartbeatWheel(items, (item: string) => void seen.push(item), 4)
  wheel.turn() // c0..c24
  items.delete(50)
  items.set(100, 'c100')
  wheel.turn()
  wheel.turn()
  wheel.turn()
  assert.ok(!seen.includes('c50'), 'removed before its turn: not visited')
  assert.ok(seen.includes('c100'), 'added during the round: visited in it')
  for (let i = 0; i < 40; i++) items.delete(i)
  const before = seen.length
  wheel.turn() // a new round: 60 items left, 15 a tick
  wheel.turn()
  wheel.turn()
  wheel.turn()
  assert.is(seen.length - before, 60, 'the next round visits what is left, once each')
  assert.is(wheel.turn(), 15, 'and the round after starts at its first tick')
})

test('HeartbeatWheel :: waits the ticks it is told before its first round', () => {
  const items = new Map([[1, 1], [2, 2]])
  const wheel = new HeartbeatWheel(items, () => undefined, 2, 3)
  assert.equal([wheel.turn(), wheel.turn(), wheel.turn(), wheel.turn(), wheel.turn()], [0, 0, 0, 1, 1])
})

test('stampPing / pingSettled :: the tick lives above the connection\'s own bits, compared modulo 2^22', () => {
  const flags = stampPing(0b1011, 7)
  assert.is(flags & 0xff, 0b1011, 'own bits kept')
  assert.is(pingSettled(flags, 9, 3), false)
  assert.is(pingSettled(flags, 10, 3), true)
  const late = stampPing(0, (1 << 22) - 1)
  assert.is(pingSettled(late, 1 << 22, 1), true, 'across the wrap')
  assert.ok(Number.isSafeInteger(stampPing(0xff, (1 << 22) - 1)) && stampPing(0xff, (1 << 22) - 1) < 2 ** 30, 'stays a small integer')
})

interface Conn {
  readonly socket: MemorySocket
  readonly client: Client<MemorySocket>
}

const settle = async (timers: ManualTimers): Promise<void> => {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve()
    timers.io()
  }
}

const serverOn = (timers: ManualTimers, heartbeatIntervalMs: number): Engine<MemorySocket> =>
  createEngine({ limits: { heartbeatIntervalMs } }, { ...memoryPlatform<MemorySocket>(), timers })

const upgradeAll = async (engine: Engine<MemorySocket>, timers: ManualTimers, n: number): Promise<Conn[]> => {
  const conns: Conn[] = []
  for (let i = 0; i < n; i++) {
    const socket: MemorySocket = { out: [], ended: false, closed: false }
    const client = engine.accept(socket) as Client<MemorySocket>
    client.receiver.receive(utf8.encode(UPGRADE))
    conns.push({ socket, client })
  }
  await settle(timers)
  for (const conn of conns) conn.socket.out.length = 0
  return conns
}

const isPing = (bytes: Uint8Array): boolean => bytes.length === 2 && bytes[0] === 0x89 && bytes[1] === 0x00
const pings = (conn: Conn): number => conn.socket.out.filter(isPing).length

test('heartbeat :: every client pinged once per interval, at most ceil(N / ticks) per tick', async () => {
  const timers = manualTimers()
  const engine = serverOn(timers, 1000) // 20 ticks of 50 ms
  const conns = await upgradeAll(engine, timers, 205)
  try {
    timers.advance(950)
    assert.ok(conns.every((conn) => pings(conn) === 0), 'the first round starts an interval after the first connection')
    let total = 0
    for (let t = 0; t < 20; t++) {
      timers.advance(50)
      const now = conns.reduce((sum, conn) => sum + pings(conn), 0)
      assert.ok(now - total <= Math.ceil(205 / 20), `tick ${t}: ${now - total} pings`)
      total = now
    }
    assert.ok(conns.every((conn) => pings(conn) === 1), 'each client pinged once in the interval')
    timers.advance(1000)
    assert.ok(conns.every((conn) => pings(conn) === 1 && conn.socket.closed), 'none answered: all ended at the next visit')
  } finally {
    for (const conn of conns) engine.closed(conn.client)
    await engine.handle.close()
  }
})

test('heartbeat :: a client that answers the ping (an empty pong) stays, one that does not is ended within two intervals', async () => {
  const timers = manualTimers()
  const engine = serverOn(timers, 1000)
  const conns = await upgradeAll(engine, timers, 40)
  try {
    timers.advance(950) // the first round starts at the interval's end
    for (let round = 1; round <= 3; round++) {
      timers.advance(1000)
      for (const [i, conn] of conns.entries()) if (i % 2 === 0 && !conn.socket.closed) conn.client.receiver.receive(PONG.slice())
    }
    const answering = conns.filter((_, i) => i % 2 === 0)
    const silent = conns.filter((_, i) => i % 2 === 1)
    assert.ok(answering.every((conn) => !conn.socket.closed && pings(conn) === 3), 'pinged every interval, kept')
    assert.ok(silent.every((conn) => conn.socket.closed && pings(conn) === 1), 'pinged once, ended at the next visit')
    assert.ok(answering.every((conn) => conn.socket.out.every(isPing)), 'a pong is answered with nothing')
  } finally {
    for (const conn of conns) engine.closed(conn.client)
    await engine.handle.close()
  }
})

test('heartbeat :: a client visited soon after its ping (others before it left) is not judged yet', async () => {
  const timers = manualTimers()
  const engine = serverOn(timers, 1000)
  const conns = await upgradeAll(engine, timers, 40)
  try {
    timers.advance(950 + 1000) // everyone pinged once; the last two at the last tick
    for (const conn of conns.slice(0, 38)) {
      conn.socket.closed = true
      engine.closed(conn.client)
    }
    const [a, b] = conns.slice(38) as [Conn, Conn]
    timers.advance(50) // the next round's first tick visits both: their pings are 50 ms old
    assert.is(a.socket.closed || b.socket.closed, false, 'not judged on a ping one tick old')
    a.client.receiver.receive(PONG.slice())
    timers.advance(1100) // b's next visit: a round later
    assert.is(a.socket.closed, false)
    assert.is(b.socket.closed, true, 'judged at its next visit')
  } finally {
    for (const conn of conns) engine.closed(conn.client)
    await engine.handle.close()
  }
})

test.run()
