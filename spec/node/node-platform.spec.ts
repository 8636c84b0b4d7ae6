import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { Buffer } from 'node:buffer'
import type { Socket } from 'node:net'
import { nodeSocketIo } from '../../lib/node/node-platform.js'

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

test.run()
