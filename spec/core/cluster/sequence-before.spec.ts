import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { sequenceBefore } from '../../../lib/core/cluster/sequence-before.js'

test('sequenceBefore :: by epoch first, then by number; a place is not before itself', () => {
  assert.is(sequenceBefore({ epoch: 1, n: 9 }, { epoch: 2, n: 1 }), true)
  assert.is(sequenceBefore({ epoch: 2, n: 1 }, { epoch: 1, n: 9 }), false)
  assert.is(sequenceBefore({ epoch: 2, n: 3 }, { epoch: 2, n: 4 }), true)
  assert.is(sequenceBefore({ epoch: 2, n: 4 }, { epoch: 2, n: 3 }), false)
  assert.is(sequenceBefore({ epoch: 2, n: 3 }, { epoch: 2, n: 3 }), false)
})

test.run()
