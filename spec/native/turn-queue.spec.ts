/**
 * `createTurnQueue`: work deferred inside a batch waits for `run` (the addon's `turnEnd`), in
 * order; work deferred outside one, inside a job, after a failed batch or with a binary that
 * never calls `turnEnd` goes to `setImmediate`. Pure: no addon.
 */
import { setImmediate } from 'node:timers'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createTurnQueue } from '../../lib/native/turn-queue.js'

const test = suite('createTurnQueue')

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

test('createTurnQueue :: work deferred in a batch waits for turnEnd, in order', async () => {
  const turn = createTurnQueue(true)
  const seen: string[] = []
  turn.open()
  turn.afterIo(() => seen.push('a'))
  assert.is(turn.close(false), true)
  turn.afterIo(() => seen.push('b')) // a promise job after the batch: still this turn
  await nextTurn()
  assert.equal(seen, [])
  turn.run()
  assert.equal(seen, ['a', 'b'])
})

test('createTurnQueue :: a batch that deferred nothing answers false, and later work takes setImmediate', async () => {
  const turn = createTurnQueue(true)
  const seen: string[] = []
  turn.open()
  assert.is(turn.close(false), false)
  turn.afterIo(() => seen.push('later'))
  await nextTurn()
  assert.equal(seen, ['later'])
})

test('createTurnQueue :: work a job defers goes to the next turn', async () => {
  const turn = createTurnQueue(true)
  const seen: string[] = []
  turn.open()
  turn.afterIo(() => turn.afterIo(() => seen.push('inner')))
  turn.close(false)
  turn.run()
  assert.equal(seen, [])
  await nextTurn()
  assert.equal(seen, ['inner'])
})

test('createTurnQueue :: a failed batch hands its work to setImmediate; a turnEnd after it runs nothing twice', async () => {
  const turn = createTurnQueue(true)
  let runs = 0
  turn.open()
  turn.afterIo(() => runs++)
  assert.is(turn.close(true), false)
  turn.run() // the addon's turnEnd for an earlier batch of the same wake-up
  await nextTurn()
  assert.is(runs, 1)
})

test('createTurnQueue :: a throwing job does not stop the others; the first error is rethrown', () => {
  const turn = createTurnQueue(true)
  const seen: string[] = []
  turn.open()
  turn.afterIo(() => {
    throw new Error('first')
  })
  turn.afterIo(() => seen.push('second'))
  turn.close(false)
  assert.throws(() => turn.run(), /first/)
  assert.equal(seen, ['second'])
})

test('createTurnQueue :: without turnEnd in the binary everything takes setImmediate', async () => {
  const turn = createTurnQueue(false)
  const seen: string[] = []
  turn.open()
  turn.afterIo(() => seen.push('a'))
  assert.is(turn.close(false), false)
  await nextTurn()
  assert.equal(seen, ['a'])
})

test.run()
