/**
 * `attachmentSize` against V8's own structured serialisation (`node:v8`, the format
 * `serializeAttachment` writes): never below it, for any JSON value and for the other values a
 * client's data may hold (dates, byte arrays, maps, sets, holey arrays, repeated objects), and
 * close to it for plain text; `AttachmentTooLarge` says what, for whom, and the limit.
 */
import { serialize } from 'node:v8'
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ATTACHMENT_LIMIT, AttachmentTooLarge, attachmentSize } from '../../lib/workers/attachment-size.js'

const Size = suite('attachmentSize')

Size('attachmentSize :: never below V8 serialisation, for any JSON value', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => attachmentSize(value) >= serialize(value).length),
    { numRuns: 400 },
  )
})

Size('attachmentSize :: never below V8 serialisation, for strings of any characters, and objects of them', () => {
  const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) }))
  fc.assert(fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text))), (value) => attachmentSize(value) >= serialize(value).length), { numRuns: 300 })
})

Size('attachmentSize :: never below V8 serialisation for dates, bytes, maps, sets, holes, repeats, big integers', () => {
  const shared = { a: 'x'.repeat(50) }
  const holey = [1, , 3, , , 'x'.repeat(20)] // eslint-disable-line no-sparse-arrays
  const sparse: unknown[] = []
  sparse[1000] = 'far'
  const values: unknown[] = [
    new Date(0),
    new Uint8Array(300),
    new Uint16Array(10),
    new ArrayBuffer(64),
    new Map<unknown, unknown>([['k', 1], [2, { v: 'w' }]]),
    new Set(['a', 'b', 3]),
    holey,
    sparse,
    { one: shared, two: shared, list: [shared, shared] },
    { big: 2n ** 200n, small: -5n, n: -0, inf: Infinity, nan: NaN, int: 2 ** 31, neg: -1 },
    { text: 'é'.repeat(100), wide: 'ab€'.repeat(100), astral: '😀'.repeat(10) },
    [true, false, null, undefined, 0],
  ]
  for (const value of values) assert.ok(attachmentSize(value) >= serialize(value).length, `${attachmentSize(value)} < ${serialize(value).length}: ${String(value)}`)
})

Size('attachmentSize :: close to V8 for a plain attachment (refuses a little early, not much)', () => {
  const attachment = { id: 12, rooms: [['/', 'lobby']], target: '/chat?user=ada', headers: [['host', 'example.com']], data: { user: 'ada', note: 'n'.repeat(1500) } }
  const actual = serialize(attachment).length
  const bound = attachmentSize(attachment)
  assert.ok(bound >= actual && bound - actual < 16, `bound ${bound}, V8 ${actual}`)
  assert.ok(attachmentSize({ ...attachment, data: { note: 'n'.repeat(ATTACHMENT_LIMIT) } }) > ATTACHMENT_LIMIT)
})

Size('AttachmentTooLarge :: tagged, names the change, the client, the size and the limit', () => {
  const error = new AttachmentTooLarge(7, "setClientData('note')", 2300)
  assert.is(error._tag, 'AttachmentTooLarge')
  assert.is(error.name, 'AttachmentTooLarge')
  assert.is(error.limit, ATTACHMENT_LIMIT)
  assert.ok(error instanceof Error)
  assert.match(error.message, "setClientData('note') for client 7 would make its attachment about 2300 bytes, past the 2048")
})

Size.run()
