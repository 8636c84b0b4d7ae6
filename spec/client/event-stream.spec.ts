import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { eventStream } from '../../lib/client/event-stream.js'

const test = suite('eventStream')

const source = (buffer = 8, signal?: AbortSignal) => {
  let push: (n: number) => void = () => assert.unreachable('not subscribed')
  let subscribed = 0
  const stream = eventStream<number>({
    subscribe: (p) => {
      push = p
      subscribed += 1
      return () => {
        subscribed -= 1
        push = () => undefined
      }
    },
    buffer,
    name: 'n',
    signal,
  })
  return { stream, push: (n: number) => push(n), subscribed: () => subscribed }
}

test('eventStream :: yields pushed values in order, buffered or awaited', async () => {
  const { stream, push } = source()
  push(1)
  push(2)
  assert.equal(await stream.next(), { value: 1, done: false })
  assert.equal(await stream.next(), { value: 2, done: false })
  const third = stream.next()
  push(3)
  assert.equal(await third, { value: 3, done: false })
})

test('eventStream :: for await with break unsubscribes', async () => {
  const { stream, push, subscribed } = source()
  push(1)
  push(2)
  const seen: number[] = []
  for await (const n of stream) {
    seen.push(n)
    if (n === 2) break
  }
  assert.equal(seen, [1, 2])
  assert.is(subscribed(), 0)
  assert.equal(await stream.next(), { value: undefined, done: true })
})

test('eventStream :: end delivers what is buffered, then finishes a waiting read', async () => {
  const { stream, push, subscribed } = source()
  push(1)
  stream.end()
  assert.is(subscribed(), 0)
  assert.equal(await stream.next(), { value: 1, done: false })
  assert.equal(await stream.next(), { value: undefined, done: true })
  const { stream: s2 } = source()
  const waiting = s2.next()
  s2.end()
  s2.end()
  assert.equal(await waiting, { value: undefined, done: true })
})

test('eventStream :: past the buffer the iteration fails with a RangeError after what it holds', async () => {
  const { stream, push, subscribed } = source(2)
  push(1)
  push(2)
  push(3)
  assert.is(subscribed(), 0)
  assert.equal(await stream.next(), { value: 1, done: false })
  assert.equal(await stream.next(), { value: 2, done: false })
  try {
    await stream.next()
    assert.unreachable('should fail')
  } catch (error) {
    assert.instance(error, RangeError)
    assert.is((error as Error).message, 'events("n"): over 2 messages waiting')
  }
  assert.equal(await stream.next(), { value: undefined, done: true })
})

test('eventStream :: an abort signal ends it; an aborted one ends it at once', async () => {
  const ac = new AbortController()
  const { stream, subscribed } = source(8, ac.signal)
  const waiting = stream.next()
  ac.abort()
  assert.equal(await waiting, { value: undefined, done: true })
  assert.is(subscribed(), 0)
  const { stream: s2, subscribed: sub2 } = source(8, AbortSignal.abort())
  assert.is(sub2(), 0)
  assert.equal(await s2.next(), { value: undefined, done: true })
})

test('eventStream :: return drops the buffer and unsubscribes, even before the first read', async () => {
  const { stream, push, subscribed } = source()
  push(1)
  assert.equal(await stream.return?.(), { value: undefined, done: true })
  assert.is(subscribed(), 0)
  assert.equal(await stream.next(), { value: undefined, done: true })
})

test.run()
