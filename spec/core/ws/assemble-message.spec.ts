import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type AssemblyState, assembleMessage, compressedBound, type Incoming, initialAssembly } from '../../../lib/core/ws/assemble-message.js'
import { type Frame, OPCODE } from '../../../lib/core/ws/frame.js'
import type { WsError } from '../../../lib/core/ws/ws-error.js'
import { hex, utf8 } from './hex.js'

const LIMITS = { maxMessage: 1000 }

const frame = (opcode: number, payload: Uint8Array, fin = true): Frame => ({ fin, rsv1: false, rsv2: false, rsv3: false, opcode, payload })

// Runs frames through assembly from the initial state: everything received, or the first error.
const run = (frames: readonly Frame[], limits = LIMITS): { out: Incoming[]; state: AssemblyState } | WsError => {
  let state = initialAssembly
  const out: Incoming[] = []
  for (const f of frames) {
    const step = assembleMessage(state, f, limits)
    if (E.isLeft(step)) return step.left
    state = step.right.state
    if (step.right.output !== undefined) out.push(step.right.output)
  }
  return { out, state }
}

const errorOf = (frames: readonly Frame[], limits = LIMITS): WsError => {
  const result = run(frames, limits)
  if (!('_tag' in result)) throw new Error('expected an error')
  return result
}

test('assembleMessage :: a single-frame text message', () => {
  assert.equal(run([frame(OPCODE.TEXT, utf8('Hello'))]), { out: [{ _tag: 'Text', text: 'Hello' }], state: initialAssembly })
})

test('assembleMessage :: a single-frame binary message is the payload itself', () => {
  const payload = hex('01 02 03')
  const result = run([frame(OPCODE.BINARY, payload)])
  if ('_tag' in result) throw new Error('unexpected error')
  const msg = result.out[0]
  assert.is(msg?._tag === 'Binary' && msg.data, payload)
})

test('assembleMessage :: RFC 6455 §5.7 fragments "Hel" + "lo"', () => {
  const result = run([frame(OPCODE.TEXT, utf8('Hel'), false), frame(OPCODE.CONTINUATION, utf8('lo'))])
  assert.equal(result, { out: [{ _tag: 'Text', text: 'Hello' }], state: initialAssembly })
})

test('assembleMessage :: binary in three fragments, one of them empty', () => {
  const result = run([frame(OPCODE.BINARY, hex('01'), false), frame(OPCODE.CONTINUATION, hex(''), false), frame(OPCODE.CONTINUATION, hex('02 03'))])
  assert.equal(result, { out: [{ _tag: 'Binary', data: hex('01 02 03') }], state: initialAssembly })
})

test('assembleMessage :: an empty fragmented binary message', () => {
  const result = run([frame(OPCODE.BINARY, hex(''), false), frame(OPCODE.CONTINUATION, hex(''))])
  assert.equal(result, { out: [{ _tag: 'Binary', data: hex('') }], state: initialAssembly })
})

test('assembleMessage :: control frames between fragments come out at once', () => {
  const result = run([
    frame(OPCODE.TEXT, utf8('He'), false),
    frame(OPCODE.PING, utf8('p')),
    frame(OPCODE.CONTINUATION, utf8('l'), false),
    frame(OPCODE.PONG, utf8('q')),
    frame(OPCODE.CONTINUATION, utf8('lo')),
  ])
  assert.equal(result, {
    out: [
      { _tag: 'Ping', payload: utf8('p') },
      { _tag: 'Pong', payload: utf8('q') },
      { _tag: 'Text', text: 'Hello' },
    ],
    state: initialAssembly,
  })
})

test('assembleMessage :: a close frame, with and without a code', () => {
  assert.equal(run([frame(OPCODE.CLOSE, hex('03 e8 62 79 65'))]), { out: [{ _tag: 'Close', code: 1000, reason: 'bye' }], state: initialAssembly })
  assert.equal(run([frame(OPCODE.CLOSE, hex(''))]), { out: [{ _tag: 'Close', code: undefined, reason: '' }], state: initialAssembly })
})

