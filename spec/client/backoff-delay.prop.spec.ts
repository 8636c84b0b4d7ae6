import fc from 'fast-check'
import { suite } from 'uvu'
import { backoffDelay } from '../../lib/client/backoff-delay.js'

const test = suite('backoffDelay properties')

test('backoffDelay :: always within [minDelay, min(maxDelay, minDelay · 2^attempt)]', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 60 }),
      fc.integer({ min: 0, max: 5000 }),
      fc.integer({ min: 0, max: 600_000 }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (attempt, min, max, r) => {
        const d = backoffDelay(attempt, min, max, () => r)
        const top = Math.max(min, Math.min(max, min * 2 ** attempt))
        return Number.isInteger(d) && d >= min && d <= top
      },
    ),
  )
})

test('backoffDelay :: grows with the random number', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 20 }), fc.double({ min: 0, max: 0.5, noNaN: true }), (attempt, r) => {
      return backoffDelay(attempt, 250, 30_000, () => r) <= backoffDelay(attempt, 250, 30_000, () => r + 0.49)
    }),
  )
})

test.run()
