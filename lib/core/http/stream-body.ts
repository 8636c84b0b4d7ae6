/**
 * `StreamBody`: a response body produced over time (DESIGN §8), from an `AsyncIterable` of
 * bytes or text or a web `ReadableStream<Uint8Array>`, with its length when known. It is a
 * value like the other bodies: the core only describes it; the engine pulls from the source
 * when the socket can take more, and cancels it when the exchange ends early.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/** Where a streamed body comes from: bytes or text over time. */
export type BodySource = AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>

/** A response body produced over time; build it with `stream(...)`. */
export class StreamBody {
  readonly _tag = 'StreamBody' as const
  constructor(
    /** The producer: iterated (or read) once, by the engine that sends the response. */
    readonly source: BodySource,
    /** The body's length in bytes when known (sent as `Content-Length`), else `undefined`. */
    readonly length: number | undefined,
  ) {}
}

/**
 * Whether a body is a {@link StreamBody}.
 *
 * @example
 * isStreamBody(stream(['a']).body) // true
 * isStreamBody('a')                // false
 */
export const isStreamBody = (body: unknown): body is StreamBody => body instanceof StreamBody
