import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { percentile, summarize } from '../../../bench/report/stats.js'

test('summarize :: odd count, unsorted input left alone', () => {
  const input = [30, 10, 20]
  assert.equal(summarize(input), { n: 3, median: 20, min: 10, max: 30 })
  assert.equal(input, [30, 10, 20])
})

test('summarize :: even count takes the mean of the middle two', () => {
  assert.equal(summarize([4, 1, 3, 2]), { n: 4, median: 2.5, min: 1, max: 4 })
})

test('summarize :: empty gives NaN fields', () => {
  const s = summarize([])
  assert.is(s.n, 0)
  assert.ok(Number.isNaN(s.median) && Number.isNaN(s.min) && Number.isNaN(s.max))
})

test('percentile :: nearest rank, clamped p, NaN when empty', () => {
  const xs = Array.from({ length: 100 }, (_, i) => i + 1)
  assert.is(percentile(xs, 50), 50)
  assert.is(percentile(xs, 99), 99)
  assert.is(percentile(xs, 100), 100)
  assert.is(percentile(xs, 0), 1)
  assert.is(percentile(xs, 150), 100)
  assert.ok(Number.isNaN(percentile([], 50)))
})

test.run()
