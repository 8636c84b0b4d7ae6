/**
 * Compressed messages through framing and assembly (RFC 7692 §6), the compression itself
 * left out: the payload bytes are opaque here (the core never inflates). The same property
 * with real DEFLATE from node:zlib is in spec/runtime/deflate/permessage-deflate.prop.spec.ts.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type AssemblyState, assembleMessage, type Incoming, initialAssembly } from '../../../lib/core/ws/assemble-message.js'
import { decodeFrame } from '../../../lib/core/ws/decode-frame.js'
import { encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { type Frame, type FrameLimits, OPCODE } from '../../../lib/core/ws/frame.js'
import { feedChunks } from '../../support/feed.js'
import { concatBytes, utf8 } from './hex.js'

const LIMITS: FrameLimits = { maxPayload: 1 << 20, requireMask: true, allowRsv1: true }

interface Message {
  readonly compressed: boolean
  readonly opcode: typeof OPCODE.TEXT | typeof OPCODE.BINARY
  readonly payload: Uint8Array
  readonly cuts: readonly number[]
}

const messageArb: fc.Arbitrary<Message> = fc
  .record({
    compressed: fc.boolean(),
    opcode: fc.constantFrom(OPCODE.TEXT, OPCODE.BINARY),
    bytes: fc.uint8Array({ maxLength: 200 }),
    text: fc.string({ unit: 'binary', maxLength: 40 }),
    cuts: fc.array(fc.nat(), { maxLength: 4 }),
  })
  // An uncompressed text message must be UTF-8; a compressed one may hold any bytes.
  .map(({ compressed, opcode, bytes, text, cuts }) => ({ compressed, opcode, payload: opcode === OPCODE.TEXT && !compressed ? utf8(text) : bytes, cuts }))

// The frames of one message: RSV1 on the first when compressed (RFC 7692 §6.1), a ping after
// the first fragment to show control frames may come between.
const framesOf = (m: Message): Frame[] => {
  const points = [...new Set(m.cuts.map((c) => c % (m.payload.length + 1)))].sort((a, b) => a - b)
  const bounds = [0, ...points, m.payload.length]
  const frames = bounds.slice(1).map(
    (end, i): Frame => ({
      fin: i === bounds.length - 2,
      rsv1: i === 0 && m.compressed,
      rsv2: false,
      rsv3: false,
      opcode: i === 0 ? m.opcode : OPCODE.CONTINUATION,
      payload: m.payload.subarray(bounds[i], end),
    }),
  )
  if (frames.length > 1) frames.splice(1, 0, { fin: true, rsv1: false, rsv2: false, rsv3: false, opcode: OPCODE.PING, payload: Uint8Array.of(7) })
  return frames
}

const expected = (m: Message): Incoming[] => {
  const data: Incoming = m.compressed
    ? { _tag: 'Compressed', opcode: m.opcode, data: m.payload }
    : m.opcode === OPCODE.TEXT
      ? { _tag: 'Text', text: new TextDecoder().decode(m.payload) }
      : { _tag: 'Binary', data: m.payload }
  return framesOf(m).length > 1 ? [{ _tag: 'Ping', payload: Uint8Array.of(7) }, data] : [data]
}

test('decodeFrame + assembleMessage :: compressed and plain messages, masked and split at any byte, come out as sent', () => {
  fc.assert(
    fc.property(
      fc.array(messageArb, { minLength: 1, maxLength: 5 }),
      fc.uint8Array({ minLength: 4, maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      (messages, key, cuts) => {
        const stream = concatBytes(...messages.flatMap(framesOf).map((f) => encodeFrameBytes(f, key)))
        const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b)
        const chunks = [0, ...points].map((from, i) => stream.subarray(from, [...points, stream.length][i]))
        const decoded = feedChunks((b) => decodeFrame(b, LIMITS), chunks)
        assert.is(decoded.error, undefined)
        assert.is(decoded.leftover, 0)
        let state: AssemblyState = initialAssembly
        const out: Incoming[] = []
        for (const frame of decoded.values) {
          const step = assembleMessage(state, frame, { maxMessage: 1 << 20 })
          if (E.isLeft(step)) throw new Error(`unexpected ${step.left._tag}`)
          state = step.right.state
          if (step.right.output !== undefined) out.push(step.right.output)
        }
        assert.equal(out, messages.flatMap(expected))
        assert.equal(state, initialAssembly)
      },
    ),
    { numRuns: 300 },
  )
})

test('decodeFrame :: RSV1 set on any later fragment of a message fails with 1002, however the stream is cut', () => {
  fc.assert(
    fc.property(messageArb, fc.nat(), fc.nat({ max: 20 }), (m, which, at) => {
      const frames = framesOf({ ...m, cuts: [1, 2, ...m.cuts] }).filter((f) => f.opcode !== OPCODE.PING)
      if (frames.length < 2) return
      const bad = 1 + (which % (frames.length - 1))
      const stream = concatBytes(...frames.map((f, i) => encodeFrameBytes(i === bad ? { ...f, rsv1: true } : f, Uint8Array.of(1, 2, 3, 4))))
      const cut = Math.min(at, stream.length)
      const decoded = feedChunks((b) => decodeFrame(b, LIMITS), [stream.subarray(0, cut), stream.subarray(cut)])
      assert.equal([decoded.error?._tag, decoded.error?.closeCode, decoded.values.length], ['MisplacedRsv1', 1002, bad])
    }),
    { numRuns: 200 },
  )
})

test.run()
