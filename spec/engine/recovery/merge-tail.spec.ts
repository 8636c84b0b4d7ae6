import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { HeldMessage } from '../../../lib/engine/recovery/client-session.js'
import { frameHash } from '../../../lib/engine/recovery/frame-hash.js'
import { mergeTail } from '../../../lib/engine/recovery/merge-tail.js'
import { portableFrames } from '../../../lib/engine/delivery/outgoing.js'
import type { RoomFrame } from '../../../lib/engine/recovery/recovery-store.js'

const ROOM = '/\u0000lobby'
const text = (n: number): string => `{"event":"n","data":${n}}`
const entry = (n: number, origin: string, data = n): RoomFrame => ({ seq: { epoch: 7, n }, frame: portableFrames.text(text(data)), origin, envelope: true })
const nodes = { formerNode: 'a', thisNode: 'c' }

test('mergeTail :: the log after the cursor, without the former node\'s own broadcasts nor raw messages, each with its place', () => {
  const raw: RoomFrame = { seq: { epoch: 7, n: 3 }, frame: portableFrames.binary(Uint8Array.of(1)), origin: 'b', envelope: false }
  const out = mergeTail([{ key: ROOM, frames: [entry(1, 'b'), entry(2, 'a'), raw, entry(4, 'b')] }], [], nodes)
  assert.equal(out, [
    { text: text(1), source: { key: ROOM, origin: 'b', position: { epoch: 7, n: 1 } } },
    { text: text(4), source: { key: ROOM, origin: 'b', position: { epoch: 7, n: 4 } } },
  ])
})

test('mergeTail :: a held broadcast from another node is dropped from the log by its place; held ones come after the log', () => {
  const held: HeldMessage[] = [
    { text: text(2), source: { key: ROOM, origin: '', position: { epoch: 7, n: 2 } } },
    { text: '{"event":"d","data":0}', source: undefined },
  ]
  const out = mergeTail([{ key: ROOM, frames: [entry(1, 'b'), entry(2, 'b')] }], held, nodes)
  assert.equal(out.map((m) => m.text), [text(1), text(2), '{"event":"d","data":0}'])
})

test('mergeTail :: a held copy that came before an earlier entry\'s live copy is put back in the log\'s order', () => {
  // 2 reached the node live during the restore; the log read also has 3, whose live copy was still on its way.
  const held: HeldMessage[] = [{ text: text(2), source: { key: ROOM, origin: '', position: { epoch: 7, n: 2 } } }]
  const out = mergeTail([{ key: ROOM, frames: [entry(1, 'b'), entry(2, 'b'), entry(3, 'b')] }], held, nodes)
  assert.equal(out.map((m) => m.text), [text(1), text(2), text(3)])
  assert.equal(out[1]?.source?.position, { epoch: 7, n: 2 })
})

test('mergeTail :: this node\'s own broadcasts held are recognised in the log by their bytes, the longest overlap, repeats included', () => {
  const local = (n: number): HeldMessage => ({ text: text(n), source: { key: ROOM, origin: 'c', frame: portableFrames.text(text(n)) } })
  // The log: c's 5 (before the session came), c's 5 again and 6 (held: delivered here already).
  const out = mergeTail([{ key: ROOM, frames: [entry(1, 'c', 5), entry(2, 'c', 5), entry(3, 'c', 6)] }], [local(5), local(6), local(7)], nodes)
  assert.equal(out.map((m) => m.text), [text(5), text(5), text(6), text(7)])
  // Nothing of c's in the log yet: everything held stays.
  assert.equal(mergeTail([{ key: ROOM, frames: [] }], [local(5)], nodes).map((m) => m.text), [text(5)])
})

test('mergeTail :: targets one after the other, each in its log\'s order; an entry with no origin is kept', () => {
  const anon: RoomFrame = { seq: { epoch: 7, n: 9 }, frame: portableFrames.text(text(9)) }
  const out = mergeTail([{ key: '', frames: [entry(1, 'b', 10)] }, { key: ROOM, frames: [anon] }], [], nodes)
  assert.equal(out.map((m) => [m.text, m.source?.key, m.source?.origin]), [[text(10), '', 'b'], [text(9), ROOM, '']])
})


test('mergeTail :: the former node\'s entries after the last one its record names were never sent to the client: they are for it (issue 29)', () => {
  // a numbered 2 and 4 for the session (its record names 4), then started 5 and 6 after the record was written.
  const log = [entry(1, 'b'), entry(2, 'a'), entry(3, 'b'), entry(4, 'a'), entry(5, 'a'), entry(6, 'a')]
  const formerLast = { [ROOM]: frameHash(entry(4, 'a').frame) }
  const held: HeldMessage[] = [{ text: text(4), source: { key: ROOM, origin: '', position: { epoch: 7, n: 4 } } }]
  const out = mergeTail([{ key: ROOM, frames: log }], held, { ...nodes, formerLast })
  assert.equal(out.map((m) => m.text), [text(1), text(3), text(5), text(6)], 'a held copy of one it sent is dropped too')
  // Its last one before the cursor (not read): every entry of it read is for the client.
  assert.equal(mergeTail([{ key: ROOM, frames: [entry(5, 'a')] }], [], { ...nodes, formerLast }).map((m) => m.text), [text(5)])
  // A record that names none for the target: likewise; a record from before `lastOwn`: none of them.
  assert.equal(mergeTail([{ key: ROOM, frames: [entry(5, 'a')] }], [], { ...nodes, formerLast: {} }).map((m) => m.text), [text(5)])
  assert.equal(mergeTail([{ key: ROOM, frames: [entry(5, 'a')] }], [], nodes).map((m) => m.text), [])
})

test.run()
