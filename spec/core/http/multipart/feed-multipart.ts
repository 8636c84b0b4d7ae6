/**
 * Feeding the multipart decoder the way a shell does, for its specs: chunk after chunk, each
 * stepped through until `NeedMore`, then `endMultipart` at the end of the input.
 *
 * `spec/support/feed.ts`'s `feedAll` serves decoders that are handed the whole buffer again
 * with more bytes after `NeedMore`; the multipart decoder keeps its own few carried bytes in its
 * state and is handed each new chunk alone (so a shell never copies a chunk onto a tail), and
 * its events need the state of the events before them. This helper does for it what `feedAll`
 * does for the others: the input whole, one byte at a time and split in two at every point
 * (three ways at some), all asserted to read the same parts or fail with the same error.
 *
 * Along the way it asserts the decoder's contract: chunks are never mutated, a given state is
 * never changed, `rest` is a view of the chunk given, data is a view of a chunk or a carried
 * copy shorter than the delimiter, and no part data is empty.
 *
 * Test-only; portable (no node:*), so these specs run in Bun and Deno too.
 */
import * as assert from 'uvu/assert'
import { decodeMultipart, type MultipartState } from '../../../../lib/core/http/multipart/decode-multipart.js'
import { endMultipart } from '../../../../lib/core/http/multipart/end-multipart.js'
import type { MultipartError } from '../../../../lib/core/http/multipart/multipart-error.js'
import type { PartHead } from '../../../../lib/core/http/multipart/multipart-event.js'
import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from '../../../../lib/core/http/multipart/multipart-limits.js'
import { startMultipart } from '../../../../lib/core/http/multipart/start-multipart.js'

/** One part as read: its head and all its data joined. */
export interface ReadPart {
  readonly head: PartHead
  readonly data: Uint8Array
}

/** What a body read to. */
export interface MultipartOutcome {
  /**
   * The parts begun, in order. A part cut short by an error from `decodeMultipart` is here
   * without its data (how much came out first depends on the chunks); at `TruncatedBody` the
   * data read so far is kept.
   */
  readonly parts: readonly ReadPart[]
  /** Whether the close delimiter was read. */
  readonly ended: boolean
  /** The error that stopped reading, `TruncatedBody` included. */
  readonly error: MultipartError | undefined
}

const join = (pieces: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of pieces) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const isViewOf = (view: Uint8Array, whole: Uint8Array): boolean =>
  view.buffer === whole.buffer && view.byteOffset >= whole.byteOffset && view.byteOffset + view.length <= whole.byteOffset + whole.length

/** The initial state for `boundary`, failing the spec when the boundary is refused. */
export const initial = (boundary: string, limits: MultipartLimits = DEFAULT_MULTIPART_LIMITS): MultipartState => {
  const start = startMultipart(boundary, limits)
  if (start._tag === 'Left') throw new Error(`boundary refused: ${boundary}`)
  return start.right
}

/**
 * Reads `chunks` as one body from `state`, checking the decoder's contract at every step.
 *
 * @example
 * feedMultipart(initial('b'), [bytes('--b\r\n...'), bytes('...--b--')]).parts.length
 */
export const feedMultipart = (state: MultipartState, chunks: readonly Uint8Array[]): MultipartOutcome => {
  const parts: { head: PartHead; pieces: Uint8Array[]; closed: boolean }[] = []
  let ended = false
  const delimiterLength = state.delimiter.bytes.length
  let s = state
  for (const chunk of chunks) {
    const snapshot = chunk.slice()
    let input: Uint8Array = chunk
    for (;;) {
      const given = s
      const before = { ...given }
      const result = decodeMultipart(given, input)
      assert.equal({ ...given }, before, 'a step must not change the state it was given')
      assert.equal(chunk, snapshot, 'the decoder must not mutate its input')
      if (result._tag === 'Left') {
        // How much of a part cut short by a limit came out before the error depends on the chunks: not compared.
        const last = parts[parts.length - 1]
        if (last !== undefined && !last.closed) last.pieces = []
        return { parts: parts.map(({ head, pieces }) => ({ head, data: join(pieces) })), ended, error: result.left }
      }
      const step = result.right
      s = step.state
      if (step._tag === 'NeedMore') break
      assert.ok(isViewOf(step.rest, input), 'the rest must be a view of the chunk given')
      const event = step.value
      if (event._tag === 'PartStart') {
        assert.not.ok(ended, 'no part after the close delimiter')
        parts.push({ head: event.part, pieces: [], closed: false })
      } else if (event._tag === 'PartData') {
        assert.ok(event.data.length > 0, 'no empty data events')
        assert.ok(isViewOf(event.data, chunk) || event.data.length < delimiterLength, 'data is a view of the chunk, or a carried tail')
        const current = parts[parts.length - 1]
        assert.ok(current !== undefined, 'data belongs to a part')
        current?.pieces.push(event.data.slice())
      } else if (event._tag === 'PartEnd') {
        const current = parts[parts.length - 1]
        assert.ok(current !== undefined && !current.closed, 'a part ends once, after it starts')
        if (current !== undefined) current.closed = true
      } else ended = true
      input = step.rest
    }
  }
  const end = endMultipart(s)
  return {
    parts: parts.map(({ head, pieces }) => ({ head, data: join(pieces) })),
    ended,
    error: end._tag === 'Left' ? end.left : undefined,
  }
}

/** `input` cut at the given points. */
export const splitAt = (input: Uint8Array, points: readonly number[]): Uint8Array[] => {
  const cuts = [0, ...points, input.length]
  return cuts.slice(1).map((end, i) => input.subarray(cuts[i] as number, end))
}

/**
 * Reads `input` whole, one byte at a time, split in two at every point and in three at a
 * spread of pairs, asserts every way reads the same, and returns the outcome.
 *
 * @example
 * const out = feedMultipartAll(initial('b'), body)
 * assert.equal(out.parts.map((p) => p.head.name), ['a', 'f'])
 */
export const feedMultipartAll = (state: MultipartState, input: Uint8Array): MultipartOutcome => {
  const whole = feedMultipart(state, [input])
  assert.equal(feedMultipart(state, splitAt(input, Array.from({ length: Math.max(0, input.length - 1) }, (_, i) => i + 1))), whole, 'fed one byte at a time, the body must read as it does whole')
  for (let at = 0; at <= input.length; at++) {
    assert.equal(feedMultipart(state, splitAt(input, [at])), whole, `split at byte ${at}, the body must read as it does whole`)
  }
  const step = Math.max(1, Math.floor(input.length / 24))
  for (let a = 1; a < input.length; a += step) {
    for (let b = a + 1; b < input.length; b += step) {
      assert.equal(feedMultipart(state, splitAt(input, [a, b])), whole, `split at bytes ${a} and ${b}, the body must read as it does whole`)
    }
  }
  return whole
}
