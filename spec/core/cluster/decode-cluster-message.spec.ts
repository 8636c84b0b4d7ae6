import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { ClusterMessage } from '../../../lib/core/cluster/cluster-message.js'
import { UNSEQUENCED } from '../../../lib/core/cluster/cluster-message.js'
import { decodeClusterMessage } from '../../../lib/core/cluster/decode-cluster-message.js'
import { encodeClusterMessage } from '../../../lib/core/cluster/encode-cluster-message.js'
import { withSequence } from '../../../lib/core/cluster/with-sequence.js'
import { crc32 } from '../../../lib/core/cluster/crc32.js'
import { concatBytes, hex, toHex } from '../ws/hex.js'

// A broadcast from node "n1" to room "r" (flags 02: a room, no namespace: the default one),
// frame 81 02 "hi", not sequenced.
const BODY = hex('74 77 01 01  02 6e 31  02  00 01 72  00 00 00 04  81 02 68 69')
const BROADCAST = concatBytes(BODY, hex('98 0e 7b 86'), new Uint8Array(16), hex('ec bb 4b 55'))

const right = (m: ClusterMessage): Uint8Array => {
  const encoded = encodeClusterMessage(m)
  if (E.isLeft(encoded)) throw new Error(encoded.left.reason)
  return encoded.right
}
const tagOf = (bytes: Uint8Array): string => {
  const decoded = decodeClusterMessage(bytes)
  return E.isLeft(decoded) ? decoded.left._tag : 'ok'
}

// A body (without its checksums) made valid: body CRC and an unsequenced trailer appended.
const sealed = (body: Uint8Array): Uint8Array => {
  const crc = new Uint8Array(4)
  new DataView(crc.buffer).setUint32(0, crc32(body))
  return concatBytes(body, crc, new Uint8Array(16), hex('ec bb 4b 55'))
}

test('decodeClusterMessage :: a broadcast to a room, byte for byte', () => {
  assert.equal(decodeClusterMessage(BROADCAST), E.right({ _tag: 'Broadcast', origin: 'n1', seq: UNSEQUENCED, room: 'r', frame: hex('81 02 68 69') }))
})

test('encodeClusterMessage :: gives those very bytes', () => {
  assert.is(toHex(right({ _tag: 'Broadcast', origin: 'n1', seq: UNSEQUENCED, room: 'r', frame: hex('81 02 68 69') })), toHex(BROADCAST))
})

test('decodeClusterMessage :: the frame is a view of the input, not a copy', () => {
  const decoded = decodeClusterMessage(BROADCAST)
  assert.ok(E.isRight(decoded) && decoded.right._tag === 'Broadcast' && decoded.right.frame.buffer === BROADCAST.buffer)
})

test('withSequence :: rewrites the trailer (epoch 1700000000000, n 42) with its checksum; the body is untouched', () => {
  const seq = { epoch: 1_700_000_000_000, n: 42 }
  const placed = withSequence(BROADCAST, seq)
  assert.is(toHex(placed.subarray(placed.length - 20)), '00 00 01 8b cf e5 68 00 00 00 00 00 00 00 00 2a 5b ce f5 41')
  assert.is(toHex(placed.subarray(0, placed.length - 20)), toHex(BROADCAST.subarray(0, BROADCAST.length - 20)))
  const decoded = decodeClusterMessage(placed)
  assert.ok(E.isRight(decoded))
  assert.equal(decoded.right.seq, seq)
  assert.is(withSequence(hex('01 02'), seq).length, 2) // too short to have a trailer: copied as it is
})

test('decodeClusterMessage :: every kind round-trips, names in UTF-8', () => {
  const frame = hex('82 03 00 ff 10')
  const messages: ClusterMessage[] = [
    { _tag: 'Broadcast', origin: 'nœud', seq: { epoch: 5, n: 9 }, frame },
    { _tag: 'Broadcast', origin: 'n', seq: UNSEQUENCED, namespace: '/chat', room: '', frame },
    { _tag: 'Direct', origin: 'a', seq: UNSEQUENCED, node: 'b', clientId: Number.MAX_SAFE_INTEGER, frame },
    { _tag: 'Direct', origin: 'a', seq: UNSEQUENCED, node: 'b', clientId: 2, envelope: true, frame: hex('81 02 7b 7d') },
    { _tag: 'Broadcast', origin: 'a', seq: UNSEQUENCED, room: 'r', envelope: true, frame: hex('81 02 7b 7d') },
    { _tag: 'Request', origin: 'a', seq: UNSEQUENCED, requestId: 0xffff_ffff, node: '', body: '{"q":"clients"}' },
    { _tag: 'Reply', origin: 'b', seq: UNSEQUENCED, requestId: 7, node: 'a', body: '["b/1"]' },
  ]
  for (const m of messages) assert.equal(decodeClusterMessage(right(m)), E.right(m))
})

