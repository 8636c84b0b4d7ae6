import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { settledIds } from '../../lib/client/settled-ids.js'

const test = suite('settledIds')

test('settledIds :: remembers the last ids up to its size', () => {
  const s = settledIds(2)
  s.add(1)
  s.add(2)
  s.add(3)
  assert.equal([s.has(1), s.has(2), s.has(3)], [false, true, true])
})

test('settledIds :: a number and a string id are different ids', () => {
  const s = settledIds(4)
  s.add(1)
  assert.equal([s.has(1), s.has('1')], [true, false])
})

test('settledIds :: adding an id again makes it the newest', () => {
  const s = settledIds(2)
  s.add(1)
  s.add(2)
  s.add(1)
  s.add(3)
  assert.equal([s.has(1), s.has(2), s.has(3)], [true, false, true])
})

test.run()
