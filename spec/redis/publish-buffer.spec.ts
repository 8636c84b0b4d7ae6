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

test.run()
