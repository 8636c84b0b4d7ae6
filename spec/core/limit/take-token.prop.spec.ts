import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { takeToken, type BucketRule } from '../../../lib/core/limit/take-token.js'

const ruleArb: fc.Arbitrary<BucketRule> = fc.record({
  intervalMs: fc.integer({ min: 1, max: 10_000 }),
  burst: fc.integer({ min: 1, max: 50 }),
})
// Checks at non-decreasing times: gaps in ms.
const gapsArb = fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 200 })

// Runs the checks; answers each verdict with its time.
const run = (rule: BucketRule, gaps: readonly number[]) => {
  let tat: number | undefined
  let now = 1_000_000
  return gaps.map((gap) => {
    now += gap
    const v = takeToken(tat, rule, now)
    tat = v.tat
    return { now, ...v }
  })
}

test('takeToken :: never allows more than burst + elapsed/interval in any span of time', () => {
  fc.assert(
    fc.property(ruleArb, gapsArb, (rule, gaps) => {
      const seen = run(rule, gaps).filter((v) => v.allowed)
      // From any allowed check on, the allowed ones up to time t fit burst + (t − start) / interval.
      for (let i = 0; i < seen.length; i++) {
        for (let j = i; j < seen.length; j++) {
          const span = (seen[j] as { now: number }).now - (seen[i] as { now: number }).now
          assert.ok(j - i + 1 <= rule.burst + span / rule.intervalMs + 1e-9)
        }
      }
    }),
  )
})

test('takeToken :: a full bucket allows exactly burst checks at one instant', () => {
  fc.assert(
    fc.property(ruleArb, (rule) => {
      const verdicts = run(rule, Array.from({ length: rule.burst + 3 }, () => 0))
      assert.equal(verdicts.filter((v) => v.allowed).length, rule.burst)
      assert.ok(verdicts.slice(0, rule.burst).every((v) => v.allowed))
    }),
  )
})

test('takeToken :: a refused check spends nothing and passes once retryAfterMs has gone by', () => {
  fc.assert(
    fc.property(ruleArb, gapsArb, (rule, gaps) => {
      let tat: number | undefined
      let now = 0
      for (const gap of gaps) {
        now += gap
        const v = takeToken(tat, rule, now)
        if (!v.allowed) {
          assert.equal(v.tat, Math.max(tat ?? now, now))
          assert.ok(v.retryAfterMs > 0)
          assert.ok(takeToken(tat, rule, now + v.retryAfterMs).allowed)
          assert.not.ok(takeToken(tat, rule, now + v.retryAfterMs - 1).allowed)
        }
        tat = v.tat
      }
    }),
  )
})

test('takeToken :: remaining counts the checks that would still pass now', () => {
  fc.assert(
    fc.property(ruleArb, gapsArb, (rule, gaps) => {
      let tat: number | undefined
      let now = 0
      for (const gap of gaps) {
        now += gap
        const v = takeToken(tat, rule, now)
        tat = v.tat
        if (!v.allowed) continue
        let more = 0
        let t2 = tat
        for (;;) {
          const w = takeToken(t2, rule, now)
          if (!w.allowed) break
          more++
          t2 = w.tat
        }
        assert.is(v.remaining, more)
      }
    }),
  )
})

test('takeToken :: a bucket left alone for burst·interval is full again', () => {
  fc.assert(
    fc.property(ruleArb, gapsArb, (rule, gaps) => {
      const last = run(rule, gaps).at(-1) as { now: number; tat: number }
      const later = last.now + rule.burst * rule.intervalMs
      assert.ok(last.tat <= later)
      assert.equal(takeToken(last.tat, rule, later).remaining, takeToken(undefined, rule, later).remaining)
    }),
  )
})

test.run()
