/**
 * `bunSocketIo` (lib/bun/bun-socket-io.ts) keeps a connection in six fields: the corked
 * writes in one (an array, or a list of them), one byte count for the backlog and the corked
 * writes together, and three bits for corking, ended and closed. Against a reference that
 * keeps a field for each fact (the layout it replaced), for any sequence of writes, corks,
 * ends, drains (the kernel taking a random number of bytes), destroys and closes: the same
 * calls reach the socket with the same bytes, and `buffered`, `isEnded` and `isClosed`
 * answer the same after every step. And the receiver hears `writable` whenever the corked
 * bytes are all taken, on the uncork itself when the kernel takes them whole (Bun sends no
 * `drain` then). Runs in Node (no Bun API is used).
 */
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SocketIo } from '../../lib/engine/platform.js'
import { bunSocketIo, type Conn, connClosed, flushBacklog, newConn, type Socket } from '../../lib/bun/bun-socket-io.js'

// A socket whose kernel takes `room` more bytes; every call it gets, in order.
interface FakeSocket {
  room: number
  readonly calls: string[]
  write(bytes: Uint8Array): number
  shutdown(): void
  terminate(): void
}
const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
const fakeSocket = (): FakeSocket => ({
  room: 0,
  calls: [],
  write(bytes) {
    const taken = Math.min(bytes.length, this.room)
    this.room -= taken
    this.calls.push(`write ${hex(bytes)} -> ${taken}`)
    return taken
  },
  shutdown() {
    this.calls.push('shutdown')
  },
  terminate() {
    this.calls.push('terminate')
  },
})

// ---- the reference: one field per fact -----------------------------------------------

interface OldConn {
  readonly socket: FakeSocket
  backlog: Uint8Array[] | undefined
  backlogBytes: number
  corking: boolean
  corkedFirst: Uint8Array | undefined
  corkedMore: Uint8Array[] | undefined
  corkedBytes: number
  ended: boolean
  closed: boolean
}
const pushBacklog = (conn: OldConn, bytes: Uint8Array): void => {
  ;(conn.backlog ??= []).push(bytes)
  conn.backlogBytes += bytes.length
}
const writeThrough = (conn: OldConn, bytes: Uint8Array): void => {
  if (conn.backlogBytes > 0) return pushBacklog(conn, bytes)
  const written = Math.max(0, conn.socket.write(bytes))
  if (written < bytes.length) pushBacklog(conn, bytes.subarray(written))
}
const oldFlush = (conn: OldConn): void => {
  const backlog = conn.backlog
  while (backlog !== undefined && backlog.length > 0) {
    const head = backlog[0] as Uint8Array
    const written = Math.max(0, conn.socket.write(head))
    conn.backlogBytes -= written
    if (written < head.length) {
      backlog[0] = head.subarray(written)
      return
    }
    backlog.shift()
  }
  conn.backlog = undefined
  if (conn.ended && !conn.closed) conn.socket.shutdown()
}
const oldIo: SocketIo<OldConn> = {
  write(conn, bytes) {
    if (conn.closed || conn.ended) return
    if (!conn.corking) return writeThrough(conn, bytes)
    if (conn.corkedFirst === undefined) conn.corkedFirst = bytes
    else (conn.corkedMore ??= []).push(bytes)
    conn.corkedBytes += bytes.length
  },
  buffered: (conn) => conn.backlogBytes + conn.corkedBytes,
  isClosed: (conn) => conn.closed,
  isEnded: (conn) => conn.ended,
  end(conn, bytes) {
    if (conn.closed || conn.ended) return
    if (bytes !== undefined) oldIo.write(conn, bytes)
    oldIo.uncork(conn)
    conn.ended = true
    if (conn.backlogBytes === 0) conn.socket.shutdown()
  },
  destroy(conn) {
    if (conn.closed) return
    conn.closed = true
    conn.socket.terminate()
  },
  cork(conn) {
    conn.corking = true
  },
  uncork(conn) {
    if (!conn.corking) return
    conn.corking = false
    const first = conn.corkedFirst
    if (first === undefined) return
    const parts = [first, ...(conn.corkedMore ?? [])]
    conn.corkedFirst = undefined
    conn.corkedMore = undefined
    conn.corkedBytes = 0
    if (!conn.closed) writeThrough(conn, parts.length === 1 ? first : Uint8Array.from(parts.flatMap((part) => [...part])))
  },
  pause: () => undefined,
  resume: () => undefined,
}
const oldClosed = (conn: OldConn): void => {
  conn.closed = true
  conn.backlog = undefined
  conn.backlogBytes = 0
}

// ---- the steps --------------------------------------------------------------------------

type Step =
  | { readonly op: 'write' | 'end'; readonly bytes: Uint8Array | undefined; readonly room: number }
  | { readonly op: 'cork' | 'destroy' | 'close' }
  | { readonly op: 'uncork' | 'drain'; readonly room: number }

const room = fc.integer({ min: 0, max: 24 })
const bytes = fc.uint8Array({ minLength: 0, maxLength: 12 })
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('write' as const), bytes, room }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('end' as const), bytes: fc.option(bytes, { nil: undefined }), room }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constantFrom('uncork' as const, 'drain' as const), room }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('cork' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('destroy' as const, 'close' as const) }) },
)

