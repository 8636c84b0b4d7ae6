/**
 * Feeding an incremental decoder (DESIGN §2) the way the shell does, for the specs of every
 * decoder in the core (frames, HTTP requests, ...).
 *
 * `feedChunks` plays the shell: bytes arrive in chunks, the decoder is called only once the
 * buffer holds the `atLeast` bytes it asked for, a parsed value's `rest` is decoded again at
 * once, and the first error stops the stream. `feedAll` runs one input whole, one byte at a
 * time, split in two at every point, and with trailing bytes after it, asserts (uvu) that every
 * way gives the same outcome, and returns that outcome for the spec to check.
 *
 * Along the way it asserts the contract itself: a `NeedMore` must ask for more than is
 * buffered (else the shell would spin), a `Parsed` must consume something and hand back its
 * rest as a view of the buffer it was given, and the input is never mutated.
 *
 * Test-only; portable (no node:*), so the core specs that use it run in Bun too.
 */
import type { Either } from 'fp-ts/lib/Either.js'
import * as assert from 'uvu/assert'
import type { DecodeStep } from '../../lib/core/decode-step.js'

/** An incremental decoder: bytes in, an error or one step out (never throws). */
export type Decode<E, A> = (bytes: Uint8Array) => Either<E, DecodeStep<A>>

/** What a stream of chunks decoded to. */
export interface FeedOutcome<E, A> {
  /** Every value decoded, in order. */
  readonly values: readonly A[]
  /** The error that stopped decoding, if one did. */
  readonly error: E | undefined
  /** Bytes buffered but not consumed at the end (an incomplete item); 0 after an error, where the stream is over. */
  readonly leftover: number
}

export interface FeedOptions {
  /** Bytes appended for the trailing-bytes check (default `de ad be ef`). */
  readonly trailer?: Uint8Array
  /**
   * Split points for the two-chunk check. Default: every point for inputs up to 2 KiB; for
   * larger ones the first and last 64 points and 256 spread between (the check is quadratic).
   */
  readonly splits?: readonly number[]
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  if (a.length === 0) return b
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

// Every byte of `view` lies inside `whole` (same ArrayBuffer, within its window).
const isViewOf = (view: Uint8Array, whole: Uint8Array): boolean =>
  view.length === 0 ||
  (view.buffer === whole.buffer &&
    view.byteOffset >= whole.byteOffset &&
    view.byteOffset + view.length <= whole.byteOffset + whole.length)

/**
 * Decodes as many values as the chunks hold, as the shell would, checking the decoder's
 * contract at every call. Throws (an assertion) when the decoder breaks it.
 *
 * @example
 * feedChunks((b) => decodeFrame(b, limits), [hex('81 05 48 65'), hex('6c 6c 6f')]).values.length // 1
 */
export const feedChunks = <E, A>(decode: Decode<E, A>, chunks: readonly Uint8Array[]): FeedOutcome<E, A> => {
  const values: A[] = []
  let buffer: Uint8Array = new Uint8Array(0)
  let need = 1
  for (const chunk of chunks) {
    buffer = concat(buffer, chunk)
    while (buffer.length >= need && buffer.length > 0) {
      const given = buffer
      const snapshot = given.slice()
      const result = decode(given)
      assert.equal(given, snapshot, 'the decoder must not mutate its input')
      if (result._tag === 'Left') return { values, error: result.left, leftover: 0 }
      const step = result.right
      if (step._tag === 'NeedMore') {
        assert.ok(
          step.atLeast > given.length,
          `NeedMore(${step.atLeast}) must ask for more than the ${given.length} bytes buffered`,
        )
        need = step.atLeast
      } else {
        assert.ok(step.rest.length < given.length, 'a parsed value must consume at least one byte')
        assert.ok(isViewOf(step.rest, given), 'the rest must be a view of the input, not a copy')
        values.push(step.value)
        buffer = step.rest
        need = 1
      }
    }
  }
  return { values, error: undefined, leftover: buffer.length }
}

const defaultSplits = (length: number): number[] => {
  if (length <= 2048) return Array.from({ length: Math.max(0, length - 1) }, (_, i) => i + 1)
  const points = new Set<number>()
  for (let i = 1; i <= 64; i++) {
    points.add(i)
    points.add(length - i)
  }
  for (let i = 1; i <= 256; i++) points.add(Math.floor((length * i) / 257))
  return [...points].filter((p) => p > 0 && p < length).sort((a, b) => a - b)
}

const DEFAULT_TRAILER = new Uint8Array([0xde, 0xad, 0xbe, 0xef])

/**
 * Feeds `input` whole, byte by byte, split at every point, and with trailing bytes, asserts that
 * each way decodes to the same values and error, and returns the outcome of the whole input.
 * The trailing-bytes check runs unless the input ends inside an item: the same values and error
 * must come out, and without an error the trailer must be handed back untouched as the rest.
 *
 * @example
 * const out = feedAll((b) => decodeFrame(b, limits), hex('81 05 48 65 6c 6c 6f'))
 * assert.equal(out.values.length, 1)
 */
export const feedAll = <E, A>(decode: Decode<E, A>, input: Uint8Array, options: FeedOptions = {}): FeedOutcome<E, A> => {
  const whole = feedChunks(decode, [input])

  const bytewise = feedChunks(decode, Array.from(input, (_, i) => input.subarray(i, i + 1)))
  assert.equal(bytewise, whole, 'fed one byte at a time, the input must decode as it does whole')

  for (const at of options.splits ?? defaultSplits(input.length)) {
    const split = feedChunks(decode, [input.subarray(0, at), input.subarray(at)])
    assert.equal(split, whole, `split at byte ${at}, the input must decode as it does whole`)
  }

  if (whole.leftover === 0) {
    // An error or an item boundary at the end: bytes after it must change nothing.
    const trailer = options.trailer ?? DEFAULT_TRAILER
    const padded = concat(input, trailer)
    const values: A[] = []
    let buffer = padded
    let error: E | undefined
    // Decode only up to the end of the input; what is left must be the trailer, as a view.
    while (buffer.length > trailer.length) {
      const result = decode(buffer)
      if (result._tag === 'Left') {
        error = result.left
        break
      }
      const step = result.right
      assert.is(step._tag, 'Parsed', 'with trailing bytes after it, a complete input must parse')
      if (step._tag !== 'Parsed') break
      values.push(step.value)
      buffer = step.rest
    }
    assert.equal({ values, error }, { values: whole.values, error: whole.error }, 'trailing bytes must not change the outcome')
    if (error === undefined) {
      assert.equal(buffer, trailer, 'the trailing bytes must come back untouched as the rest')
      assert.ok(isViewOf(buffer, padded), 'the rest must be a view of the input')
    }
  }
  return whole
}
