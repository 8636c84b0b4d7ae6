import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { takeToken } from '../../../lib/core/limit/take-token.js'
import { bucketOf, checkRule } from '../../../lib/core/route/rate-limit-rule.js'

test('takeToken :: two tokens, then a refusal saying when the next one comes', () => {
  const rule = { intervalMs: 100, burst: 2 }
  const a = takeToken(undefined, rule, 0)
  assert.equal([a.allowed, a.remaining, a.tat], [true, 1, 100])
  const b = takeToken(a.tat, rule, 0)
  assert.equal([b.allowed, b.remaining, b.tat], [true, 0, 200])
  const c = takeToken(b.tat, rule, 0)
  assert.equal([c.allowed, c.retryAfterMs, c.tat], [false, 100, 200])
  const d = takeToken(c.tat, rule, 100)
  assert.equal([d.allowed, d.remaining], [true, 0])
})

test('bucketOf :: limit per window is a token every window/limit, the burst the limit', () => {
  assert.equal(bucketOf({ limit: 10, windowMs: 1000 }), { intervalMs: 100, burst: 10 })
  assert.equal(bucketOf({ limit: 10, windowMs: 1000, burst: 3 }), { intervalMs: 100, burst: 3 })
})

test('checkRule :: names what makes no sense', () => {
  assert.is(checkRule({ limit: 0, windowMs: 1000 }), 'limit must be a positive number')
  assert.is(checkRule({ limit: 1, windowMs: Number.NaN }), 'windowMs must be a positive number')
  assert.is(checkRule({ limit: 1, windowMs: 1, burst: 0.5 }), 'burst must be at least 1')
  assert.is(checkRule({ limit: 1, windowMs: 1, closeAfter: 1.5 }), 'closeAfter must be a positive integer')
  assert.is(checkRule({ limit: 1, windowMs: 1, closeAfter: 3 }), undefined)
})

test.run()
