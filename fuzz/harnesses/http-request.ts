/**
 * Harness `http-request`: the two HTTP request parsers. `parseHttpRequest` on random bytes
 * gives a request and a tail view, a need-more asking for more, or a tagged error with a 4xx/5xx
 * status; fed in two pieces (the `NeedMore` of the first passed back) it answers as it does
 * whole; `readRequest` (the fast path), whenever it answers, gives the same request and end as
 * the general parser. Both run with the defaults and with small limits (413/414/431 paths), on
 * one head scratch that persists across inputs, as a server's does.
 */
import type { Either } from 'fp-ts/lib/Either.js'
import { createHeadScratch } from '../../lib/core/http/head-scratch.js'
import type { HttpError } from '../../lib/core/http/http-error.js'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../lib/core/http/http-limits.js'
import { type HttpDecodeStep, parseHttpRequest } from '../../lib/core/http/parse-http-request.js'
import { readRequest } from '../../lib/core/http/read-request.js'
import { expect, expectNeedMore, expectTagged, expectTail, same, splitPoint, plainBytes } from '../support/contract.js'

const scratch = createHeadScratch()
const SMALL: HttpLimits = { maxRequestLine: 24, maxHeaderBytes: 64, maxHeaders: 3, maxBody: 8 }

// The outcome as plain data, to compare two runs.
const outcome = (step: Either<HttpError, HttpDecodeStep>, input: Uint8Array): unknown => {
  if (step._tag === 'Left') return { status: step.left.status, tag: step.left._tag }
  if (step.right._tag === 'NeedMore') return 'NeedMore'
  return { request: step.right.value, used: input.length - step.right.rest.length }
}

const checkStep = (step: Either<HttpError, HttpDecodeStep>, input: Uint8Array, what: string): void => {
  if (step._tag === 'Left') expectTagged(step.left, 'status', 400, 505, what)
  else if (step.right._tag === 'NeedMore') expectNeedMore(step.right.atLeast, input.length, what)
  else expectTail(step.right.rest, input, what)
}

const checkWith = (data: Uint8Array, limits: HttpLimits): void => {
  const whole = parseHttpRequest(data, limits, undefined, scratch)
  checkStep(whole, data, 'whole')

  // Two pieces: the first piece's NeedMore resumes on the whole buffer.
  const k = splitPoint(data)
  const head = data.subarray(0, k)
  const first = parseHttpRequest(head, limits, undefined, scratch)
  checkStep(first, head, 'first piece')
  if (first._tag === 'Right' && first.right._tag === 'NeedMore') {
    const resumed = parseHttpRequest(data, limits, first.right, scratch)
    same(outcome(resumed, data), outcome(whole, data), 'resumed vs whole')
  } else if (first._tag === 'Left') {
    expect(whole._tag === 'Left', 'an error in a prefix is no error in the whole')
  } else {
    same(outcome(first, head), outcome(whole, data), 'parsed prefix vs whole')
  }

  // Differential: the fast path answers only what the general parser answers.
  scratch.end = -1
  const fast = readRequest(data, 0, limits, scratch)
  if (fast !== undefined) {
    expect(whole._tag === 'Right' && whole.right._tag === 'Parsed', 'readRequest answered, parseHttpRequest did not')
    if (whole._tag === 'Right' && whole.right._tag === 'Parsed') {
      same(fast, whole.right.value, 'readRequest vs parseHttpRequest')
      expect(scratch.end === data.length - whole.right.rest.length, `readRequest end ${scratch.end}`)
      expect(scratch.upgrade === fast.headers.some(([name]) => name.toLowerCase() === 'upgrade'), 'scratch.upgrade')
    }
  }
}

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  checkWith(data, DEFAULT_HTTP_LIMITS)
  checkWith(data, SMALL)
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))
