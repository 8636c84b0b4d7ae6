import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type DecodeStep, needMore, parsed } from '../../lib/core/decode-step.js'
import { type Decode, feedAll, feedChunks } from './feed.js'

// A toy decoder: one length byte, then that many bytes; a length of 0xff is an error.
const decodeItem: Decode<string, readonly number[]> = (bytes) => {
  if (bytes.length < 1) return E.right(needMore(1))
  const length = bytes[0] ?? 0
  if (length === 0xff) return E.left('bad length')
  if (bytes.length < 1 + length) return E.right(needMore(1 + length))
  return E.right(parsed([...bytes.subarray(1, 1 + length)], bytes.subarray(1 + length)))
}

const bytes = (...xs: number[]): Uint8Array => new Uint8Array(xs)

// The helper's own assertion must fire (uvu's `throws` lets an Assertion through).
const breaksContract = (run: () => unknown, pattern: RegExp): void => {
  try {
    run()
  } catch (err) {
    assert.instance(err, assert.Assertion)
    assert.match((err as Error).message, pattern)
    return
  }
  assert.unreachable('the contract breach went unnoticed')
}

test('feedAll :: decodes a stream of items the same in every way it is fed', () => {
  const out = feedAll(decodeItem, bytes(2, 10, 11, 0, 1, 12))
  assert.equal(out, { values: [[10, 11], [], [12]], error: undefined, leftover: 0 })
})

test('feedAll :: reports an incomplete item as leftover', () => {
  assert.equal(feedAll(decodeItem, bytes(1, 10, 3, 1)), { values: [[10]], error: undefined, leftover: 2 })
})

test('feedAll :: reports the first error and the values before it', () => {
  assert.equal(feedAll(decodeItem, bytes(1, 10, 0xff, 1, 2)), { values: [[10]], error: 'bad length', leftover: 0 })
})

test('feedAll :: samples the split points of a large input', () => {
  const big = new Uint8Array(3000)
  for (let i = 0; i < big.length; i += 100) big[i] = 99
  assert.equal(feedAll(decodeItem, big).values.length, 30)
})

test('feedAll :: flags a decoder that differs when fed in pieces', () => {
  // Accepts only what it is given at once: fed in pieces it never completes.
  const greedy: Decode<string, number> = (b) => (b.length >= 2 ? E.right(parsed(b.length, b.subarray(b.length))) : E.right(needMore(2)))
  breaksContract(() => feedAll(greedy, bytes(1, 2, 3, 4)), /one byte at a time/)
})

test('feedChunks :: flags a NeedMore that asks for no more than is buffered', () => {
  const stuck: Decode<string, number> = (b) => E.right(needMore(b.length))
  breaksContract(() => feedChunks(stuck, [bytes(1, 2)]), /must ask for more/)
})

test('feedChunks :: flags a rest that is a copy', () => {
  const copying: Decode<string, number> = (b) => E.right(parsed(1, b.slice(1)))
  breaksContract(() => feedChunks(copying, [bytes(1, 2)]), /view/)
})

test('feedChunks :: flags a decoder that mutates its input', () => {
  const mutating: Decode<string, number> = (b): E.Either<string, DecodeStep<number>> => {
    b[0] = 0
    return E.right(parsed(1, b.subarray(1)))
  }
  breaksContract(() => feedChunks(mutating, [bytes(1)]), /mutate/)
})

test('feedAll :: flags trailing bytes that do not come back as the rest', () => {
  // Swallows everything after a complete item.
  const swallowing: Decode<string, number> = (b) => (b.length < 2 ? E.right(needMore(2)) : E.right(parsed(b[0] ?? 0, b.subarray(b.length))))
  breaksContract(() => feedAll(swallowing, bytes(7, 7)), /trailing|untouched/)
})

test.run()
