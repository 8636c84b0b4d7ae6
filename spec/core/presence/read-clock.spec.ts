import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { entryRef, type NodeState } from '../../../lib/core/presence/presence-state.js'
import { readClock } from '../../../lib/core/presence/read-clock.js'

const ada = { key: 'ada', conn: 1, meta: {} }
const state = (epoch: number, n: number): NodeState => ({ clock: { epoch, n }, entries: new Map([[entryRef(ada.conn, ada.key), ada]]) })

test('readClock :: a copy at the clock announced (or later in its epoch) is current', () => {
  assert.is(readClock(state(5, 3), { epoch: 5, n: 3 })._tag, 'Current')
  assert.is(readClock(state(5, 3), { epoch: 5, n: 2 })._tag, 'Current')
  assert.is(readClock(undefined, { epoch: 5, n: 0 })._tag, 'Current')
})

test('readClock :: a later clock with changes is Behind, also when nothing is held', () => {
  assert.is(readClock(state(5, 3), { epoch: 5, n: 4 })._tag, 'Behind')
  assert.is(readClock(state(5, 3), { epoch: 6, n: 1 })._tag, 'Behind')
  assert.is(readClock(undefined, { epoch: 5, n: 1 })._tag, 'Behind')
})

test('readClock :: a later epoch with no change is Empty; an earlier epoch is a restart', () => {
  assert.is(readClock(state(5, 3), { epoch: 6, n: 0 })._tag, 'Empty')
  assert.is(readClock(state(5, 3), { epoch: 4, n: 7 })._tag, 'Restarted')
  assert.is(readClock(state(5, 3), { epoch: 4, n: 0 })._tag, 'Restarted')
})

test.run()
