/**
 * A request body read from a host's own HTTP layer (Node's `IncomingMessage`, a web
 * `Request`'s stream) when twinport is embedded (`attach`, `toFetch`): read whole within the
 * route's `maxBody` (413 past it, as the standalone server answers), or handed to a route
 * declared `{ body: 'stream' }` as a `BodyStream` that throws `BodyStreamError` past the limit
 * or when the client goes away. The host's stream carries the backpressure: nothing is pulled
 * until the handler asks.
 *
 * Portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import { type BodyStream, BodyStreamError } from '../../core/http/body-stream.js'
import { bodyIncomplete, bodyTooLarge, type HttpError } from '../../core/http/http-error.js'
import { bodyStreamOf } from '../../core/http/in-process-exchange.js'
import { joinBytes } from '../../core/join-bytes.js'

/** Where a host's body comes from: pieces as they arrive (Node's streams give Buffers, a Uint8Array subclass). */
export type HostBody = AsyncIterable<Uint8Array>

const EMPTY = new Uint8Array(0)

const joined = (parts: readonly Uint8Array[]): Uint8Array => {
  if (parts.length === 0) return EMPTY
  let total = 0
  for (const part of parts) total += part.length
  return joinBytes(parts, total)
}

// The pieces of `source` as plain views, counted against `maxBody`; a source that fails is a body cut off.
async function* within(source: HostBody, maxBody: number): AsyncGenerator<Uint8Array> {
  let received = 0
  try {
    for await (const piece of source) {
      received += piece.length
      if (received > maxBody) throw new BodyStreamError(bodyTooLarge(maxBody))
      yield new Uint8Array(piece.buffer, piece.byteOffset, piece.length)
    }
  } catch (error) {
    if (error instanceof BodyStreamError) throw error
    throw new BodyStreamError(bodyIncomplete(received))
  }
}

/**
 * The whole body, or the error its sender gets (413 past `maxBody`, 400 cut off).
 *
 * @example
 * const body = await readHostBody(incomingMessage, 1024 * 1024)
 * if (E.isLeft(body)) answer(httpErrorResponse(body.left))
 */
export const readHostBody = async (source: HostBody, maxBody: number, length?: number): Promise<E.Either<HttpError, Uint8Array>> => {
  if (length !== undefined && length > maxBody) return E.left(bodyTooLarge(maxBody))
  const parts: Uint8Array[] = []
  try {
    for await (const piece of within(source, maxBody)) parts.push(piece)
  } catch (error) {
    return E.left((error as BodyStreamError).error)
  }
  return E.right(joined(parts))
}

/**
 * The `BodyStream` of a route declared `{ body: 'stream' }`, over the host's body: read once,
 * any one way (`bodyStreamOf`), each piece counted against `maxBody`.
 *
 * @example
 * const body = hostBodyStream(incomingMessage, 2 ** 31, 1234)
 * for await (const piece of body) hash.update(piece)
 */
export const hostBodyStream = (source: HostBody, maxBody: number, length: number | undefined): BodyStream =>
  bodyStreamOf(
    {
      // An announced length past the limit refuses where the reading starts.
      [Symbol.asyncIterator]: () => {
        if (length !== undefined && length > maxBody) throw new BodyStreamError(bodyTooLarge(maxBody))
        return within(source, maxBody)
      },
    },
    length,
  )
