/**
 * `nativeSocketIo` against a recording stand-in for the addon: what reaches `write` (one call
 * per uncork, at most 16 arrays each), `buffered`, and the closes this side causes (a failed
 * write, destroy, an end after the peer's), each reported once.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { NativeBinding } from '../../lib/native/native-binding.js'
import { type NativeConn, nativeConnClosed, nativeConnDrained, nativeSocketIo, newNativeConn } from '../../lib/native/native-socket-io.js'

const test = suite('nativeSocketIo')

const fake = (answers: { write?: number; end?: number } = {}) => {
  const calls: string[] = []
  const binding: NativeBinding = {
    listen: () => ({ server: undefined, port: 0 }),
    close: () => undefined,
    write: (slot, ...chunks) => {
      calls.push(`write ${slot} ${chunks.map((c) => c.length).join(',')}`)
      return answers.write ?? 0
    },
    end: (slot) => {
      calls.push(`end ${slot}`)
      return answers.end ?? 0
    },
    destroy: (slot) => void calls.push(`destroy ${slot}`),
    pause: (slot) => void calls.push(`pause ${slot}`),
    resume: (slot) => void calls.push(`resume ${slot}`),
    openCount: () => 0,
    connSize: 0,
  }
  const closed: NativeConn[] = []
  return { calls, closed, io: nativeSocketIo(binding, (conn) => void closed.push(conn)) }
}

const bytes = (n: number): Uint8Array => new Uint8Array(n)

test('an uncorked write goes at once; the answer is what the addon still queues', () => {
  const { calls, io } = fake({ write: 5 })
  const conn = newNativeConn(7)
  io.write(conn, bytes(10))
  assert.equal(calls, ['write 7 10'])
  assert.is(io.buffered(conn), 5)
  nativeConnDrained(conn)
  assert.is(io.buffered(conn), 0)
})

test('corked writes leave together in one call on uncork, counted as buffered meanwhile', () => {
  const { calls, io } = fake()
  const conn = newNativeConn(1)
  io.cork(conn)
  io.write(conn, bytes(3))
  assert.is(io.buffered(conn), 3)
  io.write(conn, bytes(4))
  io.write(conn, bytes(5))
  assert.equal(calls, [])
  assert.is(io.buffered(conn), 12)
  io.uncork(conn)
  io.uncork(conn)
  assert.equal(calls, ['write 1 3,4,5'])
  assert.is(io.buffered(conn), 0)
})

test('more than 16 corked arrays leave in calls of 16', () => {
  const { calls, io } = fake()
  const conn = newNativeConn(2)
  io.cork(conn)
  for (let i = 0; i < 20; i++) io.write(conn, bytes(1))
  io.uncork(conn)
  assert.equal(calls, [`write 2 ${Array(16).fill(1).join(',')}`, 'write 2 1,1,1,1'])
})

test('a failed write (-errno) destroys the connection, reported once; later calls do nothing', () => {
  const { calls, closed, io } = fake({ write: -32 })
  const conn = newNativeConn(3)
  io.write(conn, bytes(2))
  assert.ok(io.isClosed(conn))
  assert.equal(calls, ['write 3 2', 'destroy 3'])
  io.write(conn, bytes(2))
  io.destroy(conn)
  io.end(conn)
  io.pause(conn)
  io.resume(conn)
  assert.equal(calls, ['write 3 2', 'destroy 3'])
  assert.is(closed.length, 1)
})

test('end writes what is corked and the last bytes, then ends; closed now when the addon says so', () => {
  const { calls, closed, io } = fake({ end: 1 })
  const conn = newNativeConn(4)
  io.cork(conn)
  io.write(conn, bytes(1))
  io.end(conn, bytes(2))
  assert.equal(calls, ['write 4 1,2', 'end 4'])
  assert.ok(io.isEnded(conn))
  assert.ok(io.isClosed(conn))
  assert.equal(closed, [conn])
  io.write(conn, bytes(1))
  assert.is(calls.length, 2)
})

test('end without a close keeps the connection open until the addon reports it; pause and resume pass through', () => {
  const { calls, closed, io } = fake()
  const conn = newNativeConn(5)
  io.pause(conn)
  io.resume(conn)
  io.end(conn)
  assert.equal(calls, ['pause 5', 'resume 5', 'end 5'])
  assert.not.ok(io.isClosed(conn))
  assert.is(closed.length, 0)
  nativeConnClosed(conn)
  assert.ok(io.isClosed(conn))
})

test('uncork after the connection closed drops what was corked', () => {
  const { calls, io } = fake()
  const conn = newNativeConn(6)
  io.cork(conn)
  io.write(conn, bytes(3))
  nativeConnClosed(conn)
  io.uncork(conn)
  assert.equal(calls, [])
  assert.is(io.buffered(conn), 0)
})

test.run()
