/**
 * Presence's merge laws (lib/core/presence/): copies of a node's state that saw its deltas and
 * snapshots in any order, with duplicates and losses, agree once each has seen the node's last
 * snapshot; the diffs a copy reported, replayed, give the entries it holds (what a subscriber
 * built from them is the list); merging snapshots is commutative and idempotent.
 */
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { applyDelta } from '../../../lib/core/presence/apply-delta.js'
import { listPresence } from '../../../lib/core/presence/list-presence.js'
import { mergeSnapshot } from '../../../lib/core/presence/merge-snapshot.js'
import { entryRef, type NodeSnapshot, type NodeState, type PresenceDelta, type PresenceEntry } from '../../../lib/core/presence/presence-state.js'

type Op = { readonly track: boolean; readonly conn: number; readonly key: string; readonly meta: number }
type Message = { readonly node: string; readonly delta: PresenceDelta } | { readonly node: string; readonly snapshot: NodeSnapshot }

const opArb: fc.Arbitrary<Op> = fc.record({ track: fc.boolean(), conn: fc.integer({ min: 1, max: 4 }), key: fc.constantFrom('ada', 'bob', 'cy'), meta: fc.integer({ min: 0, max: 2 }) })
// A node's history: its changes in batches (one delta each), in one or two epochs (a restart).
const historyArb = fc.record({ batches: fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), restartAt: fc.option(fc.nat(6), { nil: undefined }) })

// What a node publishes, as PresenceTopic.flush does: a delta per batch, and the snapshot after it.
const publish = (node: string, history: { batches: Op[][]; restartAt: number | undefined }): { messages: Message[]; last: NodeSnapshot } => {
  let epoch = 100
  let clock = { epoch, n: 0 }
  let entries = new Map<string, PresenceEntry>()
  const messages: Message[] = []
  history.batches.forEach((batch, i) => {
    if (i === history.restartAt) {
      epoch += 1
      clock = { epoch, n: 0 }
      entries = new Map()
    }
    const next = new Map(entries)
    for (const op of batch) {
      const ref = entryRef(op.conn, op.key)
      if (op.track) next.set(ref, { key: op.key, conn: op.conn, meta: { m: op.meta } })
      else next.delete(ref)
    }
    const joins: PresenceEntry[] = []
    const leaves: PresenceEntry[] = []
    for (const ref of new Set([...entries.keys(), ...next.keys()])) {
      const before = entries.get(ref)
      const now = next.get(ref)
      if (before === now) continue
      if (before !== undefined) leaves.push(before)
      if (now !== undefined) joins.push(now)
    }
    const base = clock
    clock = { epoch, n: clock.n + 1 }
    entries = next
    messages.push({ node, delta: { base, clock, joins, leaves } })
    messages.push({ node, snapshot: { clock, entries: [...entries.values()] } })
  })
  return { messages, last: { clock, entries: [...entries.values()] } }
}

// A copy of every node, fed messages; it keeps the entries its diffs say (a subscriber's view).
const replica = () => {
  const states = new Map<string, NodeState>()
  const seen = new Map<string, PresenceEntry>() // `${node} ${ref}` -> entry, built from diffs only
  const apply = (node: string, joins: readonly PresenceEntry[], leaves: readonly PresenceEntry[]): void => {
    for (const e of leaves) seen.delete(`${node} ${entryRef(e.conn, e.key)}`)
    for (const e of joins) seen.set(`${node} ${entryRef(e.conn, e.key)}`, e)
  }
  const feed = (m: Message): void => {
    if ('delta' in m) {
      const out = applyDelta(states.get(m.node), m.delta)
      if (out._tag === 'Applied') {
        states.set(m.node, out.state)
        apply(m.node, out.joins, out.leaves)
      }
    } else {
      const out = mergeSnapshot(states.get(m.node), m.snapshot)
      if (out !== undefined) {
        states.set(m.node, out.state)
        apply(m.node, out.joins, out.leaves)
      }
    }
  }
  return { states, seen, feed }
}

const normal = (states: Map<string, NodeState>): string => {
  const list = listPresence([...states].sort(([a], [b]) => a.localeCompare(b)))
  return JSON.stringify(Object.keys(list).sort().map((k) => [k, [...(list[k]?.metas ?? [])].map((m) => JSON.stringify(m)).sort()]))
}

test('presence :: copies that got any order, duplicates and losses converge on the last snapshots', () => {
  fc.assert(
    fc.property(fc.array(historyArb, { minLength: 1, maxLength: 3 }), fc.array(fc.integer(), { minLength: 4, maxLength: 4 }), (histories, seeds) => {
      const published = histories.map((h, i) => publish(`n${i}`, h))
      const all = published.flatMap((p) => p.messages)
      const results = seeds.map((seed) => {
        const r = replica()
        // A shuffled subset, with some duplicates, then each node's last snapshot (anti-entropy).
        const order = fc.sample(fc.shuffledSubarray([...all, ...all.slice(0, 3)], { minLength: 0 }), { numRuns: 1, seed })[0] ?? []
        for (const m of order) r.feed(m)
        published.forEach((p, i) => r.feed({ node: `n${i}`, snapshot: p.last }))
        return r
      })
      const truth = new Map(published.map((p, i) => [`n${i}`, { clock: p.last.clock, entries: new Map(p.last.entries.map((e) => [entryRef(e.conn, e.key), e])) }]))
      for (const r of results) {
        assert.is(normal(r.states), normal(truth))
        // The diffs reported, replayed, are the entries held.
        const held = [...r.states].flatMap(([node, s]) => [...s.entries].map(([ref, e]) => `${node} ${ref} ${JSON.stringify(e.meta)}`)).sort()
        assert.equal([...r.seen].map(([k, e]) => `${k} ${JSON.stringify(e.meta)}`).sort(), held)
      }
    }),
    { numRuns: 300 },
  )
})

test('presence :: deltas in order give the same state as the last snapshot', () => {
  fc.assert(
    fc.property(historyArb, (history) => {
      const { messages, last } = publish('a', history)
      const r = replica()
      for (const m of messages) if ('delta' in m) r.feed(m)
      assert.equal([...(r.states.get('a')?.entries.values() ?? [])].sort((x, y) => entryRef(x.conn, x.key).localeCompare(entryRef(y.conn, y.key))), [...last.entries].sort((x, y) => entryRef(x.conn, x.key).localeCompare(entryRef(y.conn, y.key))))
      assert.equal(r.states.get('a')?.clock, last.clock)
    }),
    { numRuns: 300 },
  )
})

test('mergeSnapshot :: commutative and idempotent', () => {
  fc.assert(
    fc.property(historyArb, fc.nat(20), fc.nat(20), (history, i, j) => {
      const snaps = publish('a', history).messages.flatMap((m) => ('snapshot' in m ? [m.snapshot] : []))
      const a = snaps[i % snaps.length] as NodeSnapshot
      const b = snaps[j % snaps.length] as NodeSnapshot
      const merge = (s: NodeState | undefined, x: NodeSnapshot): NodeState | undefined => mergeSnapshot(s, x)?.state ?? s
      const ab = merge(merge(undefined, a), b)
      const ba = merge(merge(undefined, b), a)
      assert.equal(ab?.clock, ba?.clock)
      assert.is(normal(new Map([['a', ab as NodeState]])), normal(new Map([['a', ba as NodeState]])))
      assert.is(mergeSnapshot(ab, a.clock.epoch === ab?.clock.epoch && a.clock.n === ab?.clock.n ? a : b), undefined)
    }),
    { numRuns: 300 },
  )
})

test.run()
