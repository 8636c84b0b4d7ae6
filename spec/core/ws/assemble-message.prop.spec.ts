import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type AssemblyState, assembleMessage, type Incoming, initialAssembly } from '../../../lib/core/ws/assemble-message.js'
import { decodeFrame } from '../../../lib/core/ws/decode-frame.js'
import { encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { type Frame, OPCODE } from '../../../lib/core/ws/frame.js'
import { concatBytes, utf8 } from './hex.js'

const LIMITS = { maxMessage: 1 << 20 }

const frame = (opcode: number, payload: Uint8Array, fin: boolean): Frame => ({ fin, rsv1: false, rsv2: false, rsv3: false, opcode, payload })

// Cuts bytes at the given points (any order, repeats allowed) into fragments of a message.
const fragment = (opcode: number, bytes: Uint8Array, cuts: readonly number[]): Frame[] => {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const bounds = [0, ...points, bytes.length]
  return bounds.slice(1).map((end, i) => frame(i === 0 ? opcode : OPCODE.CONTINUATION, bytes.subarray(bounds[i], end), i === bounds.length - 2))
}

const assembleAll = (frames: readonly Frame[]): { out: Incoming[]; state: AssemblyState } => {
  let state: AssemblyState = initialAssembly
  const out: Incoming[] = []
  for (const f of frames) {
    const step = assembleMessage(state, f, LIMITS)
    if (E.isLeft(step)) throw new Error(`unexpected ${step.left._tag}`)
    state = step.right.state
    if (step.right.output !== undefined) out.push(step.right.output)
  }
  return { out, state }
}

// Pings put between the fragments at random places.
const withPings = (frames: readonly Frame[], at: readonly number[]): Frame[] =>
  frames.flatMap((f, i) => (at.includes(i) ? [frame(OPCODE.PING, Uint8Array.of(i & 0xff), true), f] : [f]))

test('assembleMessage :: any fragmentation of a text gives the text, pings in between', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.array(fc.nat(), { maxLength: 10 }), fc.array(fc.nat({ max: 10 })), (text, cuts, pings) => {
      const frames = withPings(fragment(OPCODE.TEXT, utf8(text), cuts), pings)
      const { out, state } = assembleAll(frames)
      assert.equal(out.filter((m) => m._tag === 'Text'), [{ _tag: 'Text', text }])
      assert.is(out.filter((m) => m._tag === 'Ping').length, frames.length - fragment(OPCODE.TEXT, utf8(text), cuts).length)
      assert.equal(state, initialAssembly)
    }),
    { numRuns: 300 },
  )
})

test('assembleMessage :: any fragmentation of bytes gives the bytes', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(), { maxLength: 10 }), (bytes, cuts) => {
      assert.equal(assembleAll(fragment(OPCODE.BINARY, bytes, cuts)).out, [{ _tag: 'Binary', data: bytes }])
    }),
    { numRuns: 300 },
  )
})

test('assembleMessage :: bytes that are not UTF-8 fail with 1007 however they are cut', () => {
  const invalid = fc.uint8Array({ minLength: 1, maxLength: 40 }).filter((b) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(b)
      return false
    } catch {
      return true
    }
  })
  fc.assert(
    fc.property(invalid, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
      let state: AssemblyState = initialAssembly
      for (const f of fragment(OPCODE.TEXT, bytes, cuts)) {
        const step = assembleMessage(state, f, LIMITS)
        if (E.isLeft(step)) {
          assert.equal([step.left._tag, step.left.closeCode], ['InvalidUtf8', 1007])
          return
        }
        state = step.right.state
      }
      assert.unreachable('invalid UTF-8 was accepted')
    }),
    { numRuns: 300 },
  )
})

test('assembleMessage :: random frames never throw', () => {
  const frameArb = fc.record({
    fin: fc.boolean(),
    rsv1: fc.boolean(),
    rsv2: fc.boolean(),
    rsv3: fc.boolean(),
    opcode: fc.nat({ max: 15 }),
    payload: fc.uint8Array({ maxLength: 20 }),
  })
  fc.assert(
    fc.property(fc.array(frameArb, { maxLength: 10 }), fc.nat({ max: 40 }), (frames, maxMessage) => {
      let state: AssemblyState = initialAssembly
      for (const f of frames) {
        const step = assembleMessage(state, f, { maxMessage })
        if (E.isLeft(step)) return
        state = step.right.state
      }
    }),
    { numRuns: 500 },
  )
})

test('encode → decode → assemble :: a fragmented, masked text comes back whole', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.array(fc.nat(), { maxLength: 5 }), fc.uint8Array({ minLength: 4, maxLength: 4 }), (text, cuts, key) => {
      let bytes = concatBytes(...fragment(OPCODE.TEXT, utf8(text), cuts).map((f) => encodeFrameBytes(f, key)))
      const frames: Frame[] = []
      for (;;) {
        const step = decodeFrame(bytes, { maxPayload: 1 << 16, requireMask: true })
        if (E.isLeft(step) || step.right._tag === 'NeedMore') break
        frames.push(step.right.value)
        bytes = step.right.rest
      }
      assert.equal(assembleAll(frames).out, [{ _tag: 'Text', text }])
    }),
    { numRuns: 200 },
  )
})

test.run()
