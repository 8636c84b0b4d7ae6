import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { backoffDelay } from '../../lib/client/backoff-delay.js'

const test = suite('backoffDelay')

test('backoffDelay :: random 0 waits the minimum on every attempt', () => {
  assert.equal([1, 2, 5, 20].map((n) => backoffDelay(n, 500, 10_000, () => 0)), [500, 500, 500, 500])
})

test('backoffDelay :: the window doubles per attempt', () => {
  // random just under 1 reaches the top of the window: min · 2^attempt.
  const top = (n: number): number => backoffDelay(n, 100, 100_000, () => 0.999999)
  assert.equal([1, 2, 3, 4].map(top), [200, 400, 800, 1600])
})

test('backoffDelay :: the window stops growing at maxDelay', () => {
  assert.is(backoffDelay(30, 500, 10_000, () => 0.999999), 10_000)
  assert.is(backoffDelay(1000, 500, 10_000, () => 0.5), 5250)
})

test('backoffDelay :: the whole window is random (full jitter above the floor)', () => {
  assert.is(backoffDelay(3, 500, 10_000, () => 0.5), 2250)
  assert.is(backoffDelay(3, 500, 10_000, () => 0.25), 1375)
})

test('backoffDelay :: maxDelay below minDelay waits minDelay', () => {
  assert.is(backoffDelay(4, 1000, 10, () => 0.7), 1000)
})

test.run()
