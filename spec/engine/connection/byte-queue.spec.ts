import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ByteQueue } from '../../../lib/engine/connection/byte-queue.js'

const u8 = (...xs: number[]): Uint8Array => new Uint8Array(xs)

test('byteQueue :: concatenates chunks once and keeps them as one', () => {
  const q = new ByteQueue()
  assert.ok(q.push(u8(1, 2)))
  assert.ok(q.push(u8(3)))
  const all = q.bytes()
  assert.equal([...all], [1, 2, 3])
  assert.is(q.bytes(), all)
  assert.is(q.length, 3)
})

test('byteQueue :: waits for the bytes a decoder asked for', () => {
  const q = new ByteQueue()
  q.push(u8(1))
  q.waitFor(4)
  assert.not.ok(q.push(u8(2)))
  assert.not.ok(q.push(u8()))
  assert.ok(q.push(u8(3, 4)))
  assert.equal([...q.bytes()], [1, 2, 3, 4])
})

test('byteQueue :: keep replaces the buffer with the rest and forgets the need', () => {
  const q = new ByteQueue()
  q.push(u8(1, 2, 3))
  q.waitFor(10)
  q.keep(q.bytes().subarray(2))
  assert.is(q.length, 1)
  assert.equal([...q.bytes()], [3])
  assert.ok(q.push(u8(4)))
  q.keep(new Uint8Array(0))
  assert.is(q.length, 0)
  assert.is(q.bytes().length, 0)
})

test('byteQueue :: a small rest of a big buffer is copied, not pinned', () => {
  const q = new ByteQueue()
  const big = new Uint8Array(1 << 20)
  big[big.length - 1] = 9
  q.push(big)
  q.keep(big.subarray(big.length - 1))
  const rest = q.bytes()
  assert.is(rest.buffer.byteLength, 1)
  assert.is(rest[0], 9)
  q.clear()
  assert.is(q.length, 0)
})

test.run()
