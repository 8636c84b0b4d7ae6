import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { Buffer } from 'node:buffer'
import type { Socket } from 'node:net'
import { nodeSocketIo } from '../../lib/runtime/node-socket-io.js'

// A stand-in socket that records what `write` and `end` are handed.
const recorder = (): { socket: Socket; got: unknown[]; seen: string[] } => {
  const got: unknown[] = []
  const seen: string[] = [] // the bytes as they were when handed over
  const record = (chunk: unknown): void => {
    got.push(chunk)
    seen.push(chunk instanceof Uint8Array ? Buffer.from(chunk).toString('hex') : String(chunk))
  }
  const socket = { write: record, end: record } as unknown as Socket
  return { socket, got, seen }
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

test('nodeSocketIo.write :: a Buffer is passed on as it is', () => {
  const { socket, got } = recorder()
  const bytes = Buffer.from('48692e', 'hex')
  nodeSocketIo.write(socket, bytes)
  assert.is(got[0], bytes)
})

test('nodeSocketIo.write :: an array written again goes out as one Buffer view over the same memory, reused', () => {
  const { socket, got, seen } = recorder()
  const pool = new Uint8Array(64)
  pool.set([0x48, 0x69, 0x21], 10)
  const bytes = pool.subarray(10, 13)
  nodeSocketIo.write(socket, bytes)
  nodeSocketIo.write(socket, bytes)
  nodeSocketIo.write(socket, bytes)
  assert.is(got[0], bytes, 'a first write is left to Node')
  const view = got[1] as Buffer
  assert.ok(Buffer.isBuffer(view))
  assert.is(view.buffer, pool.buffer, 'a view, not a copy')
  assert.is(view.byteOffset, 10)
  assert.is(got[2], view)
  assert.equal(seen, ['486921', '486921', '486921'])
})

test('nodeSocketIo.write :: a Buffer written between two writes of an array is not remembered: the array\'s view is reused', () => {
  const { socket, got, seen } = recorder()
  const bytes = Uint8Array.of(0x61, 0x62)
  const echoes = Buffer.from('8101', 'hex')
  nodeSocketIo.write(socket, bytes)
  nodeSocketIo.write(socket, echoes)
  nodeSocketIo.write(socket, bytes)
  nodeSocketIo.write(socket, bytes)
  assert.is(got[1], echoes)
  assert.ok(Buffer.isBuffer(got[2]))
  assert.is((got[2] as Buffer).buffer, bytes.buffer, 'a view, not a copy')
  assert.is(got[3], got[2])
  assert.equal(seen, ['6162', '8101', '6162', '6162'])
})

test('nodeSocketIo.write :: another array, or the same memory changed in between, is sent as it is now', () => {
  const { socket, seen } = recorder()
  const a = Uint8Array.of(0x01, 0x02)
  const b = Uint8Array.of(0x03)
  nodeSocketIo.write(socket, a)
  nodeSocketIo.write(socket, b)
  a[0] = 0xff
  nodeSocketIo.write(socket, a)
  assert.equal(seen, ['0102', '03', 'ff02'])
})

test('nodeSocketIo.write :: a large array is passed on as it is, never kept', () => {
  const { socket, got } = recorder()
  const big = new Uint8Array(128 * 1024).fill(0x61)
  nodeSocketIo.write(socket, big)
  nodeSocketIo.write(socket, big)
  assert.is(got[0], big)
  assert.is(got[1], big)
})

test('nodeSocketIo.end :: the last bytes go out like a write; no bytes ends without a chunk', () => {
  const { socket, got, seen } = recorder()
  const last = Uint8Array.of(0x0d, 0x0a)
  nodeSocketIo.write(socket, last)
  nodeSocketIo.end(socket, last)
  nodeSocketIo.end(socket)
  assert.ok(Buffer.isBuffer(got[1]))
  assert.equal(seen, ['0d0a', '0d0a', 'undefined'])
})

test('nodeSocketIo.write :: any sequence of writes sends exactly the bytes given, in order', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.uint8Array({ maxLength: 24 }), fc.nat(3), fc.boolean()), { maxLength: 20 }), (writes) => {
      const { socket, got, seen } = recorder()
      const sent: string[] = []
      let last: Uint8Array | undefined
      for (const [data, offset, again] of writes) {
        // The same array again, or a fresh view at an offset of a larger buffer.
        let bytes: Uint8Array
        if (again && last !== undefined) bytes = last
        else {
          const backing = new Uint8Array(data.length + offset + 2)
          backing.set(data, offset)
          bytes = backing.subarray(offset, offset + data.length)
        }
        last = bytes
        sent.push(hex(bytes))
        nodeSocketIo.write(socket, bytes)
      }
      return got.every((c) => c instanceof Uint8Array) && seen.join('|') === sent.join('|')
    }),
    { numRuns: 300 },
  )
})

