import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ScopeOrder } from '../../lib/redis/scope-order.js'

const at = (epoch: number, n: number) => ({ epoch, n })

test('ScopeOrder :: the first message sets the place; the next ones are delivered in turn; repeats are dropped', () => {
  const o = new ScopeOrder<string>()
  assert.equal(o.offer(at(5, 7), 'g'), { deliver: ['g'], lost: 0, dropped: 0 })
  assert.equal(o.offer(at(5, 8), 'h'), { deliver: ['h'], lost: 0, dropped: 0 })
  assert.equal(o.offer(at(5, 8), 'h'), { deliver: [], lost: 0, dropped: 1 })
  assert.equal(o.offer(at(5, 2), 'b'), { deliver: [], lost: 0, dropped: 1 })
  assert.equal(o.offer(at(4, 99), 'old epoch'), { deliver: [], lost: 0, dropped: 1 })
  assert.equal(o.last, at(5, 8))
})

test('ScopeOrder :: unsequenced messages pass straight through', () => {
  const o = new ScopeOrder<string>()
  assert.equal(o.offer(at(0, 0), 'x'), { deliver: ['x'], lost: 0, dropped: 0 })
  assert.is(o.last, undefined)
})

test('ScopeOrder :: a gap asks for a fill after the last place and holds what comes meanwhile', () => {
  const o = new ScopeOrder<string>()
  o.offer(at(5, 1), 'a')
  assert.equal(o.offer(at(5, 4), 'd'), { deliver: [], fillFrom: at(5, 1), lost: 0, dropped: 0 })
  assert.equal(o.offer(at(5, 5), 'e'), { deliver: [], lost: 0, dropped: 0 })
  assert.is(o.refill(), undefined) // already filling
  // The stream has 2..5; the held 4 and 5 come again: each is delivered once, in order.
  assert.equal(o.filled([{ seq: at(5, 2), item: 'b' }, { seq: at(5, 3), item: 'c' }, { seq: at(5, 4), item: 'd' }, { seq: at(5, 5), item: 'e' }]), {
    deliver: ['b', 'c', 'd', 'e'],
    lost: 0,
    dropped: 0,
  })
  assert.equal(o.offer(at(5, 6), 'f'), { deliver: ['f'], lost: 0, dropped: 0 })
})

test('ScopeOrder :: what the stream no longer has is counted lost, and delivery goes on after it', () => {
  const o = new ScopeOrder<string>()
  o.offer(at(5, 1), 'a')
  o.offer(at(5, 10), 'j')
  assert.equal(o.filled([{ seq: at(5, 8), item: 'h' }, { seq: at(5, 9), item: 'i' }, { seq: at(5, 10), item: 'j' }]), { deliver: ['h', 'i', 'j'], lost: 6, dropped: 0 })
  assert.equal(o.last, at(5, 10))
})

test('ScopeOrder :: a new epoch is filled from the last place: the rest of the old epoch, then the new one from its start', () => {
  // The old epoch ended after the last place (pub/sub lost 5-4 and 5-5 in the failover).
  const o = new ScopeOrder<string>()
  o.offer(at(5, 3), 'old3')
  assert.equal(o.offer(at(9, 1), 'new1'), { deliver: [], fillFrom: at(5, 3), lost: 0, dropped: 0 })
  assert.equal(o.offer(at(9, 2), 'new2'), { deliver: [], lost: 0, dropped: 0 }) // held meanwhile
  assert.equal(o.filled([{ seq: at(5, 4), item: 'old4' }, { seq: at(5, 5), item: 'old5' }, { seq: at(9, 1), item: 'new1' }]), {
    deliver: ['old4', 'old5', 'new1', 'new2'],
    lost: 0,
    dropped: 0,
    left: at(5, 5), // where the adapter checks the old epoch's end
  })
  assert.equal(o.last, at(9, 2))
  // The old epoch ended at the last place: the new epoch from its first broadcast, once.
  const p = new ScopeOrder<string>()
  p.offer(at(5, 3), 'old3')
  assert.equal(p.offer(at(9, 1), 'new1'), { deliver: [], fillFrom: at(5, 3), lost: 0, dropped: 0 })
  assert.equal(p.filled([{ seq: at(9, 1), item: 'new1' }]), { deliver: ['new1'], lost: 0, dropped: 0, left: at(5, 3) })
  // The old epoch ended behind the last place (a failover took 5-3 back): nothing of it is
  // read, the new epoch follows (the adapter counts what was taken back, from `left`).
  const q = new ScopeOrder<string>()
  q.offer(at(5, 3), 'old3')
  q.offer(at(9, 1), 'new1')
  assert.equal(q.filled([{ seq: at(9, 1), item: 'new1' }, { seq: at(9, 2), item: 'new2' }]), { deliver: ['new1', 'new2'], lost: 0, dropped: 0, left: at(5, 3) })
  // A gap in the new epoch: what the stream no longer has of it is counted lost.
  const r = new ScopeOrder<string>()
  r.offer(at(5, 3), 'old')
  assert.equal(r.offer(at(9, 3), 'new3'), { deliver: [], fillFrom: at(5, 3), lost: 0, dropped: 0 })
  assert.equal(r.filled([{ seq: at(9, 2), item: 'new2' }]), { deliver: ['new2', 'new3'], lost: 1, dropped: 0, left: at(5, 3) })
  // A failed fill delivers what was held, in order.
  const f = new ScopeOrder<string>()
  f.offer(at(5, 3), 'old')
  f.offer(at(9, 1), 'new1')
  assert.equal(f.filled([]), { deliver: ['new1'], lost: 0, dropped: 0, left: at(5, 3) })
  // Two failovers in one fill: the last epoch left is the one whose end Redis still names.
  const t = new ScopeOrder<string>()
  t.offer(at(5, 3), 'old')
  t.offer(at(12, 1), 'c1')
  assert.equal(t.filled([{ seq: at(9, 1), item: 'b1' }, { seq: at(9, 2), item: 'b2' }, { seq: at(12, 1), item: 'c1' }]), { deliver: ['b1', 'b2', 'c1'], lost: 0, dropped: 0, left: at(9, 2) })
  // Within one epoch: nothing left.
  const w = new ScopeOrder<string>()
  w.offer(at(5, 1), 'a')
  w.offer(at(5, 3), 'c')
  assert.equal(w.filled([{ seq: at(5, 2), item: 'b' }]).left, undefined)
})

test('ScopeOrder :: a refill after an outage reads from the last place; a failed fill delivers what was held', () => {
  const o = new ScopeOrder<string>()
  assert.is(o.refill(), undefined) // nothing delivered yet: nothing to read after
  o.offer(at(5, 1), 'a')
  assert.equal(o.refill(), at(5, 1))
  assert.equal(o.offer(at(5, 2), 'b'), { deliver: [], lost: 0, dropped: 0 })
  assert.equal(o.filled([]), { deliver: ['b'], lost: 0, dropped: 0 })
  assert.is(o.filling, false)
})

test.run()