test('assembleMessage :: a close in the middle of a fragmented message still comes out', () => {
  const result = run([frame(OPCODE.BINARY, hex('01'), false), frame(OPCODE.CLOSE, hex('03 e8'))])
  if ('_tag' in result) throw new Error('unexpected error')
  assert.equal(result.out, [{ _tag: 'Close', code: 1000, reason: '' }])
  assert.is(result.state._tag, 'BinaryInProgress')
})

test('assembleMessage :: a state can be used twice (it is a value)', () => {
  const first = assembleMessage(initialAssembly, frame(OPCODE.TEXT, utf8('a€'.slice(0, 1)), false), LIMITS)
  if (E.isLeft(first)) throw new Error('unexpected error')
  const state = first.right.state
  const x = assembleMessage(state, frame(OPCODE.CONTINUATION, utf8('x')), LIMITS)
  const y = assembleMessage(state, frame(OPCODE.CONTINUATION, utf8('y')), LIMITS)
  assert.equal(E.isRight(x) && x.right.output, { _tag: 'Text', text: 'ax' })
  assert.equal(E.isRight(y) && y.right.output, { _tag: 'Text', text: 'ay' })
})

test('assembleMessage :: a code point split across fragments at every byte', () => {
  const bytes = utf8('ü€😀')
  for (let cut = 0; cut <= bytes.length; cut++) {
    const result = run([frame(OPCODE.TEXT, bytes.subarray(0, cut), false), frame(OPCODE.CONTINUATION, bytes.subarray(cut))])
    assert.equal(result, { out: [{ _tag: 'Text', text: 'ü€😀' }], state: initialAssembly }, `cut at ${cut}`)
  }
})

// Every error: its tag and its close code.

test('assembleMessage :: a continuation without a message is 1002', () => {
  const err = errorOf([frame(OPCODE.CONTINUATION, utf8('x'))])
  assert.equal([err._tag, err.closeCode], ['UnexpectedContinuation', 1002])
})

test('assembleMessage :: a new data frame inside a fragmented message is 1002', () => {
  for (const opcode of [OPCODE.TEXT, OPCODE.BINARY]) {
    const err = errorOf([frame(OPCODE.BINARY, hex('01'), false), frame(opcode, hex('02'))])
    assert.equal([err._tag, err.closeCode, err._tag === 'ExpectedContinuation' && err.opcode], ['ExpectedContinuation', 1002, opcode])
  }
})

test('assembleMessage :: a reserved opcode on a hand-made frame is 1002', () => {
  const err = errorOf([frame(3, hex(''))])
  assert.equal([err._tag, err.closeCode], ['ReservedOpcode', 1002])
})

test('assembleMessage :: invalid UTF-8 in a single frame is 1007', () => {
  const err = errorOf([frame(OPCODE.TEXT, hex('ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64'))])
  assert.equal(err, { _tag: 'InvalidUtf8', where: 'text', closeCode: 1007, reason: 'invalid UTF-8 in text message' })
})

test('assembleMessage :: invalid UTF-8 fails on the fragment that carries it, not at the end', () => {
  // The bad byte (a surrogate start, ed a0) is in the second of three fragments.
  const frames = [frame(OPCODE.TEXT, utf8('ok'), false), frame(OPCODE.CONTINUATION, hex('ed a0'), false)]
  const err = errorOf(frames)
  assert.equal([err._tag, err.closeCode], ['InvalidUtf8', 1007])
})

test('assembleMessage :: a code point cut off by the last fragment is 1007', () => {
  const err = errorOf([frame(OPCODE.TEXT, utf8('a'), false), frame(OPCODE.CONTINUATION, hex('e2 82'))])
  assert.equal([err._tag, err.closeCode], ['InvalidUtf8', 1007])
})

