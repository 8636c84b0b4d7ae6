import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type AssemblyLimits, type AssemblyState, assembleMessage, initialAssembly } from '../../../lib/core/ws/assemble-message.js'
import { decodeFrame } from '../../../lib/core/ws/decode-frame.js'
import type { FrameLimits } from '../../../lib/core/ws/frame.js'
import { NOT_SMALL, SMALL_NOT_ASCII, unmaskSmallFrame } from '../../../lib/core/ws/unmask-small-frame.js'
import { decodeUtf8 } from '../../../lib/core/ws/utf8.js'
import { encodeStream, encodeStreamFrame, frameArb, streamArb } from '../../support/ws-stream.js'
import { toHex } from './hex.js'

type Limits = { readonly maxPayload: number; readonly maxMessage: number }
const limitsArb = fc.record({ maxPayload: fc.constantFrom(8, 40, 125, 1 << 20), maxMessage: fc.constantFrom(8, 40, 125, 1 << 20) })

// What one stream decodes to, as comparable text: each message or control frame, then the
// error that stopped it (its tag and close code), or how many bytes were left over.
type Outcome = string[]

// One step of the general decoder: decodeFrame, then assembleMessage, on what is left. The
// stream ends (`end`: the error that stopped it, or how many bytes were left over), or goes on
// with the next state, what the frame completed (if anything) and the bytes after it.
type Step = { readonly end: string } | { readonly state: AssemblyState; readonly shown: string | undefined; readonly rest: Uint8Array }
const generalStep = (rest: Uint8Array, state: AssemblyState, limits: Limits): Step => {
  const frameLimits: FrameLimits = { maxPayload: limits.maxPayload, requireMask: true }
  const messageLimits: AssemblyLimits = { maxMessage: limits.maxMessage }
  const step = decodeFrame(rest, frameLimits)
  if (E.isLeft(step)) return { end: `error ${step.left._tag} ${step.left.closeCode}` }
  if (step.right._tag === 'NeedMore') return { end: `left ${rest.length}` }
  const assembled = assembleMessage(state, step.right.value, messageLimits)
  if (E.isLeft(assembled)) return { end: `error ${assembled.left._tag} ${assembled.left.closeCode}` }
  const o = assembled.right.output
  const shown = o === undefined ? undefined : o._tag === 'Text' ? `Text ${JSON.stringify(o.text)}` : o._tag === 'Binary' ? `Binary ${toHex(o.data)}` : `${o._tag} ${JSON.stringify(o)}`
  return { state: assembled.right.state, shown, rest: step.right.rest }
}

// The general decoder alone: generalStep until the stream ends.
const general = (bytes: Uint8Array, limits: Limits): Outcome => {
  const out: Outcome = []
  let state: AssemblyState = initialAssembly
  let rest = bytes
  for (;;) {
    const step = generalStep(rest, state, limits)
    if ('end' in step) return [...out, step.end]
    if (step.shown !== undefined) out.push(step.shown)
    state = step.state
    rest = step.rest
  }
}

// The small-frame path first, wherever the state is idle, as the engine runs it (a text that
// is not UTF-8 goes to the general decoder); the general decoder for everything else.
const fastFirst = (bytes: Uint8Array, limits: Limits): Outcome => {
  const out: Outcome = []
  const scratch = new Uint8Array(bytes.length + 127)
  let state: AssemblyState = initialAssembly
  let at = 0
  for (;;) {
    if (state === initialAssembly) {
      const answer = unmaskSmallFrame(bytes, at, bytes.length, Math.min(limits.maxPayload, limits.maxMessage), scratch, 0)
      if (answer !== NOT_SMALL) {
        const payload = scratch.subarray(2, 2 + (answer & 0xff))
        const text = scratch[0] === 0x81 ? decodeUtf8(payload) : ''
        if (text !== undefined) {
          out.push(scratch[0] === 0x81 ? `Text ${JSON.stringify(text)}` : `Binary ${toHex(payload)}`)
          at += 6 + (answer & 0xff)
          continue
        }
      }
    }
    const step = generalStep(bytes.subarray(at), state, limits)
    if ('end' in step) return [...out, step.end]
    if (step.shown !== undefined) out.push(step.shown)
    state = step.state
    at = bytes.length - step.rest.length
  }
}

test('unmaskSmallFrame :: a stream decodes the same with the small-frame path first as with the general decoder alone', () => {
  fc.assert(
    fc.property(streamArb, limitsArb, fc.nat({ max: 6 }), (frames, limits, cut) => {
      const bytes = encodeStream(frames)
      // Also cut short, so that the stream ends inside a frame.
      const shortened = bytes.subarray(0, Math.max(0, bytes.length - cut))
      assert.equal(fastFirst(bytes, limits), general(bytes, limits))
      assert.equal(fastFirst(shortened, limits), general(shortened, limits))
    }),
    { numRuns: 1500 },
  )
})

test('unmaskSmallFrame :: any bytes: a frame it takes is the frame decodeFrame reads, unmasked, and nothing else', () => {
  const bytesArb = fc.oneof(fc.uint8Array({ maxLength: 200 }), frameArb.map(encodeStreamFrame))
  fc.assert(
    fc.property(bytesArb, fc.uint8Array({ maxLength: 8 }), fc.integer({ min: 0, max: 200 }), (frame, trailer, maxLength) => {
      const bytes = new Uint8Array(frame.length + trailer.length)
      bytes.set(frame)
      bytes.set(trailer, frame.length)
      const out = new Uint8Array(bytes.length + 127).fill(0xee)
      const answer = unmaskSmallFrame(bytes, 0, bytes.length, maxLength, out, 1)
      const step = decodeFrame(bytes, { maxPayload: maxLength, requireMask: true })
      const decoded = E.isRight(step) && step.right._tag === 'Parsed' ? step.right : undefined
      // What it must take: a whole, final, masked text or binary frame of at most 125 bytes, without RSV bits.
      const expected =
        decoded !== undefined &&
        decoded.value.fin &&
        (decoded.value.opcode === 1 || decoded.value.opcode === 2) &&
        !decoded.value.rsv1 &&
        !decoded.value.rsv2 &&
        !decoded.value.rsv3 &&
        (bytes[1]! & 0x80) !== 0 &&
        decoded.value.payload.length <= 125
      if (!expected || decoded === undefined) {
        assert.is(answer, NOT_SMALL)
        return
      }
      const length = answer & 0xff
      assert.is(length, decoded.value.payload.length)
      assert.is(toHex(out.subarray(1, 3 + length)), toHex(Uint8Array.of(0x80 | decoded.value.opcode, length, ...decoded.value.payload)))
      assert.is((answer & SMALL_NOT_ASCII) !== 0, decoded.value.payload.some((b) => b > 0x7f))
      assert.is(bytes.length - (6 + length), decoded.rest.length)
      assert.is(out[0], 0xee, 'nothing written before outAt')
      assert.is(out[3 + length], 0xee, 'nothing written after the frame')
    }),
    { numRuns: 2000 },
  )
})

test.run()
