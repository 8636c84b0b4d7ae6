import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { applyDelta, changeEntries, fitDelta } from '../../../lib/core/presence/apply-delta.js'
import { listPresence } from '../../../lib/core/presence/list-presence.js'
import { mergeSnapshot } from '../../../lib/core/presence/merge-snapshot.js'
import { compareClocks, entryRef, type NodeState } from '../../../lib/core/presence/presence-state.js'

const ada = { key: 'ada', conn: 1, meta: { on: 'phone' } }
const adaLaptop = { key: 'ada', conn: 2, meta: { on: 'laptop' } }
const state = (epoch: number, n: number, ...entries: (typeof ada)[]): NodeState => ({ clock: { epoch, n }, entries: new Map(entries.map((e) => [entryRef(e.conn, e.key), e])) })

test('applyDelta :: applies the next delta, with its joins and leaves', () => {
  const out = applyDelta(state(5, 1, ada), { base: { epoch: 5, n: 1 }, clock: { epoch: 5, n: 2 }, joins: [adaLaptop], leaves: [ada] })
  assert.is(out._tag, 'Applied')
  if (out._tag !== 'Applied') return
  assert.equal([...out.state.entries.values()], [adaLaptop])
  assert.equal(out.joins, [adaLaptop])
  assert.equal(out.leaves, [ada])
  assert.equal(out.state.clock, { epoch: 5, n: 2 })
})

test('applyDelta :: an old or repeated delta is Stale, a missed one a Gap', () => {
  assert.is(applyDelta(state(5, 2), { base: { epoch: 5, n: 1 }, clock: { epoch: 5, n: 2 }, joins: [ada], leaves: [] })._tag, 'Stale')
  assert.is(applyDelta(state(5, 1), { base: { epoch: 5, n: 2 }, clock: { epoch: 5, n: 3 }, joins: [ada], leaves: [] })._tag, 'Gap')
  assert.is(applyDelta(undefined, { base: { epoch: 5, n: 2 }, clock: { epoch: 5, n: 3 }, joins: [ada], leaves: [] })._tag, 'Gap')
})

test('applyDelta :: the first delta of a new epoch (a restarted node) replaces what it had', () => {
  const out = applyDelta(state(5, 9, ada), { base: { epoch: 6, n: 0 }, clock: { epoch: 6, n: 1 }, joins: [adaLaptop], leaves: [] })
  assert.is(out._tag, 'Applied')
  if (out._tag !== 'Applied') return
  assert.equal(out.leaves, [ada])
  assert.equal([...out.state.entries.values()], [adaLaptop])
})

test('fitDelta :: says what applyDelta would do, without applying', () => {
  assert.equal(fitDelta(state(5, 1, ada), { base: { epoch: 5, n: 1 }, clock: { epoch: 5, n: 2 }, joins: [], leaves: [ada] }), { _tag: 'Fits', fresh: false })
  assert.equal(fitDelta(state(5, 9, ada), { base: { epoch: 6, n: 0 }, clock: { epoch: 6, n: 1 }, joins: [], leaves: [] }), { _tag: 'Fits', fresh: true })
  assert.equal(fitDelta(state(5, 2), { base: { epoch: 5, n: 1 }, clock: { epoch: 5, n: 2 }, joins: [], leaves: [] }), { _tag: 'Stale' })
  assert.equal(fitDelta(state(5, 1), { base: { epoch: 5, n: 2 }, clock: { epoch: 5, n: 3 }, joins: [], leaves: [] }), { _tag: 'Gap' })
})

test('changeEntries :: changes the map given as applyDelta changes its copy (the engine’s in-place path)', () => {
  const delta = { base: { epoch: 5, n: 1 }, clock: { epoch: 5, n: 2 }, joins: [adaLaptop, { ...ada, meta: { on: 'tablet' } }], leaves: [ada] }
  const held = state(5, 1, ada)
  const pure = applyDelta(held, delta)
  const entries = new Map(held.entries)
  const changes = changeEntries(entries, delta)
  assert.is(pure._tag, 'Applied')
  if (pure._tag !== 'Applied') return
  assert.equal([...entries], [...pure.state.entries])
  assert.equal(changes, { joins: pure.joins, leaves: pure.leaves })
  assert.is(held.entries.size, 1, 'applyDelta left the state given alone')
})

test('mergeSnapshot :: the later clock wins; a changed meta is a leave and a join', () => {
  const changed = { ...ada, meta: { on: 'tablet' } }
  const out = mergeSnapshot(state(5, 1, ada), { clock: { epoch: 5, n: 3 }, entries: [changed] })
  assert.equal(out?.joins, [changed])
  assert.equal(out?.leaves, [ada])
  assert.is(mergeSnapshot(state(5, 3, ada), { clock: { epoch: 5, n: 3 }, entries: [] }), undefined)
  assert.ok(compareClocks({ epoch: 6, n: 0 }, { epoch: 5, n: 99 }) > 0)
})

test('listPresence :: groups every node’s connections by key', () => {
  assert.equal(listPresence([['a', state(1, 1, ada)], ['b', state(1, 1, adaLaptop)]]), {
    ada: { metas: [{ ref: 'a/1', meta: { on: 'phone' } }, { ref: 'b/2', meta: { on: 'laptop' } }] },
  })
})

test.run()