test('decodeClusterMessage :: foreign input: not ours, another version, an unknown kind', () => {
  assert.equal(decodeClusterMessage(hex('74 77 01')), E.left({ _tag: 'NotClusterMessage', reason: 'shorter than a header' }))
  assert.is(tagOf(new TextEncoder().encode('{"event":"x"}')), 'NotClusterMessage')
  const v2 = BROADCAST.slice()
  v2[2] = 2
  assert.equal(decodeClusterMessage(v2), E.left({ _tag: 'UnsupportedVersion', version: 2, reason: 'cluster message version 2 is not supported' }))
  for (const kind of [0, 5, 255]) {
    const k = BROADCAST.slice()
    k[3] = kind
    assert.equal(decodeClusterMessage(k), E.left({ _tag: 'UnknownKind', kind, reason: `unknown cluster message kind ${kind}` }))
  }
  assert.is(tagOf(BROADCAST.subarray(0, 30)), 'Truncated')
})

test('decodeClusterMessage :: a flipped byte in the body or in the trailer is a checksum error', () => {
  const body = BROADCAST.slice()
  body[17] = 0x68 ^ 0x20 // "hi" -> "Hi" inside the frame
  assert.equal(decodeClusterMessage(body), E.left({ _tag: 'ChecksumMismatch', part: 'body', reason: 'the body checksum does not match' }))
  const trailer = BROADCAST.slice()
  trailer[trailer.length - 5] = 1 // n = 1
  assert.equal(decodeClusterMessage(trailer), E.left({ _tag: 'ChecksumMismatch', part: 'sequence', reason: 'the sequence checksum does not match' }))
  assert.is(tagOf(concatBytes(BROADCAST, hex('00'))), 'ChecksumMismatch') // trailing bytes shift the trailer
})

test('decodeClusterMessage :: fields out of range, with valid checksums, are refused by name', () => {
  const cases: [string, string, string][] = [
    ['74 77 01 01  00  00  00 00 00 02  81 00', 'InvalidField', 'origin: empty'],
    ['74 77 01 01  02 ff fe  00  00 00 00 02  81 00', 'InvalidField', 'origin: not UTF-8'],
    ['74 77 01 01  01 61  08  00 00 00 02  81 00', 'InvalidField', 'flags: unknown bits 8'],
    ['74 77 01 01  01 61  02  00 09 72', 'Truncated', 'room runs past the end of the message'],
    ['74 77 01 01  01 61  00  00 00 00 03  81 00', 'Truncated', 'payload runs past the end of the message'],
    ['74 77 01 01  01 61  00  00 00 00 02  81 00 ff', 'TrailingBytes', '1 bytes after the last field'],
    ['74 77 01 01  01 61  00  00 00 00 03  81 02 68', 'InvalidFrame', 'frame: header says 2 payload bytes, 1 are there'],
    ['74 77 01 01  01 61  00  00 00 00 02  01 00', 'InvalidFrame', 'frame: not a final text or binary frame without RSV bits'],
    ['74 77 01 01  01 61  00  00 00 00 02  c1 00', 'InvalidFrame', 'frame: not a final text or binary frame without RSV bits'],
    ['74 77 01 01  01 61  00  00 00 00 02  88 00', 'InvalidFrame', 'frame: not a final text or binary frame without RSV bits'],
    ['74 77 01 01  01 61  00  00 00 00 06  81 80 01 02 03 04', 'InvalidFrame', 'frame: masked'],
    ['74 77 01 01  01 61  00  00 00 00 05  81 7e 00 01 00', 'InvalidFrame', 'frame: length not in its minimal form'],
    ['74 77 01 01  01 61  00  00 00 00 03  81 7e 00', 'InvalidFrame', 'frame: shorter than its length field'],
    ['74 77 01 01  01 61  00  00 00 00 0b  82 7f 00 00 00 00 00 00 00 01 00', 'InvalidFrame', 'frame: length not in its minimal form'],
    ['74 77 01 01  01 61  00  00 00 00 0a  82 7f ff 00 00 00 00 00 00 01', 'InvalidFrame', 'frame: length out of range'],
    ['74 77 01 01  01 61  00  00 00 00 05  82 7f 00 00 00', 'InvalidFrame', 'frame: shorter than its length field'],
    ['74 77 01 01  01 61  00  00 00 00 01  81', 'InvalidFrame', 'frame: shorter than a frame header'],
    ['74 77 01 02  01 61  00  00 00 00 00 00 00 00 00', 'InvalidField', 'node: empty'],
    ['74 77 01 02  01 61  01 62  00 00 00 00 00 00 00 00  00  00 00 00 02 81 00', 'InvalidField', 'clientId: not a positive safe integer'],
    ['74 77 01 02  01 61  01 62  00 20 00 00 00 00 00 01  00  00 00 00 02 81 00', 'InvalidField', 'clientId: not a positive safe integer'],
    ['74 77 01 02  01 61  01 62  00 00 00 00 00 00 00 01  01  00 00 00 02 81 00', 'InvalidField', 'flags: unknown bits 1'],
    ['74 77 01 02  01 61  01 62  00 00 00 00 00 00 00 01', 'Truncated', 'flags runs past the end of the message'],
    ['74 77 01 01  01 61  0c  00 00 00 02  81 00', 'InvalidField', 'flags: unknown bits c'],
    ['74 77 01 02  01 61  01 62  00 00 00 00 00', 'Truncated', 'clientId runs past the end of the message'],
    ['74 77 01 03  01 61  00 00 00 01  00  00 00 00 02  ff ff', 'InvalidField', 'body: not UTF-8'],
    ['74 77 01 03  03 61 62 63  00 00 00', 'Truncated', 'requestId runs past the end of the message'],
    ['74 77 01 04  01 61  00 00 00 01  00  00 00 00 00', 'InvalidField', 'node: empty'],
    ['74 77 01 04  01 61  00 00 00 01  01 62  00 00', 'Truncated', 'payload length runs past the end of the message'],
    ['74 77 01 01  05 61 62 63 64 65', 'Truncated', 'flags runs past the end of the message'],
  ]
  for (const [body, tag, reason] of cases) {
    const decoded = decodeClusterMessage(sealed(hex(body)))
    assert.ok(E.isLeft(decoded), body)
    assert.equal([decoded.left._tag, decoded.left.reason], [tag, reason], body)
  }
})