// Runs a step on one implementation; a drain comes only while a backlog waits (as Bun's does).
const run = <C extends { readonly socket: FakeSocket; backlog: Uint8Array[] | undefined }>(io: SocketIo<C>, flush: (conn: C) => void, closed: (conn: C) => void, conn: C, step: Step): void => {
  if ('room' in step) conn.socket.room = step.room
  switch (step.op) {
    case 'write':
      return io.write(conn, step.bytes as Uint8Array)
    case 'end':
      return io.end(conn, step.bytes)
    case 'cork':
      return io.cork(conn)
    case 'uncork':
      return io.uncork(conn)
    case 'drain':
      if (conn.backlog !== undefined) flush(conn)
      return
    case 'destroy':
      return io.destroy(conn)
    case 'close':
      return closed(conn)
  }
}

const answers = <C>(io: SocketIo<C>, conn: C): readonly unknown[] => [io.buffered(conn), io.isEnded(conn), io.isClosed(conn)]

test('bunSocketIo :: the same socket calls and answers as a field per fact, for any sequence of steps', () => {
  fc.assert(
    fc.property(fc.array(stepArb, { maxLength: 40 }), (steps) => {
      const oldSocket = fakeSocket()
      const old: OldConn = {
        socket: oldSocket, backlog: undefined, backlogBytes: 0, corking: false, corkedFirst: undefined, corkedMore: undefined, corkedBytes: 0, ended: false, closed: false,
      }
      const newSocket = fakeSocket()
      const conn = newConn(newSocket as unknown as Socket)
      ;(newSocket as unknown as { data: Conn }).data = conn
      const bunConn = conn as Conn & { readonly socket: FakeSocket }
      for (const step of steps) {
        run(oldIo, oldFlush, oldClosed, old, step)
        run(bunSocketIo as SocketIo<typeof bunConn>, (c) => flushBacklog(c.socket as unknown as Socket), connClosed, bunConn, step)
        assert.equal(newSocket.calls, oldSocket.calls)
        assert.equal(answers(bunSocketIo, conn), answers(oldIo, old))
      }
    }),
    { numRuns: 300 },
  )
})

test('bunSocketIo :: corked writes leave joined in one write on uncork; the kernel\'s rest waits for drain, then the end', () => {
  const socket = fakeSocket()
  const conn = newConn(socket as unknown as Socket)
  ;(socket as unknown as { data: Conn }).data = conn
  bunSocketIo.cork(conn)
  bunSocketIo.write(conn, Uint8Array.of(0x81, 0x01))
  bunSocketIo.write(conn, Uint8Array.of(0x61))
  bunSocketIo.write(conn, Uint8Array.of(0x62))
  assert.equal([socket.calls, bunSocketIo.buffered(conn)], [[], 4])
  socket.room = 3
  bunSocketIo.end(conn)
  assert.equal([socket.calls, bunSocketIo.buffered(conn), bunSocketIo.isEnded(conn)], [['write 81016162 -> 3'], 1, true])
  bunSocketIo.write(conn, Uint8Array.of(0x63)) // after the end: dropped
  socket.room = 10
  flushBacklog(socket as unknown as Socket)
  assert.equal([socket.calls, bunSocketIo.buffered(conn), conn.backlog], [['write 81016162 -> 3', 'write 62 -> 1', 'shutdown'], 0, undefined])
})

test('bunSocketIo :: a destroyed connection whose backlog drains is written to and never shut down', () => {
  const socket = fakeSocket()
  const conn = newConn(socket as unknown as Socket)
  ;(socket as unknown as { data: Conn }).data = conn
  socket.room = 1
  bunSocketIo.end(conn, Uint8Array.of(0x88, 0x00))
  bunSocketIo.destroy(conn)
  socket.room = 10
  flushBacklog(socket as unknown as Socket)
  assert.equal([socket.calls, bunSocketIo.buffered(conn), bunSocketIo.isClosed(conn)], [['write 8800 -> 1', 'terminate', 'write 00 -> 1'], 0, true])
})

test('bunSocketIo :: writable when the corked bytes are all taken: on an uncork the kernel takes whole (no drain follows), else on the drain', () => {
  const socket = fakeSocket()
  const conn = newConn(socket as unknown as Socket)
  ;(socket as unknown as { data: Conn }).data = conn
  let writables = 0
  conn.client = { receiver: { writable: () => void (writables += 1) } } as unknown as Conn['client']
  // An answer's head and its first piece, corked together: more than the pump's high-water mark.
  bunSocketIo.cork(conn)
  bunSocketIo.write(conn, Uint8Array.of(1, 2))
  bunSocketIo.write(conn, Uint8Array.of(3, 4, 5))
  socket.room = 100
  bunSocketIo.uncork(conn)
  assert.equal([bunSocketIo.buffered(conn), writables], [0, 1])
  // Taken in part: nothing yet; the drain that takes the rest says it.
  bunSocketIo.cork(conn)
  bunSocketIo.write(conn, Uint8Array.of(6, 7, 8))
  socket.room = 1
  bunSocketIo.uncork(conn)
  assert.equal([bunSocketIo.buffered(conn), writables], [2, 1])
  socket.room = 100
  flushBacklog(socket as unknown as Socket)
  assert.equal([bunSocketIo.buffered(conn), writables], [0, 2])
  // An uncork with nothing corked, and a write taken whole outside a cork: nothing was waiting.
  bunSocketIo.cork(conn)
  bunSocketIo.uncork(conn)
  bunSocketIo.write(conn, Uint8Array.of(9))
  assert.equal(writables, 2)
})

test.run()
