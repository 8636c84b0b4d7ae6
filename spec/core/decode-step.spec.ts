import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { needMore, parsed } from '../../lib/core/decode-step.js'

test('needMore :: carries the byte count to wait for', () => {
  assert.equal(needMore(14), { _tag: 'NeedMore', atLeast: 14 })
})

test('parsed :: keeps the rest as the same view', () => {
  const bytes = new Uint8Array([1, 2, 3])
  const rest = bytes.subarray(1)
  const step = parsed('v', rest)
  assert.is(step.rest, rest)
  assert.is(step.rest.buffer, bytes.buffer)
})

test.run()
