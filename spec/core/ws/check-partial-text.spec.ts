import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { assembleMessage, initialAssembly } from '../../../lib/core/ws/assemble-message.js'
import { continuePartialText, type PartialText, startPartialText } from '../../../lib/core/ws/check-partial-text.js'
import { CLOSE_CODE } from '../../../lib/core/ws/close-code.js'
import { encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../../lib/core/ws/frame.js'
import type { InvalidUtf8 } from '../../../lib/core/ws/ws-error.js'
import { hex, utf8 } from './hex.js'

const KEY = hex('37 fa 21 3d')

const started = (bytes: Uint8Array, state = initialAssembly): PartialText => {
  const scan = startPartialText(bytes, state)
  if (scan === undefined || E.isLeft(scan)) throw new Error('expected a partial text scan')
  return scan.right
}

const failure = (result: E.Either<InvalidUtf8, PartialText> | undefined): InvalidUtf8 => {
  if (result === undefined || E.isRight(result)) throw new Error('expected InvalidUtf8')
  return result.left
}

test('startPartialText :: fails on the first read that carries a byte UTF-8 never has (ff), with 1007', () => {
  // "hello" then ff, in a masked text frame announcing 100 payload bytes.
  const frame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new Uint8Array([...utf8('hello'), 0xff, ...new Uint8Array(94).fill(0x61)]) }, KEY)
  assert.ok(startPartialText(frame.subarray(0, 2 + 4 + 5), initialAssembly) !== undefined, 'valid so far')
  assert.ok(E.isRight(startPartialText(frame.subarray(0, 2 + 4 + 5), initialAssembly)!))
  const error = failure(startPartialText(frame.subarray(0, 2 + 4 + 6), initialAssembly))
  assert.equal([error._tag, error.closeCode], ['InvalidUtf8', CLOSE_CODE.INVALID_PAYLOAD])
})

test('startPartialText :: nothing to check for binary, control frames, an incomplete header, or a continuation of binary', () => {
  const binary = encodeFrameBytes({ opcode: OPCODE.BINARY, payload: new Uint8Array(10).fill(0xff) }, KEY)
  assert.is(startPartialText(binary.subarray(0, 8), initialAssembly), undefined)
  assert.is(startPartialText(hex('81'), initialAssembly), undefined)
  assert.is(startPartialText(hex('81 fe 01'), initialAssembly), undefined, 'the 16-bit length is not all there')
  assert.is(startPartialText(hex('81 85 37 fa'), initialAssembly), undefined, 'the key is not all there')
  const binaryStart = assembleMessage(initialAssembly, { fin: false, rsv1: false, rsv2: false, rsv3: false, opcode: OPCODE.BINARY, payload: hex('ff') }, { maxMessage: 100 })
  assert.ok(E.isRight(binaryStart))
  if (E.isLeft(binaryStart)) return
  const continuation = encodeFrameBytes({ opcode: OPCODE.CONTINUATION, payload: hex('ff ff ff') }, KEY)
  assert.is(startPartialText(continuation.subarray(0, 7), binaryStart.right.state), undefined)
  // A text frame while a message is in progress is assembly's error to report (1002), not this one's.
  assert.is(startPartialText(encodeFrameBytes({ opcode: OPCODE.TEXT, payload: hex('ff') }, KEY), binaryStart.right.state), undefined)
})

