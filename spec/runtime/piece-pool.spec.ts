/**
 * `createPiecePool`: read buffers lent and given back; only its own buffers come back, each once,
 * and at most `max` wait.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createPiecePool } from '../../lib/runtime/piece-pool.js'

test('createPiecePool :: a buffer given back is the memory of the next take, at the length asked', () => {
  const pool = createPiecePool({ size: 64, max: 4 })
  const first = pool.take(64)
  pool.give(first)
  assert.is(pool.idle, 1)
  const second = pool.take(10)
  assert.is(second.buffer, first.buffer)
  assert.equal([second.length, second.byteOffset, pool.idle], [10, 0, 0])
})

test('createPiecePool :: a short view at the start comes back; a foreign piece, a view past the start, or a second give do not', () => {
  const pool = createPiecePool({ size: 64, max: 4 })
  const piece = pool.take(64)
  pool.give(new Uint8Array(64))
  pool.give(piece.subarray(8))
  assert.is(pool.idle, 0)
  pool.give(piece.subarray(0, 20))
  pool.give(piece)
  assert.is(pool.idle, 1, 'given once')
  const a = pool.take(64)
  const b = pool.take(64)
  assert.is.not(a.buffer, b.buffer, 'two takes never share memory')
})

test('createPiecePool :: at most max buffers wait; the rest are left to the collector', () => {
  const pool = createPiecePool({ size: 16, max: 2 })
  const pieces = [pool.take(16), pool.take(16), pool.take(16)]
  for (const p of pieces) pool.give(p)
  assert.is(pool.idle, 2)
  assert.is(pool.take(16).length, 16)
})

test.run()
