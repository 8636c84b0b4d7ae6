/**
 * `decodeBody`: a request body in content codings (RFC 9110 §8.4) as the `BodyStream` of its
 * decoded bytes, pulled through the runtime's decoders (`HttpDecoder`) as the handler reads.
 * The route's `maxBody` holds for the decoded size, checked at every decoded piece: a small
 * body that inflates past the limit (a "zip bomb") is refused with 413 as the limit is crossed,
 * and the decoder, pulled no further, inflates nothing more. A body that does not decode is
 * 400 `undecodable_body`; what the source throws (413 on the wire, a client gone) passes as is.
 *
 * Pure and portable: no node:* imports, no Buffer (the decoding itself is the runtime's).
 */
import { BodyStreamError, type BodyStream } from '../body-stream.js'
import { bodyTooLarge, undecodableBody } from '../http-error.js'
import { bodyStreamOf } from '../in-process-exchange.js'
import type { HttpDecoder, RequestCoding } from './http-decoder.js'

// The source, with what it throws kept aside: a decoder may wrap or replace the error of its
// input, and that error (not "does not decode") is what the client gets.
const watched = (source: AsyncIterable<Uint8Array>, failed: (error: unknown) => void): AsyncIterable<Uint8Array> => ({
  [Symbol.asyncIterator]: () => {
    const iterator = source[Symbol.asyncIterator]()
    return {
      next: async () => {
        try {
          return await iterator.next()
        } catch (error) {
          failed(error)
          throw error
        }
      },
      return: async () => {
        await iterator.return?.()
        return { done: true, value: undefined }
      },
    }
  },
})

async function* decoded(source: AsyncIterable<Uint8Array>, codings: readonly RequestCoding[], decoder: HttpDecoder, maxBody: number): AsyncGenerator<Uint8Array> {
  let sourceError: { readonly error: unknown } | undefined
  let stream = watched(source, (error) => (sourceError ??= { error }))
  for (const coding of codings) stream = decoder.decode(coding, stream)
  const iterator = stream[Symbol.asyncIterator]()
  let received = 0
  let finished = false
  try {
    for (;;) {
      let step: IteratorResult<Uint8Array>
      try {
        step = await iterator.next()
      } catch (error) {
        finished = true
        if (sourceError !== undefined) throw sourceError.error
        if (error instanceof BodyStreamError) throw error
        throw new BodyStreamError(undecodableBody(codings.join(', ')))
      }
      if (step.done === true) {
        finished = true
        return
      }
      const piece = step.value
      received += piece.length
      if (received > maxBody) throw new BodyStreamError(bodyTooLarge(maxBody))
      if (piece.length > 0) yield piece
    }
  } finally {
    // Stopped early (the limit, a reader that stopped): the decoders and the source stop too.
    if (!finished) await iterator.return?.()
  }
}

/**
 * @example
 * const body = decodeBody(bodyStreamOf([gzipped]), ['gzip'], decoder, 1024 * 1024)
 * await body.text() // the inflated text; BodyStreamError(413) past 1 MiB inflated
 */
export const decodeBody = (source: AsyncIterable<Uint8Array>, codings: readonly RequestCoding[], decoder: HttpDecoder, maxBody: number): BodyStream =>
  bodyStreamOf({ [Symbol.asyncIterator]: () => decoded(source, codings, decoder, maxBody) }, undefined)
