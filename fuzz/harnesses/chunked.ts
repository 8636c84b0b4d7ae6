/**
 * Harness `chunked`: the two chunked-body decoders, differential. `decodeChunked` (the whole
 * body at once, resumable) and `readBodyPiece` (a streamed body, fed the input in pieces as a
 * socket would) must agree: the same body bytes and end offset, both waiting, or both refusing
 * (the status may differ when a trailer is both too long and malformed). Each answer has the decoder contract's shape; the streamed reader makes
 * progress on every step it is given bytes for.
 */

import { chunkedStart, decodeChunked } from '../../lib/core/http/decode-chunked.js'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../lib/core/http/http-limits.js'
import { type BodyReader, readBodyPiece } from '../../lib/core/http/read-body-piece.js'
import { expect, expectNeedMore, expectTagged, same, splitPoint, plainBytes } from '../support/contract.js'


// The streamed reader bounds a trailer section by its bytes alone (it keeps no trailers, so
// it counts no fields): the field count limit is left out of the comparison.
const DEFAULTS: HttpLimits = { ...DEFAULT_HTTP_LIMITS, maxHeaders: 1000 }
const SMALL: HttpLimits = { maxRequestLine: 24, maxHeaderBytes: 32, maxHeaders: 1000, maxBody: 8 }

type Answer = { readonly body: Uint8Array; readonly end: number } | 'wait' | { readonly status: number }

// decodeChunked on the whole input, then resumed once from a NeedMore on a prefix.
const whole = (data: Uint8Array, limits: HttpLimits): Answer => {
  const step = decodeChunked(data, chunkedStart(0), limits)
  if (step._tag === 'Left') {
    expectTagged(step.left, 'status', 400, 501, 'decodeChunked')
    return { status: step.left.status }
  }
  if ('state' in step.right) {
    expectNeedMore(step.right.atLeast, data.length, 'decodeChunked')
    return 'wait'
  }
  expect(step.right.end <= data.length, 'decodeChunked end past the input')
  return { body: Uint8Array.from(step.right.body), end: step.right.end }
}

const resumed = (data: Uint8Array, limits: HttpLimits): Answer | undefined => {
  const k = splitPoint(data)
  const first = decodeChunked(data.subarray(0, k), chunkedStart(0), limits)
  if (first._tag === 'Left' || !('state' in first.right) || first.right.atLeast > data.length) return undefined
  const step = decodeChunked(data, first.right.state, limits)
  if (step._tag === 'Left') return { status: step.left.status }
  if ('state' in step.right) return 'wait'
  return { body: Uint8Array.from(step.right.body), end: step.right.end }
}

// readBodyPiece fed the input in three pieces, as reads from a socket.
const streamed = (data: Uint8Array, limits: HttpLimits): Answer => {
  const cuts = [splitPoint(data), Math.floor(data.length / 2), data.length].sort((a, b) => a - b)
  let fed = 0
  let unread = new Uint8Array(0)
  let offset = 0
  let reader: BodyReader = { _tag: 'ChunkSize', total: 0 }
  const body: number[] = []
  for (let steps = 0; ; steps++) {
    expect(steps < 4 * data.length + 16, 'readBodyPiece makes no progress')
    const step = readBodyPiece(reader, unread, limits)
    if (step._tag === 'Left') {
      expectTagged(step.left, 'status', 400, 501, 'readBodyPiece')
      return { status: step.left.status }
    }
    if (step.right._tag === 'NeedMore') {
      expectNeedMore(step.right.atLeast, unread.length, 'readBodyPiece')
      const next = cuts.find((c) => c > fed)
      if (next === undefined) return 'wait'
      const grown = new Uint8Array(unread.length + next - fed)
      grown.set(unread)
      grown.set(data.subarray(fed, next), unread.length)
      unread = grown
      fed = next
      continue
    }
    const { data: piece, consumed, next } = step.right
    expect(consumed <= unread.length && piece.length <= consumed, 'readBodyPiece used more than it was given')
    expect(consumed > 0 || next._tag === 'Done' || next._tag !== reader._tag, 'readBodyPiece stood still')
    body.push(...piece)
    unread = unread.subarray(consumed)
    offset += consumed
    reader = next
    if (reader._tag === 'Done') {
      expect(reader.total === body.length, 'readBodyPiece total')
      return { body: Uint8Array.from(body), end: offset }
    }
  }
}

// Both refuse, though not always with the same status: a trailer line both too long and
// malformed is 431 to the streamed reader (it bounds each line as it comes) and 400 to the
// whole-body decoder (it finds the malformed line first). Either answer is the RFC's.
const refusal = (a: Answer): Answer => (typeof a === 'object' && 'status' in a ? { status: 'refused' as unknown as number } : a)

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  for (const limits of [DEFAULTS, SMALL]) {
    const a = whole(data, limits)
    const r = resumed(data, limits)
    if (r !== undefined) same(r, a, 'decodeChunked resumed vs whole')
    const s = refusal(streamed(data, limits))
    // Each may refuse a trailer section a byte sooner than the other: the streamed reader judges
    // each line as it comes, the whole-body decoder waits for the blank line but refuses a line
    // that can no longer fit. So a refusal may meet a wait; a body must meet the same body.
    const early = (x: Answer, y: Answer): boolean => x === 'wait' && y !== 'wait' && 'status' in y
    if (!early(a, s) && !early(s, a)) same(s, refusal(a), 'readBodyPiece vs decodeChunked')
  }
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))
