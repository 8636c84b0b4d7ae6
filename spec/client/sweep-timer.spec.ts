import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Clock } from '../../lib/client/clock.js'
import { sweepTimer } from '../../lib/client/sweep-timer.js'
import { manualClock } from '../support/client.js'

const test = suite('sweepTimer')

// Deadlines kept by the caller, as the client keeps them on its requests; the sweep records
// when it ran and what fell due.
const setup = (clock: Clock) => {
  const deadlines = new Set<number>()
  const swept: { at: number; due: number[] }[] = []
  const timer = sweepTimer(clock, (now) => {
    const due = [...deadlines].filter((d) => d <= now)
    for (const d of due) deadlines.delete(d)
    swept.push({ at: now, due })
    return Math.min(...deadlines)
  })
  const watch = (deadline: number): void => {
    deadlines.add(deadline)
    timer.arm(deadline)
  }
  return { deadlines, swept, timer, watch }
}

test('sweepTimer :: many deadlines share one timer, armed for the earliest', () => {
  const clock = manualClock()
  const { swept, watch } = setup(clock)
  for (const d of [300, 100, 200, 250]) watch(d)
  assert.is(clock.pending, 1)
  clock.advance(99)
  assert.equal(swept, [])
  clock.advance(1)
  assert.equal(swept, [{ at: 100, due: [100] }])
  // The next deadline is armed by the sweep itself.
  assert.is(clock.pending, 1)
  clock.advance(200)
  assert.equal(swept, [
    { at: 100, due: [100] },
    { at: 200, due: [200] },
    { at: 250, due: [250] },
    { at: 300, due: [300] },
  ])
  assert.is(clock.pending, 0)
})

test('sweepTimer :: a deadline later than the armed one costs no timer', () => {
  const clock = manualClock()
  const { timer, watch } = setup(clock)
  watch(100)
  const before = clock.pending
  for (let d = 101; d < 1000; d++) watch(d)
  timer.arm(500)
  assert.is(clock.pending, before)
})

test('sweepTimer :: stop cancels the timer; arming again starts one', () => {
  const clock = manualClock()
  const { swept, timer, watch, deadlines } = setup(clock)
  watch(100)
  timer.stop()
  assert.is(clock.pending, 0)
  clock.advance(200)
  assert.equal(swept, [])
  deadlines.clear()
  watch(250)
  clock.advance(50)
  assert.equal(swept, [{ at: 250, due: [250] }])
})

test('sweepTimer :: a timer that fires before the clock reaches the deadline arms it again, 1 ms on at least', () => {
  // A clock whose timers run early: at half their delay (rounded up).
  const inner = manualClock()
  const early: Clock = { now: inner.now, clearTimeout: inner.clearTimeout, setTimeout: (run, ms) => inner.setTimeout(run, Math.ceil(ms / 2)) }
  const { swept, watch } = setup(early)
  watch(100)
  inner.advance(50)
  assert.equal(swept, [{ at: 50, due: [] }])
  inner.advance(50)
  assert.equal(swept.at(-1), { at: 100, due: [100] })
  assert.is(inner.pending, 0)
})

test.run()