test('decodeClusterMessage :: a sequence past 2^53 - 1 is refused', () => {
  const big = BROADCAST.slice()
  const at = big.length - 20
  big.set(hex('00 20 00 00 00 00 00 00'), at)
  new DataView(big.buffer).setUint32(at + 16, crc32(big, at, at + 16))
  assert.equal(decodeClusterMessage(big), E.left({ _tag: 'InvalidField', field: 'seq', reason: 'seq: past 2^53 - 1' }))
})

test('encodeClusterMessage :: refuses what cannot be a message', () => {
  const frame = hex('81 00')
  const cases: [ClusterMessage, string][] = [
    [{ _tag: 'Broadcast', origin: '', seq: UNSEQUENCED, frame }, 'origin: empty'],
    [{ _tag: 'Broadcast', origin: 'x'.repeat(256), seq: UNSEQUENCED, frame }, 'origin: longer than 255 bytes'],
    [{ _tag: 'Broadcast', origin: 'a', seq: { epoch: -1, n: 0 }, frame }, 'seq: not a pair of safe non-negative integers'],
    [{ _tag: 'Broadcast', origin: 'a', seq: { epoch: 0, n: 0.5 }, frame }, 'seq: not a pair of safe non-negative integers'],
    [{ _tag: 'Broadcast', origin: 'a', seq: UNSEQUENCED, room: 'r'.repeat(0x10000), frame }, 'room: longer than 65535 bytes'],
    [{ _tag: 'Broadcast', origin: 'a', seq: UNSEQUENCED, frame: hex('81 05 68') }, 'frame: header says 5 payload bytes, 1 are there'],
    [{ _tag: 'Direct', origin: 'a', seq: UNSEQUENCED, node: '', clientId: 1, frame }, 'node: empty'],
    [{ _tag: 'Direct', origin: 'a', seq: UNSEQUENCED, node: 'b', clientId: 0, frame }, 'clientId: not a positive safe integer'],
    [{ _tag: 'Direct', origin: 'a', seq: UNSEQUENCED, node: 'b', clientId: 1, frame: hex('81 80 00 00 00 00') }, 'frame: masked'],
    [{ _tag: 'Request', origin: 'a', seq: UNSEQUENCED, requestId: -1, node: '', body: '{}' }, 'requestId: not a u32'],
    [{ _tag: 'Reply', origin: 'a', seq: UNSEQUENCED, requestId: 1, node: '', body: '{}' }, 'node: empty'],
  ]
  for (const [m, reason] of cases) {
    const encoded = encodeClusterMessage(m)
    assert.ok(E.isLeft(encoded), reason)
    assert.is(encoded.left.reason, reason)
  }
})

test('encodeClusterMessage :: 16- and 64-bit frame lengths pass the frame check', () => {
  const mid = concatBytes(hex('82 7e 01 00'), new Uint8Array(256))
  const big = concatBytes(hex('82 7f 00 00 00 00 00 01 00 00'), new Uint8Array(0x10000))
  for (const frame of [mid, big]) {
    const decoded = decodeClusterMessage(right({ _tag: 'Broadcast', origin: 'a', seq: UNSEQUENCED, frame }))
    assert.ok(E.isRight(decoded) && decoded.right._tag === 'Broadcast' && decoded.right.frame.length === frame.length)
  }
})

test.run()
