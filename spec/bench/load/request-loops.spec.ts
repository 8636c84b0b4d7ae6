import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type Ask, requestLoops } from '../../../bench/load/request-loops.js'

// An answer on the next turn of the event loop, as a client's would come (never a resolved
// promise: a loop awaiting those alone would not let the spec's own turns run).
const later = <T>(value: T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(value)))
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await later(undefined)
}

test('requestLoops :: keeps inFlight loops per client, each asking the last answer; a mark counts and resets', async () => {
  const loops = requestLoops()
  const asked: number[] = []
  const ask: Ask = (n) => (asked.push(n), later(n + 1))
  try {
    assert.is(loops.start([ask, ask], 3), 2)
    await turns(5)
    const first = loops.mark()
    assert.ok(first.answered >= 6, `answered ${first.answered}`)
    assert.is(first.failed, 0)
    assert.ok(first.p50Us >= 0 && first.p99Us >= first.p50Us)
    // Six loops, seeded 1000 apart: each asks its seed, then its seed + 1, …
    assert.equal(asked.slice(0, 6), [1000, 2000, 3000, 4000, 5000, 6000])
    assert.ok(asked.includes(1001))
    assert.is(loops.mark().answered, 0)
  } finally {
    loops.stop()
    await turns(3)
  }
})

test('requestLoops :: a wrong answer, undefined or a rejection ends its loop and counts as failed', async () => {
  const loops = requestLoops()
  let calls = 0
  const wrong: Ask = (n) => (calls++, later(n))
  const none: Ask = () => (calls++, later(undefined))
  const rejects: Ask = () => (calls++, Promise.reject(new Error('gone')))
  try {
    loops.start([wrong, none, rejects], 2)
    await turns(5)
    const w = loops.mark()
    assert.equal([w.answered, w.failed, calls], [0, 6, 6])
    assert.ok(Number.isNaN(w.p50Us))
  } finally {
    loops.stop()
  }
})

test('requestLoops :: stop ends the loops after the answers in flight', async () => {
  const loops = requestLoops()
  let calls = 0
  const ask: Ask = (n) => (calls++, later(n + 1))
  loops.start([ask], 2)
  await turns(2)
  loops.stop()
  const stoppedAt = calls
  await turns(5)
  assert.is(calls, stoppedAt)
})

test.run()