test('startPartialText :: skips a compressed text frame (RSV1) and its continuations (RFC 7692 §6)', () => {
  // DEFLATE bytes are not text: ff here is fine until the message is inflated.
  const first = encodeFrameBytes({ opcode: OPCODE.TEXT, rsv1: true, fin: false, payload: new Uint8Array(10).fill(0xff) }, KEY)
  assert.is(startPartialText(first.subarray(0, 8), initialAssembly), undefined)
  const start = assembleMessage(initialAssembly, { fin: false, rsv1: true, rsv2: false, rsv3: false, opcode: OPCODE.TEXT, payload: hex('ff') }, { maxMessage: 100 })
  if (E.isLeft(start)) throw new Error('unexpected error')
  assert.is(start.right.state._tag, 'CompressedInProgress')
  const continuation = encodeFrameBytes({ opcode: OPCODE.CONTINUATION, payload: hex('ff ff ff') }, KEY)
  assert.is(startPartialText(continuation.subarray(0, 7), start.right.state), undefined)
  // The same frame without RSV1 is checked, and fails.
  const plain = encodeFrameBytes({ opcode: OPCODE.TEXT, fin: false, payload: new Uint8Array(10).fill(0xff) }, KEY)
  assert.ok(E.isLeft(startPartialText(plain.subarray(0, 8), initialAssembly)!))
})

test('continuePartialText :: later reads are checked with the key in phase, code points split across reads', () => {
  // "é€" is c3 a9 e2 82 ac; each read ends inside a code point.
  const payload = new Uint8Array([...utf8('aé€'), ...new Uint8Array(20).fill(0x62)])
  const frame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload }, KEY)
  let scan = started(frame.subarray(0, 6 + 2)) // "a", c3
  assert.equal([scan.checked, scan.remaining, [...scan.pending]], [2, payload.length - 2, [0xc3]])
  for (const [from, to] of [[8, 11], [11, 12], [12, 20]] as const) {
    const next = continuePartialText(scan, frame.subarray(from, to))
    assert.ok(E.isRight(next), `bytes ${from}..${to}`)
    if (E.isLeft(next)) return
    scan = next.right
  }
  assert.equal([scan.checked, scan.remaining], [14, payload.length - 14])
  assert.equal(continuePartialText(scan, new Uint8Array(0)), E.right(scan), 'an empty read changes nothing')
})

test('continuePartialText :: an overlong or surrogate start fails on the read that makes it certain', () => {
  // e0 80 can only begin an overlong form; ed a0 a surrogate (RFC 3629 §4).
  for (const bad of [hex('e0 80'), hex('ed a0')]) {
    const frame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new Uint8Array([0x61, ...bad, 0x80, 0x61, 0x61]) }, KEY)
    const scan = started(frame.subarray(0, 6 + 2)) // "a", then the lead byte alone: still possible
    const error = failure(continuePartialText(scan, frame.subarray(8, 9)))
    assert.is(error.closeCode, 1007)
  }
})

test('startPartialText :: a continuation resumes from the code point the previous fragment left open', () => {
  // "€" = e2 82 ac: e2 ends the first fragment.
  const first = assembleMessage(initialAssembly, { fin: false, rsv1: false, rsv2: false, rsv3: false, opcode: OPCODE.TEXT, payload: hex('61 e2') }, { maxMessage: 100 })
  assert.ok(E.isRight(first))
  if (E.isLeft(first)) return
  const good = encodeFrameBytes({ opcode: OPCODE.CONTINUATION, fin: true, payload: hex('82 ac 61 61') }, KEY)
  assert.ok(E.isRight(startPartialText(good.subarray(0, 8), first.right.state)!))
  const bad = encodeFrameBytes({ opcode: OPCODE.CONTINUATION, fin: true, payload: hex('61 61 61 61') }, KEY)
  assert.is(failure(startPartialText(bad.subarray(0, 7), first.right.state)).closeCode, 1007)
})

test('startPartialText :: unmasked frames and 16- and 64-bit lengths', () => {
  const long = new Uint8Array(70_000).fill(0x61)
  long[300] = 0xff
  const frame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload: long })
  assert.is(frame[1], 127)
  assert.equal(started(frame.subarray(0, 10 + 300)).remaining, 70_000 - 300)
  assert.is(failure(startPartialText(frame.subarray(0, 10 + 301), initialAssembly)).closeCode, 1007)
  const medium = encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new Uint8Array(300).fill(0x61) }, KEY)
  assert.is(medium[1], 0x80 | 126)
  assert.equal(started(medium.subarray(0, 8 + 10)).checked, 10)
})

test.run()
