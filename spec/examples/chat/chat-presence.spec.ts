/** The grace period's bookkeeping: tokens, holds, resumes, with a hand-driven schedule. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createPresence, type Schedule } from '../../../examples/chat/chat-presence.js'

// A schedule the test runs by hand: `due()` fires what is scheduled and not cancelled.
const manual = (): { schedule: Schedule; due: () => void; scheduled: number[] } => {
  const jobs: { ms: number; run: () => void; cancelled: boolean }[] = []
  return {
    schedule: (ms, run) => {
      const job = { ms, run, cancelled: false }
      jobs.push(job)
      return () => {
        job.cancelled = true
      }
    },
    due: () => {
      for (const job of jobs.splice(0)) if (!job.cancelled) job.run()
    },
    get scheduled() {
      return jobs.map((j) => j.ms)
    },
  }
}

const counter = (): (() => string) => {
  let n = 0
  return () => `token-${++n}`
}

test('createPresence :: a client keeps one token', () => {
  const presence = createPresence({ graceMs: 100, schedule: manual().schedule, newToken: counter() })
  assert.is(presence.tokenFor(1), 'token-1')
  assert.is(presence.tokenFor(1), 'token-1')
  assert.is(presence.tokenFor(2), 'token-2')
})

test('createPresence :: a held client expires after the grace period', () => {
  const clock = manual()
  const presence = createPresence({ graceMs: 5000, schedule: clock.schedule, newToken: counter() })
  const token = presence.tokenFor(1)
  const expired: number[] = []
  presence.hold(1, () => expired.push(1))
  assert.equal(clock.scheduled, [5000])
  assert.equal(expired, [])
  clock.due()
  assert.equal(expired, [1])
  assert.not.ok(presence.resume(1, token, 2))
})

test('createPresence :: resuming with the token cancels the expiry and moves the token', () => {
  const clock = manual()
  const presence = createPresence({ graceMs: 5000, schedule: clock.schedule, newToken: counter() })
  const token = presence.tokenFor(1)
  const expired: number[] = []
  presence.hold(1, () => expired.push(1))
  assert.not.ok(presence.resume(1, 'token-9', 2))
  assert.not.ok(presence.resume(3, token, 2))
  assert.ok(presence.resume(1, token, 2))
  clock.due()
  assert.equal(expired, [])
  assert.is(presence.tokenFor(2), token)
  assert.not.ok(presence.resume(1, token, 4))
})

test('createPresence :: a live client cannot be resumed', () => {
  const presence = createPresence({ graceMs: 5000, schedule: manual().schedule, newToken: counter() })
  assert.not.ok(presence.resume(1, presence.tokenFor(1), 2))
})

test('createPresence :: no grace period expires at once', () => {
  const clock = manual()
  const presence = createPresence({ graceMs: 0, schedule: clock.schedule, newToken: counter() })
  const token = presence.tokenFor(1)
  const expired: number[] = []
  presence.hold(1, () => expired.push(1))
  assert.equal(expired, [1])
  assert.equal(clock.scheduled, [])
  assert.not.ok(presence.resume(1, token, 2))
})

test.run()