// A stand-in for a net.Socket's write side: corked writes are buffered and leave as one
// flush when the last cork is undone (as Node's writev does); `flushes` is what reached the wire.
interface Wire {
  corked: number
  held: string[]
  flushes: string[]
  destroyed: boolean
  ended: boolean
}
const wireSocket = (): { socket: Socket; wire: Wire } => {
  const wire: Wire = { corked: 0, held: [], flushes: [], destroyed: false, ended: false }
  const flush = (): void => {
    if (wire.held.length > 0) wire.flushes.push(wire.held.join(''))
    wire.held = []
  }
  const socket = {
    write(chunk: Uint8Array) {
      if (wire.destroyed) return
      wire.held.push(Buffer.from(chunk).toString('hex'))
      if (wire.corked === 0) flush()
    },
    end(chunk?: Uint8Array) {
      if (chunk !== undefined) socket.write(chunk)
      wire.corked = 0
      flush()
      wire.ended = true
    },
    cork() {
      wire.corked += 1
    },
    uncork() {
      if (wire.corked === 0) return
      wire.corked -= 1
      if (wire.corked === 0) flush()
    },
    destroy() {
      wire.destroyed = true
      wire.held = []
    },
    get destroyed() {
      return wire.destroyed
    },
    get writableCorked() {
      return wire.corked
    },
    get writableLength() {
      return wire.held.reduce((n, h) => n + h.length / 2, 0)
    },
    get writableEnded() {
      return wire.ended
    },
  }
  return { socket: socket as unknown as Socket, wire }
}

// What the same calls give on sockets corked for real, the reference.
const realIo = {
  write: (socket: Socket, bytes: Uint8Array) => void socket.write(bytes),
  cork: (socket: Socket) => socket.cork(),
  uncork: (socket: Socket) => socket.uncork(),
  end: (socket: Socket, bytes?: Uint8Array) => void (bytes === undefined ? socket.end() : socket.end(bytes)),
  destroy: (socket: Socket) => void socket.destroy(),
  buffered: (socket: Socket) => socket.writableLength,
}

test('nodeSocketIo.cork :: one write under a cork leaves once, at the uncork, as a plain write', () => {
  const { socket, wire } = wireSocket()
  nodeSocketIo.cork(socket)
  nodeSocketIo.write(socket, Uint8Array.of(0x81, 0x00))
  assert.equal(wire.flushes, [], 'held until the uncork')
  assert.is(nodeSocketIo.buffered(socket), 2, 'counted as waiting')
  assert.is(wire.corked, 0, 'no real cork for a lone write')
  nodeSocketIo.uncork(socket)
  assert.equal(wire.flushes, ['8100'])
})

