import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { makeLogger } from '../../../lib/core/log/make-logger.js'
import { AbuseLog } from '../../../lib/engine/limit/abuse-log.js'
import { LocalBuckets } from '../../../lib/engine/limit/local-buckets.js'
import type { Timers } from '../../../lib/engine/platform.js'

// Timers a test moves by hand: `fire()` runs the timeouts due by `now`.
const handTimers = () => {
  let now = 0
  let timeouts: { at: number; run: () => void }[] = []
  const timers: Timers = {
    now: () => now,
    setTimeout: (run, ms) => {
      const t = { at: now + ms, run }
      timeouts.push(t)
      return t
    },
    clearTimeout: (id) => void (timeouts = timeouts.filter((t) => t !== id)),
    setInterval: () => undefined,
    clearInterval: () => undefined,
    afterIo: (run) => run(),
  }
  const advance = (ms: number): void => {
    now += ms
    const due = timeouts.filter((t) => t.at <= now)
    timeouts = timeouts.filter((t) => t.at > now)
    for (const t of due) t.run()
  }
  return { timers, advance }
}

test('AbuseLog :: the first of a kind is logged with its facts, the rest counted and logged once when the window ends', () => {
  const lines: string[] = []
  const logger = makeLogger((e) => void lines.push(`${e.level} ${e.message.replace(/\{(\w+)\}/g, (_, k: string) => String(e.context[k]))}`))
  const { timers, advance } = handTimers()
  const log = new AbuseLog(logger, timers, 1000)
  for (let i = 0; i < 500; i++) log.note('bad request', { status: 400 })
  log.note('rate limited')
  assert.equal(lines, ['warning bad request (more within 1000 ms are counted, not logged one by one)', 'warning rate limited (more within 1000 ms are counted, not logged one by one)'])
  advance(1000)
  assert.equal(lines.slice(2), ['warning bad request: 499 more in the last 1000 ms'])
  // A new window: the first is logged again.
  log.note('bad request')
  assert.is(lines.length, 4)
  log.close()
  assert.is(lines.length, 4, 'nothing more counted: nothing more to say')
})

test('LocalBuckets :: buckets per name and key; the ones full again are forgotten by the sweep', () => {
  let now = 0
  const buckets = new LocalBuckets(() => now)
  const rule = { intervalMs: 100, burst: 1 }
  assert.ok(buckets.take('a', 'k', rule).allowed)
  assert.not.ok(buckets.take('a', 'k', rule).allowed)
  assert.ok(buckets.take('b', 'k', rule).allowed)
  assert.ok(buckets.take('a', 'other', rule).allowed)
  assert.is(buckets.size, 3)
  now = 20_000
  assert.ok(buckets.take('a', 'k', rule).allowed)
  assert.is(buckets.size, 1)
})

test.run()
