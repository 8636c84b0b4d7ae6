/**
 * Harness `multipart`: the multipart/form-data decoder (RFC 7578, RFC 2046 §5.1), the part of
 * `readMultipart` that reads bytes. A body fed to `startMultipart`/`decodeMultipart`/
 * `endMultipart` gives events, need-more, or a tagged error with a 4xx status, never a throw;
 * every step either emits an event or uses up its chunk (bounded work); the events (part heads,
 * each part's data joined, part ends, the end) are the same whether the body comes whole, in
 * two pieces or byte-sized runs; data after the end is not read.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { MultipartState } from '../../lib/core/http/multipart/decode-multipart.js'
import { decodeMultipart } from '../../lib/core/http/multipart/decode-multipart.js'
import { endMultipart } from '../../lib/core/http/multipart/end-multipart.js'
import type { MultipartLimits } from '../../lib/core/http/multipart/multipart-limits.js'
import { startMultipart } from '../../lib/core/http/multipart/start-multipart.js'
import { expect, expectTagged, plainBytes, same, splitPoint } from '../support/contract.js'

const SMALL: MultipartLimits = { maxPartHeaderBytes: 64, maxParts: 3, maxFields: 2, maxFiles: 1, maxFieldBytes: 16, maxFileBytes: 32 }

// The body fed in `chunks`: the events as plain data, ending with the error status or 'end' / 'truncated'.
const run = (chunks: readonly Uint8Array[], limits: MultipartLimits | undefined): unknown[] => {
  const started = startMultipart('xyz', limits)
  if (E.isLeft(started)) return ['no boundary']
  let state: MultipartState = started.right
  const events: unknown[] = []
  let data: number[] | undefined
  for (const whole of chunks) {
    let chunk = whole
    for (let steps = 0; ; steps++) {
      expect(steps <= 2 * whole.length + 8, 'decodeMultipart makes no progress')
      const step = decodeMultipart(state, chunk)
      if (E.isLeft(step)) {
        expectTagged(step.left, 'status', 400, 431, 'decodeMultipart')
        return [...events, { status: step.left.status }]
      }
      state = step.right.state
      if (step.right._tag === 'NeedMore') break
      const event = step.right.value
      const rest = step.right.rest
      expect(rest.length < chunk.length || event._tag !== 'PartData' || event.data.length > 0, 'an empty step')
      chunk = rest
      if (event._tag === 'PartData') (data ??= []).push(...event.data)
      else {
        if (data !== undefined) events.push(Uint8Array.from(data))
        data = undefined
        events.push(event._tag === 'PartStart' ? event.part : event._tag)
      }
      if (event._tag === 'End') return events
    }
  }
  if (data !== undefined) events.push(Uint8Array.from(data))
  return [...events, E.isLeft(endMultipart(state)) ? 'truncated' : 'end']
}

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  const k = splitPoint(data)
  const runs: Uint8Array[] = []
  for (let i = 0; i < data.length; i += 7) runs.push(data.subarray(i, i + 7))
  for (const limits of [undefined, SMALL]) {
    const whole = run([data], limits)
    same(run([data.subarray(0, k), data.subarray(k)], limits), whole, 'two pieces vs whole')
    same(run(runs, limits), whole, 'runs of 7 bytes vs whole')
  }
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))