test('assembleMessage :: a text message ending on half a code point is 1007 even in one frame', () => {
  const err = errorOf([frame(OPCODE.TEXT, hex('61 e2 82'))])
  assert.equal([err._tag, err.closeCode], ['InvalidUtf8', 1007])
})

test('assembleMessage :: an invalid first fragment is 1007', () => {
  const err = errorOf([frame(OPCODE.TEXT, hex('ff'), false)])
  assert.equal([err._tag, err.closeCode], ['InvalidUtf8', 1007])
})

test('assembleMessage :: a close payload of one byte is 1002, a bad code 1002, a bad reason 1007', () => {
  assert.equal(
    [hex('03'), hex('03 ed'), hex('03 e8 ff')].map((p) => {
      const err = errorOf([frame(OPCODE.CLOSE, p)])
      return [err._tag, err.closeCode]
    }),
    [
      ['ClosePayloadTooShort', 1002],
      ['InvalidCloseCode', 1002],
      ['InvalidUtf8', 1007],
    ],
  )
})

// Compressed messages: RSV1 on the first frame (RFC 7692 §6).

const compressed = (opcode: number, payload: Uint8Array, fin = true): Frame => ({ ...frame(opcode, payload, fin), rsv1: true })

test('assembleMessage :: RFC 7692 §7.2.3.1 compressed "Hello" comes out still compressed, unchecked', () => {
  const payload = hex('f2 48 cd c9 c9 07 00')
  const result = run([compressed(OPCODE.TEXT, payload)])
  assert.equal(result, { out: [{ _tag: 'Compressed', opcode: OPCODE.TEXT, data: payload }], state: initialAssembly })
  if (!('_tag' in result)) assert.is((result.out[0] as { data: Uint8Array }).data, payload, 'one frame: the payload itself')
})

test('assembleMessage :: RFC 7692 §7.2.3.1 compressed "Hello" in two fragments is joined', () => {
  const result = run([compressed(OPCODE.TEXT, hex('f2 48 cd'), false), frame(OPCODE.CONTINUATION, hex('c9 c9 07 00'))])
  assert.equal(result, { out: [{ _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('f2 48 cd c9 c9 07 00') }], state: initialAssembly })
})

test('assembleMessage :: compressed text is not UTF-8-checked on the way in (ff is fine until inflated)', () => {
  const result = run([compressed(OPCODE.TEXT, hex('ff'), false), frame(OPCODE.CONTINUATION, hex('fe'), false), frame(OPCODE.CONTINUATION, hex(''))])
  assert.equal(result, { out: [{ _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('ff fe') }], state: initialAssembly })
})

test('assembleMessage :: a compressed binary message, fragments with pings between', () => {
  const result = run([
    compressed(OPCODE.BINARY, hex('62'), false),
    frame(OPCODE.PING, utf8('p')),
    frame(OPCODE.CONTINUATION, hex(''), false),
    frame(OPCODE.CONTINUATION, hex('64 02 00')),
  ])
  assert.equal(result, {
    out: [
      { _tag: 'Ping', payload: utf8('p') },
      { _tag: 'Compressed', opcode: OPCODE.BINARY, data: hex('62 64 02 00') },
    ],
    state: initialAssembly,
  })
})

test('assembleMessage :: an empty compressed message, in one frame or fragments', () => {
  assert.equal(run([compressed(OPCODE.BINARY, hex(''))]), { out: [{ _tag: 'Compressed', opcode: OPCODE.BINARY, data: hex('') }], state: initialAssembly })
  assert.equal(run([compressed(OPCODE.TEXT, hex(''), false), frame(OPCODE.CONTINUATION, hex(''))]), {
    out: [{ _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('') }],
    state: initialAssembly,
  })
})

test('assembleMessage :: a compressed message in progress is its own state', () => {
  const result = run([compressed(OPCODE.TEXT, hex('f2 48'), false)])
  if ('_tag' in result) throw new Error('unexpected error')
  assert.equal(result.state, { _tag: 'CompressedInProgress', opcode: OPCODE.TEXT, size: 2, chunks: { head: hex('f2 48'), tail: undefined } })
})

