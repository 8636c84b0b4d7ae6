/**
 * PROVISIONAL: the parts of a streamed `multipart/form-data` body for the streaming bench's
 * twinport upload route (`stream-twinport-routes.ts`), standing in for the core's
 * `readMultipart(req, limits)` (issue 22) until it lands; then the route uses it and this file
 * goes. A small adapter over the core's pure decoder (`startMultipart`, `decodeMultipart`,
 * `endMultipart` in lib/core/http/multipart/, default limits but files bounded by the route's
 * body limit only): fields collected as text, files handed on as the decoder's views of the
 * chunks, in body order; the epilogue is read and dropped. Portable: no node:* imports.
 */
import { isLeft } from 'fp-ts/lib/Either.js'
import { boundaryOf, DEFAULT_MULTIPART_LIMITS, decodeMultipart, endMultipart, type MultipartEvent, startMultipart } from '../../lib/core/index.js'

/** One part, in body order. A file's `data` must be read (or is skipped) before the next part. */
export type ProvisionalPart =
  | { readonly kind: 'field'; readonly name: string; readonly value: string }
  | { readonly kind: 'file'; readonly name: string; readonly filename: string; readonly data: AsyncIterable<Uint8Array> }

const EMPTY = new Uint8Array(0)

/** The boundary of a `multipart/form-data` Content-Type, or `undefined`. */
export const boundaryOfProvisional = (contentType: string | undefined): string | undefined => {
  const b = boundaryOf(contentType)
  return isLeft(b) ? undefined : b.right
}

/**
 * The parts of a multipart body read from `body` as it arrives; throws an `Error` whose
 * message starts with `multipart:` on a body the decoder refuses or that ends too soon.
 */
export async function* readMultipartProvisional(body: AsyncIterable<Uint8Array>, boundary: string): AsyncGenerator<ProvisionalPart> {
  const started = startMultipart(boundary, DEFAULT_MULTIPART_LIMITS)
  if (isLeft(started)) throw new Error(`multipart: ${started.left.message}`)
  let state = started.right
  let rest: Uint8Array = EMPTY
  const it = body[Symbol.asyncIterator]()
  const next = async (): Promise<MultipartEvent> => {
    for (;;) {
      const step = decodeMultipart(state, rest)
      if (isLeft(step)) throw new Error(`multipart: ${step.left.message}`)
      state = step.right.state
      if (step.right._tag === 'Parsed') {
        rest = step.right.rest
        return step.right.value
      }
      const chunk = await it.next()
      if (chunk.done === true) {
        const end = endMultipart(state)
        throw new Error(`multipart: ${isLeft(end) ? end.left.message : 'body ended'}`)
      }
      rest = chunk.value
    }
  }
  for (;;) {
    const event = await next()
    if (event._tag === 'End') break
    if (event._tag !== 'PartStart') throw new Error(`multipart: ${event._tag} out of place`)
    const { name, filename } = event.part
    if (filename === undefined) {
      const decoder = new TextDecoder()
      let value = ''
      for (let e = await next(); e._tag !== 'PartEnd'; e = await next()) {
        if (e._tag !== 'PartData') throw new Error(`multipart: ${e._tag} inside a field`)
        value += decoder.decode(e.data, { stream: true })
      }
      yield { kind: 'field', name, value: value + decoder.decode() }
    } else {
      let ended = false
      const data = (async function* (): AsyncGenerator<Uint8Array> {
        for (let e = await next(); e._tag !== 'PartEnd'; e = await next()) {
          if (e._tag !== 'PartData') throw new Error(`multipart: ${e._tag} inside a file`)
          yield e.data
        }
        ended = true
      })()
      yield { kind: 'file', name, filename, data }
      // What the consumer left unread (or stopped reading) is skipped.
      if (!ended) for (let e = await next(); e._tag !== 'PartEnd'; e = await next()) void e
    }
  }
  // The epilogue, read and dropped, so the body is read to its end.
  for (let chunk = await it.next(); chunk.done !== true; chunk = await it.next()) void chunk
}