test('nodeSocketIo.cork :: a second write, a nested cork or an end corks for real; everything leaves in one flush, in order', () => {
  const { socket, wire } = wireSocket()
  nodeSocketIo.cork(socket)
  nodeSocketIo.write(socket, Uint8Array.of(0x01))
  nodeSocketIo.write(socket, Uint8Array.of(0x02))
  nodeSocketIo.cork(socket)
  nodeSocketIo.write(socket, Uint8Array.of(0x03))
  nodeSocketIo.uncork(socket)
  assert.equal(wire.flushes, [])
  nodeSocketIo.uncork(socket)
  assert.equal(wire.flushes, ['010203'])
  nodeSocketIo.cork(socket)
  nodeSocketIo.write(socket, Uint8Array.of(0x04))
  nodeSocketIo.end(socket, Uint8Array.of(0x05))
  nodeSocketIo.uncork(socket)
  assert.equal(wire.flushes, ['010203', '0405'])
})

test('nodeSocketIo.cork :: a destroy drops the write held aside, as a real cork drops its buffer; the slot is freed for the next socket', () => {
  const a = wireSocket()
  const b = wireSocket()
  nodeSocketIo.cork(a.socket)
  nodeSocketIo.write(a.socket, Uint8Array.of(0x01))
  nodeSocketIo.destroy(a.socket)
  nodeSocketIo.uncork(a.socket)
  assert.equal(a.wire.flushes, [])
  // Left corked when it closed (never uncorked): the next socket still gets the lazy cork.
  const c = wireSocket()
  nodeSocketIo.cork(c.socket)
  nodeSocketIo.write(c.socket, Uint8Array.of(0x0c))
  c.socket.destroy()
  nodeSocketIo.cork(b.socket)
  nodeSocketIo.write(b.socket, Uint8Array.of(0x02))
  assert.is(b.wire.corked, 0, 'corked lazily')
  nodeSocketIo.uncork(b.socket)
  assert.equal(b.wire.flushes, ['02'])
})

// Each step: [socket index, operation, byte]. Corks are undone in any order the engine could
// (its batch uncorks later than a chunk's own cork); what reaches the wire must be the same.
test('nodeSocketIo :: any mix of corks, writes, ends and destroys on three sockets puts the same flushes on the wire as real corks', () => {
  const op = fc.tuple(fc.nat(2), fc.constantFrom('cork', 'uncork', 'write', 'write', 'write', 'end', 'destroy', 'buffered'), fc.integer({ min: 0, max: 255 }))
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (steps) => {
      const lazySide = [wireSocket(), wireSocket(), wireSocket()]
      const realSide = [wireSocket(), wireSocket(), wireSocket()]
      const open = [0, 0, 0]
      for (const [i, name, byte] of steps) {
        const l = lazySide[i]!.socket
        const r = realSide[i]!.socket
        if (name === 'cork') {
          open[i]! += 1
          nodeSocketIo.cork(l)
          realIo.cork(r)
        } else if (name === 'uncork') {
          if (open[i] === 0) continue
          open[i]! -= 1
          nodeSocketIo.uncork(l)
          realIo.uncork(r)
        } else if (name === 'write') {
          nodeSocketIo.write(l, Uint8Array.of(byte))
          realIo.write(r, Uint8Array.of(byte))
        } else if (name === 'end') {
          nodeSocketIo.end(l, Uint8Array.of(byte))
          realIo.end(r, Uint8Array.of(byte))
        } else if (name === 'destroy') {
          nodeSocketIo.destroy(l)
          realIo.destroy(r)
        } else if (nodeSocketIo.buffered(l) !== realIo.buffered(r)) return false
      }
      // Every cork undone at the end, as the engine always does for a live socket.
      for (let i = 0; i < 3; i++) {
        for (; open[i]! > 0; open[i]! -= 1) {
          nodeSocketIo.uncork(lazySide[i]!.socket)
          realIo.uncork(realSide[i]!.socket)
        }
      }
      return lazySide.every((side, i) => side.wire.flushes.join('|') === realSide[i]!.wire.flushes.join('|'))
    }),
    { numRuns: 500 },
  )
})

test.run()
