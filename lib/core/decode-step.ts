/**
 * The outcome of one call to an incremental decoder (DESIGN §2): either the decoder
 * needs more bytes, or it produced a value and hands back the unconsumed bytes.
 * Errors travel beside it in an `Either`, so a decoder's type reads
 * `Either<SomeError, DecodeStep<Value>>`.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/** Not enough bytes yet; `atLeast` is the total buffered length to wait for before calling again. */
export interface NeedMore {
  readonly _tag: 'NeedMore'
  readonly atLeast: number
}

/** A decoded value and the bytes after it (a view into the input, never a copy). */
export interface Parsed<A> {
  readonly _tag: 'Parsed'
  readonly value: A
  readonly rest: Uint8Array
}

export type DecodeStep<A> = NeedMore | Parsed<A>

export const needMore = (atLeast: number): NeedMore => ({ _tag: 'NeedMore', atLeast })

export const parsed = <A>(value: A, rest: Uint8Array): Parsed<A> => ({ _tag: 'Parsed', value, rest })
