import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { PublishBuffer } from '../../lib/redis/publish-buffer.js'

const entry = (name: string, size: number) => ({ keys: name, message: new Uint8Array(size) })

test('PublishBuffer :: admits up to its bound in bytes, in flight and waiting together, and counts what it refuses', () => {
  const b = new PublishBuffer<string>(100)
  assert.is(b.admit(60), true)
  assert.is(b.admit(50), false)
  assert.is(b.admit(40), true)
  assert.equal([b.bytes, b.dropped], [100, 1])
  b.settled(60)
  assert.is(b.admit(50), true)
  assert.equal([b.bytes, b.dropped], [90, 1])
})

test('PublishBuffer :: failed sends go out again before what was waiting, each list in its order', () => {
  const b = new PublishBuffer<string>(1000)
  b.hold(entry('w1', 1))
  b.hold(entry('w2', 1))
  b.fail(entry('f1', 1))
  b.fail(entry('f2', 1))
  assert.is(b.length, 4)
  assert.equal(b.takeAll().map((e) => e.keys), ['f1', 'f2', 'w1', 'w2'])
  assert.equal([b.length, b.takeAll()], [0, []])
})

test('PublishBuffer :: one target\'s messages: the oldest first (failed, then waiting), taken out alone or all, the others left in order', () => {
  const b = new PublishBuffer<string>(1000)
  const w1 = entry('room-x', 1)
  b.hold(w1)
  b.hold(entry('room-y', 1))
  const f1 = entry('room-x', 2)
  b.fail(f1)
  b.fail(entry('room-y', 2))
  const isX = (k: string) => k === 'room-x'
  assert.is(b.first(isX), f1)
  assert.is(b.first((k) => k === 'room-z'), undefined)
  assert.is(b.remove(f1), true)
  assert.is(b.remove(f1), false)
  assert.is(b.first(isX), w1)
  b.fail(f1)
  assert.equal(b.take(isX), [f1, w1])
  assert.equal(b.take(isX), [])
  assert.equal(b.takeAll().map((e) => [e.keys, e.message.length]), [['room-y', 2], ['room-y', 1]])
})

test.run()
