/**
 * A request body read from a host's own HTTP layer (Node's `IncomingMessage`, a web
 * `Request`'s stream) when twinport is embedded (`attach`, `toFetch`): a `BodyStream` within
 * the route's `maxBody` that throws `BodyStreamError` past the limit (413, as the standalone
 * server answers) or when the client goes away (400); a route that takes its body whole reads
 * it with the stream's `bytes()`. The host's stream carries the backpressure: nothing is pulled
 * until the handler asks.
 *
 * Portable: no node:* imports, no Buffer.
 */
import { type BodyStream, BodyStreamError } from '../../core/http/body-stream.js'
import { bodyIncomplete, bodyTooLarge } from '../../core/http/http-error.js'
import { bodyStreamOf } from '../../core/http/in-process-exchange.js'

/** Where a host's body comes from: pieces as they arrive (Node's streams give Buffers, a Uint8Array subclass). */
export type HostBody = AsyncIterable<Uint8Array>

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
