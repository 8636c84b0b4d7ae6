import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ClientSession, newSessionId, PENDING } from '../../../lib/engine/recovery/client-session.js'

const limits = { windowMs: 1000, maxMessages: 16, maxAnswers: 3 }
const seqOf = (text: string): number => (JSON.parse(text) as { seq: number }).seq

test('ClientSession :: numbers from 1, in order, each text kept as sent', () => {
  const s = new ClientSession('sid', 1, limits)
  const a = s.number('{"event":"a"}')
  const b = s.number('{"event":"b","data":2}')
  assert.is(a, '{"event":"a","seq":1}')
  assert.is(b, '{"event":"b","data":2,"seq":2}')
  assert.equal(s.since(0), [a, b])
  assert.equal(s.since(1), [b])
  assert.equal(s.since(2), [])
})

test('ClientSession :: a client that claims numbers never sent gets no replay (resync)', () => {
  const s = new ClientSession('sid', 1, limits)
  s.number('{"event":"a"}')
  assert.is(s.since(5), undefined)
})

test('ClientSession :: past maxMessages the oldest are dropped; a client behind them gets no replay', () => {
  const s = new ClientSession('sid', 1, limits)
  for (let i = 0; i < 100; i++) s.number(`{"event":"e","data":${i}}`)
  assert.is(s.since(0), undefined)
  const tail = s.since(95) ?? []
  assert.equal(tail.map(seqOf), [96, 97, 98, 99, 100])
  // The lowest `lastSeq` still served: what is kept is contiguous, bounded, and ends at 100.
  let lowest = 99
  while (s.since(lowest - 1) !== undefined) lowest -= 1
  const kept = (s.since(lowest) ?? []).map(seqOf)
  assert.ok(kept.length <= limits.maxMessages && kept.length > 0, `bounded: ${kept.length}`)
  assert.equal(kept, Array.from({ length: kept.length }, (_, i) => lowest + 1 + i))
  assert.is(kept[kept.length - 1], 100)
})

test('ClientSession :: answers remembered by id, pending first, the oldest forgotten past the bound', () => {
  const s = new ClientSession('sid', 1, limits)
  s.remember(1, PENDING)
  assert.is(s.answerOf(1), PENDING)
  s.remember(1, '{"event":"ack","id":1,"data":null}')
  s.remember('x', 'X')
  s.remember(2, 'Y')
  s.remember(3, 'Z')
  assert.is(s.answerOf(1), undefined)
  assert.equal([s.answerOf('x'), s.answerOf(2), s.answerOf(3)], ['X', 'Y', 'Z'])
})

test('ClientSession :: at the bound the answer remembered least recently goes: a completed request counts from its answer', () => {
  const s = new ClientSession('sid', 1, limits)
  const kept = (): (string | undefined)[] => [1, 2, 3, 4, 5, 6, 7].map((id) => s.answerOf(id))
  s.remember(1, PENDING)
  s.remember(2, PENDING)
  s.remember(3, PENDING)
  // 1 answered last of the three: 2 is now the oldest.
  s.remember(1, 'A1')
  s.remember(4, PENDING)
  assert.equal(kept(), ['A1', undefined, PENDING, PENDING, undefined, undefined, undefined])
  s.remember(5, PENDING)
  assert.equal(kept(), ['A1', undefined, undefined, PENDING, PENDING, undefined, undefined])
  // A forgotten answer leaves room: nothing else goes until the bound is passed again.
  s.forget(1)
  s.forget(99)
  s.remember(6, 'A6')
  assert.equal(kept(), [undefined, undefined, undefined, PENDING, PENDING, 'A6', undefined])
  s.remember(7, 'A7')
  assert.equal(kept(), [undefined, undefined, undefined, undefined, PENDING, 'A6', 'A7'])
  // Remembered again after it was forgotten, an id is the newest.
  s.remember(1, 'B1')
  s.remember(5, 'A5')
  s.remember(8, PENDING)
  assert.equal([...kept(), s.answerOf(8)], ['B1', undefined, undefined, undefined, 'A5', undefined, undefined, PENDING])
})

test('ClientSession :: has: another node\'s broadcast at or before the cursor of its target reached it already (not while held)', () => {
  const s = new ClientSession('sid', 1, limits)
  const at = (epoch: number, n: number) => ({ key: 'room', origin: '', position: { epoch, n } })
  assert.is(s.has(at(1, 1)), false, 'no cursors yet')
  s.cursors = new Map([['room', { epoch: 2, n: 5 }]])
  assert.is(s.has(at(2, 5)), true)
  assert.is(s.has(at(2, 4)), true)
  assert.is(s.has(at(1, 9)), true, 'an older epoch')
  assert.is(s.has(at(2, 6)), false)
  assert.is(s.has(at(3, 0)), false)
  assert.is(s.has({ key: 'other', origin: '', position: { epoch: 1, n: 1 } }), false, 'a target without a cursor')
  assert.is(s.has({ key: 'room', origin: 'a', hash: 1 }), false, 'a broadcast of this node: no place')
  assert.is(s.has(undefined), false, 'a direct message')
  s.held = []
  assert.is(s.has(at(2, 4)), false, 'while restoring, the merge decides')
})

test('newSessionId :: 22 characters of base64url, different every time', () => {
  const ids = new Set(Array.from({ length: 200 }, newSessionId))
  assert.is(ids.size, 200)
  for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{22}$/)
})

test.run()
