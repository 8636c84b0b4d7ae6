/**
 * Harness `ws-frame`: RFC 6455 framing. `decodeFrame` on random bytes gives a frame and a tail
 * view, a need-more asking for more, or a tagged error with a close code; a decoded frame
 * encodes back to the bytes it came from (same mask key, minimal length form) or, where the
 * sender used a longer length form than needed, to a frame that decodes to the same value;
 * the small-frame path (`unmaskSmallFrame`), whenever it takes a frame, agrees with
 * `decodeFrame` + `assembleMessage` on the payload, the opcode and the bytes used, and never
 * takes what the general path refuses (its UTF-8 judgement apart, which it leaves to the caller).
 */
import * as E from 'fp-ts/lib/Either.js'
import { assembleMessage, initialAssembly } from '../../lib/core/ws/assemble-message.js'
import { decodeFrame } from '../../lib/core/ws/decode-frame.js'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import type { Frame, FrameLimits } from '../../lib/core/ws/frame.js'
import { NOT_SMALL, SMALL_NOT_ASCII, smallFrameLength, unmaskSmallFrame } from '../../lib/core/ws/unmask-small-frame.js'
import { expect, expectNeedMore, expectTagged, expectTail, same, plainBytes } from '../support/contract.js'

const LIMITS: readonly FrameLimits[] = [
  { maxPayload: 1 << 20, requireMask: true },
  { maxPayload: 1 << 20, requireMask: false, allowRsv1: true },
  { maxPayload: 16, requireMask: true },
]

// The 2, 4 or 10 byte header plus the key: how a frame of this payload is written minimally.
const minimalLength = (frame: Frame, masked: boolean): number =>
  (frame.payload.length < 126 ? 2 : frame.payload.length < 65536 ? 4 : 10) + (masked ? 4 : 0) + frame.payload.length

const checkRoundTrip = (frame: Frame, input: Uint8Array, used: number): void => {
  const masked = (input[1]! & 0x80) !== 0
  const key = masked ? input.subarray(used - frame.payload.length - 4, used - frame.payload.length) : undefined
  const again = encodeFrameBytes(frame, key)
  if (minimalLength(frame, masked) === used) same(again, input.subarray(0, used), 'encodeFrame(decodeFrame(x)) bytes')
  const back = decodeFrame(again, { maxPayload: 1 << 21, requireMask: masked, allowRsv1: true })
  expect(back._tag === 'Right' && back.right._tag === 'Parsed', 'an encoded frame decodes')
  if (back._tag === 'Right' && back.right._tag === 'Parsed') same(back.right.value, frame, 'decodeFrame(encodeFrame(f))')
}

const checkSmall = (data: Uint8Array, limits: FrameLimits, general: ReturnType<typeof decodeFrame>): void => {
  const out = new Uint8Array(Math.min(127, Math.max(0, data.length - 4)) + 8)
  const answer = unmaskSmallFrame(data, 0, data.length, limits.maxPayload, out, 0)
  const length = smallFrameLength(data, 0, data.length, limits.maxPayload)
  if (answer === NOT_SMALL) {
    expect(length === NOT_SMALL || (data[0]! & 0x70) !== 0, 'smallFrameLength takes what unmaskSmallFrame leaves')
    return
  }
  const size = answer & 0xff
  expect(size === length, 'smallFrameLength vs unmaskSmallFrame')
  expect(general._tag === 'Right' && general.right._tag === 'Parsed', 'the small path took a frame the general decoder does not give')
  if (general._tag !== 'Right' || general.right._tag !== 'Parsed') return
  const frame = general.right.value
  expect(data.length - general.right.rest.length === 6 + size, 'bytes used')
  same(out.subarray(2, 2 + size), frame.payload, 'payload')
  expect(out[0] === data[0] && out[1] === size, 'the server frame header')
  expect(((answer & SMALL_NOT_ASCII) !== 0) === frame.payload.some((b) => b > 0x7f), 'SMALL_NOT_ASCII')
  const assembled = assembleMessage(initialAssembly, frame, { maxMessage: limits.maxPayload })
  // The general path refuses a text payload that is not UTF-8 (1007); the small path says "not ASCII" and leaves that to the caller.
  if (E.isLeft(assembled)) expect(frame.opcode === 1 && (answer & SMALL_NOT_ASCII) !== 0 && assembled.left.closeCode === 1007, 'assembly refused a small frame')
  else expect(assembled.right.output !== undefined && assembled.right.state._tag === 'Idle', 'a small frame is a whole message')
}

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  for (const limits of LIMITS) {
    const step = decodeFrame(data, limits)
    if (E.isLeft(step)) expectTagged(step.left, 'closeCode', 1002, 1009, 'decodeFrame')
    else if (step.right._tag === 'NeedMore') expectNeedMore(step.right.atLeast, data.length, 'decodeFrame')
    else {
      expectTail(step.right.rest, data, 'decodeFrame')
      checkRoundTrip(step.right.value, data, data.length - step.right.rest.length)
    }
    checkSmall(data, limits, step)
  }
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))
