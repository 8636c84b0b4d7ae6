/**
 * checkTargetTail as a table: a cursor, what the log holds after it, the counter (with
 * where the epoch before the current one ended), and the answer. Epoch 5 is the old one,
 * 9 the one a failover started.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { checkTargetTail, type TargetTailFacts } from '../../lib/redis/check-target-tail.js'
import type { RoomFrame } from '../../lib/engine/recovery/recovery-store.js'

const at = (epoch: number, n: number) => ({ epoch, n })
const frame = (epoch: number, n: number): RoomFrame => ({ seq: at(epoch, n), frame: new Uint8Array([0x81, 0x01, n]), origin: 'b', envelope: true })
const row = (epoch: number, n: number) => ({ place: at(epoch, n), frame: frame(epoch, n) })
const places = (answer: ReturnType<typeof checkTargetTail>): string[] | string =>
  answer._tag === 'Frames' ? answer.frames.map((f) => `${f.seq.epoch}-${f.seq.n}`) : answer.reason

const cases: readonly (readonly [string, TargetTailFacts, string[] | string])[] = [
  ['same epoch: the rest of it', { after: at(5, 2), rows: [row(5, 3), row(5, 4)], counter: { e: 5, n: 4 }, atCursor: true }, ['5-3', '5-4']],
  ['same epoch, nothing new', { after: at(5, 4), rows: [], counter: { e: 5, n: 4 }, atCursor: true }, []],
  ['same epoch, the entry after the cursor trimmed', { after: at(5, 2), rows: [row(5, 4)], counter: { e: 5, n: 4 }, atCursor: false }, 'gap'],
  ['same epoch, the counter behind the cursor (lost before a new epoch began)', { after: at(5, 6), rows: [], counter: { e: 5, n: 4 }, atCursor: false }, 'gap'],
  ['same epoch, the log emptied though the counter went on', { after: at(5, 2), rows: [], counter: { e: 5, n: 4 }, atCursor: true }, 'gap'],
  ['old epoch ended after the cursor: its rest, then the new one from 1', { after: at(5, 2), rows: [row(5, 3), row(5, 4), row(9, 1), row(9, 2)], counter: { e: 9, n: 2, pe: 5, pn: 4 }, atCursor: true }, ['5-3', '5-4', '9-1', '9-2']],
  ['old epoch ended at the cursor: the new one from 1', { after: at(5, 4), rows: [row(9, 1)], counter: { e: 9, n: 1, pe: 5, pn: 4 }, atCursor: false }, ['9-1']],
  ['old epoch ended behind the cursor', { after: at(5, 6), rows: [row(9, 1)], counter: { e: 9, n: 1, pe: 5, pn: 4 }, atCursor: false }, 'gap'],
  ['the new epoch\'s first entry trimmed', { after: at(5, 4), rows: [row(9, 2)], counter: { e: 9, n: 2, pe: 5, pn: 4 }, atCursor: true }, 'gap'],
  ['an entry of the old epoch past its recorded end', { after: at(5, 3), rows: [row(5, 4), row(5, 5), row(9, 1)], counter: { e: 9, n: 1, pe: 5, pn: 4 }, atCursor: true }, 'gap'],
  ['two failovers: epoch 5\'s end read from the stream', { after: at(5, 2), rows: [row(5, 3), row(7, 1), row(9, 1)], counter: { e: 9, n: 1, pe: 7, pn: 1 }, atCursor: true }, ['5-3', '7-1', '9-1']],
  ['two failovers, the cursor the last of epoch 5', { after: at(5, 3), rows: [row(7, 1), row(9, 1)], counter: { e: 9, n: 1, pe: 7, pn: 1 }, atCursor: true }, ['7-1', '9-1']],
  ['two failovers, epoch 5 no longer in the stream', { after: at(5, 3), rows: [row(7, 1), row(9, 1)], counter: { e: 9, n: 1, pe: 7, pn: 1 }, atCursor: false }, 'new_epoch'],
  ['a log started again (no end recorded)', { after: at(5, 3), rows: [row(9, 1)], counter: { e: 9, n: 1 }, atCursor: false }, 'new_epoch'],
  ['no log, no counter: nothing to miss', { after: at(5, 3), rows: [], counter: undefined, atCursor: false }, []],
  ['from the start: the whole log', { after: at(0, 0), rows: [row(5, 1), row(5, 2), row(9, 1)], counter: { e: 9, n: 1, pe: 5, pn: 2 }, atCursor: false }, ['5-1', '5-2', '9-1']],
  ['from the start, the old epoch trimmed away', { after: at(0, 0), rows: [row(9, 1)], counter: { e: 9, n: 1, pe: 5, pn: 2 }, atCursor: false }, 'gap'],
  ['from the start, the first entry trimmed', { after: at(0, 0), rows: [row(5, 2)], counter: { e: 5, n: 2 }, atCursor: false }, 'gap'],
  ['from the start, every entry gone', { after: at(0, 0), rows: [], counter: { e: 5, n: 2 }, atCursor: false }, 'gap'],
  ['a foreign entry', { after: at(5, 2), rows: [{ place: at(5, 3), frame: undefined }], counter: { e: 5, n: 3 }, atCursor: true }, 'gap'],
]

for (const [name, facts, expected] of cases) {
  test(`checkTargetTail :: ${name}`, () => {
    assert.equal(places(checkTargetTail(facts)), expected)
  })
}

test('checkTargetTail :: the frames handed out are the log\'s, in its order', () => {
  const answer = checkTargetTail({ after: at(5, 3), rows: [row(5, 4), row(9, 1)], counter: { e: 9, n: 1, pe: 5, pn: 4 }, atCursor: true })
  assert.equal(answer, { _tag: 'Frames', frames: [frame(5, 4), frame(9, 1)] })
})

test.run()
