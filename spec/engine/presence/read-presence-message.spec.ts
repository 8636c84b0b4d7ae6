/**
 * `readPresenceMessage` (session 13): the per-change presence messages between nodes read by
 * hand instead of io-ts; what it accepts and what it refuses, naming the first wrong field.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { readPresenceMessage } from '../../../lib/engine/presence/read-presence-message.js'

const clock = { epoch: 1_700_000_000_000, n: 4 }
const entry = { key: 'ada', conn: 7, meta: { device: 'phone' } }

test('readPresenceMessage :: a delta, as sent', () => {
  const delta = { t: 'delta', topic: 'lobby', base: { epoch: clock.epoch, n: 3 }, clock, joins: [entry], leaves: [] }
  assert.equal(readPresenceMessage(delta), E.right(delta))
})

test('readPresenceMessage :: a sync and a digest', () => {
  assert.equal(readPresenceMessage({ t: 'sync', topic: 'lobby' }), E.right({ t: 'sync', topic: 'lobby' }))
  const digest = { t: 'digest', epoch: clock.epoch, topics: [['lobby', 4], ['room', 1]] }
  assert.equal(readPresenceMessage(digest), E.right(digest))
})

test('readPresenceMessage :: meta may be any value, even absent; extra fields are let through', () => {
  for (const meta of [null, 0, 'x', [1], undefined]) {
    const delta = { t: 'delta', topic: 'lobby', base: clock, clock, joins: [{ key: 'k', conn: 1, meta }], leaves: [], extra: true }
    assert.ok(E.isRight(readPresenceMessage(delta)), JSON.stringify(meta))
  }
  assert.ok(E.isRight(readPresenceMessage({ t: 'delta', topic: 'lobby', base: clock, clock, joins: [{ key: 'k', conn: 1 }], leaves: [] })))
})

test('readPresenceMessage :: refuses what is not one, naming the field', () => {
  const delta = { t: 'delta', topic: 'lobby', base: clock, clock, joins: [entry], leaves: [entry] }
  const cases: [unknown, string][] = [
    [null, 'message'],
    [[], 'message'],
    ['delta', 'message'],
    [{ t: 'other' }, 't'],
    [{}, 't'],
    [{ ...delta, topic: 1 }, 'topic'],
    [{ ...delta, base: { epoch: 1 } }, 'base'],
    [{ ...delta, clock: { epoch: '1', n: 1 } }, 'clock'],
    [{ ...delta, joins: [{ key: 'k', conn: '1', meta: {} }] }, 'joins'],
    [{ ...delta, joins: {} }, 'joins'],
    [{ ...delta, leaves: [null] }, 'leaves'],
    [{ t: 'sync' }, 'topic'],
    [{ t: 'digest', topics: [] }, 'epoch'],
    [{ t: 'digest', epoch: 1, topics: [['lobby']] }, 'topics'],
    [{ t: 'digest', epoch: 1, topics: [[1, 2]] }, 'topics'],
    [{ t: 'digest', epoch: 1 }, 'topics'],
  ]
  for (const [data, field] of cases) assert.equal(readPresenceMessage(data), E.left(field), JSON.stringify(data))
})

test.run()
