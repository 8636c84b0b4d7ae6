import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { sumTallies, tallyTicks } from '../../../bench/recovery/tally-ticks.js'

test('tallyTicks :: every tick once, in order: nothing lost, duplicated or out of order', () => {
  assert.equal(tallyTicks([1, 2, 3, 4], 1, 4), { lost: 0, duplicated: 0, outOfOrder: 0 })
})

test('tallyTicks :: a hole is lost, a repeat is duplicated', () => {
  assert.equal(tallyTicks([1, 2, 2, 4], 1, 4), { lost: 1, duplicated: 1, outOfOrder: 0 })
})

test('tallyTicks :: a tick after a greater one is out of order, not duplicated', () => {
  assert.equal(tallyTicks([1, 3, 2, 4], 1, 4), { lost: 0, duplicated: 0, outOfOrder: 1 })
})

test('tallyTicks :: ticks outside the range are neither lost nor counted missing; the range end counts', () => {
  assert.equal(tallyTicks([0, 2, 3, 9], 1, 4), { lost: 2, duplicated: 0, outOfOrder: 0 })
  assert.equal(tallyTicks([], 1, 3), { lost: 3, duplicated: 0, outOfOrder: 0 })
  assert.equal(tallyTicks([5], 6, 5), { lost: 0, duplicated: 0, outOfOrder: 0 })
})

test('sumTallies :: adds each count; nothing for no clients', () => {
  assert.equal(sumTallies([tallyTicks([1, 1], 1, 2), tallyTicks([2, 1], 1, 3)]), { lost: 2, duplicated: 1, outOfOrder: 1 })
  assert.equal(sumTallies([]), { lost: 0, duplicated: 0, outOfOrder: 0 })
})

test.run()