test('assembleMessage :: compressed, then uncompressed: each message decides for itself', () => {
  const result = run([compressed(OPCODE.TEXT, hex('f2 48 cd c9 c9 07 00')), frame(OPCODE.TEXT, utf8('plain'))])
  assert.equal(result, {
    out: [
      { _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('f2 48 cd c9 c9 07 00') },
      { _tag: 'Text', text: 'plain' },
    ],
    state: initialAssembly,
  })
})

test('assembleMessage :: RSV1 on a continuation frame is 1002 (RFC 7692 §6.1)', () => {
  const after = errorOf([compressed(OPCODE.TEXT, hex('f2'), false), compressed(OPCODE.CONTINUATION, hex('48'))])
  assert.equal(after, { _tag: 'MisplacedRsv1', opcode: 0, closeCode: 1002, reason: 'RSV1 on a continuation frame' })
  const plain = errorOf([frame(OPCODE.TEXT, utf8('a'), false), compressed(OPCODE.CONTINUATION, utf8('b'))])
  assert.equal([plain._tag, plain.closeCode], ['MisplacedRsv1', 1002])
})

test('assembleMessage :: RSV1 on a control frame is 1002 (RFC 7692 §6.1)', () => {
  for (const opcode of [OPCODE.CLOSE, OPCODE.PING, OPCODE.PONG]) {
    assert.equal(errorOf([compressed(opcode, hex(''))]), { _tag: 'MisplacedRsv1', opcode, closeCode: 1002, reason: 'RSV1 on a control frame' })
  }
})

test('assembleMessage :: a new compressed message inside a fragmented one is 1002', () => {
  const err = errorOf([compressed(OPCODE.BINARY, hex('01'), false), compressed(OPCODE.BINARY, hex('02'))])
  assert.equal([err._tag, err.closeCode], ['ExpectedContinuation', 1002])
})

test('assembleMessage :: compressed bytes are held to compressedBound(maxMessage), 1009 past it', () => {
  // 1000 + floor(1000 / 2048) + 64 = 1064: a message at the limit may grow a little when deflated.
  assert.is(compressedBound(1000), 1064)
  assert.not.ok('_tag' in run([compressed(OPCODE.BINARY, new Uint8Array(1064))]))
  assert.equal(errorOf([compressed(OPCODE.BINARY, new Uint8Array(1065))]), { _tag: 'MessageTooBig', size: 1065, limit: 1064, closeCode: 1009, reason: 'message too big' })
  const split = errorOf([compressed(OPCODE.TEXT, new Uint8Array(600), false), frame(OPCODE.CONTINUATION, new Uint8Array(465))])
  assert.equal([split._tag, split._tag === 'MessageTooBig' && split.size], ['MessageTooBig', 1065])
  assert.is(compressedBound(16 * 1024 * 1024), 16 * 1024 * 1024 + 8192 + 64)
})

test('assembleMessage :: a single frame over the message limit is 1009', () => {
  const err = errorOf([frame(OPCODE.BINARY, new Uint8Array(1001))])
  assert.equal(err, { _tag: 'MessageTooBig', size: 1001, limit: 1000, closeCode: 1009, reason: 'message too big' })
})

test('assembleMessage :: fragments adding up past the limit are 1009 at the fragment that crosses it', () => {
  const half = new Uint8Array(600)
  const err = errorOf([frame(OPCODE.TEXT, half, false), frame(OPCODE.CONTINUATION, half, false)])
  assert.equal([err._tag, err.closeCode, err._tag === 'MessageTooBig' && err.size], ['MessageTooBig', 1009, 1200])
  const exact = run([frame(OPCODE.BINARY, new Uint8Array(500), false), frame(OPCODE.CONTINUATION, new Uint8Array(500))])
  assert.not.ok('_tag' in exact)
})

test.run()
