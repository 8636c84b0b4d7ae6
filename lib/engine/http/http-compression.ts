/**
 * `HttpCompression`: a server's on-the-fly compression of its answers (the `compress`
 * option, issue 30), applied by the connection to what a handler answered, before it is
 * serialised. The pure core decides (`planCompression`) and rewrites the headers
 * (`encodedHeaders`); the runtime's codec (`Platform.compression`) compresses:
 *
 * - a buffered body whole, so its `Content-Length` is the compressed size;
 * - a streamed body piece by piece as the pump pulls it (sent chunked), with a sync flush
 *   after every piece of `text/event-stream`, so each event reaches the client at once.
 *
 * An upgrade never comes here (the connection hands it over before any answer), nor do the
 * connection's own error answers; an `sseRoute` event stream (a registry client whose frames
 * the engine writes itself) is left alone. When the option is off there is no `HttpCompression` at
 * all: the connection checks one field.
 *
 * Must not import `node:*`, Buffer or process.
 */
import { encodedHeaders, notModifiedHeaders } from '../../core/http/compress/encoded-headers.js'
import type { CompressConfig, ContentCoding } from '../../core/http/compress/compress-config.js'
import type { CodingStream, HttpCodec } from '../../core/http/compress/http-codec.js'
import { type CompressionPolicy, planCompression } from '../../core/http/compress/plan-compression.js'
import { isEventStreamBody } from '../../core/sse/event-stream.js'
import { headerValue } from '../../core/http/header-value.js'
import { type BodySource, isStreamBody, StreamBody } from '../../core/http/stream-body.js'
import { stringifyJson } from '../../core/http/stringify-json.js'
import type { HttpRequest, Response } from '../../core/http/types.js'
import { type Pull, pullOf } from '../../core/http/pull-source.js'
import { createVariantCache, type VariantCache, variantKey } from '../../core/http/compress/variant-cache.js'

const encoder = new TextEncoder()

// The bytes of a buffered body, or `undefined` for none (and for JSON that does not encode:
// the serialiser answers that one with its 500).
const bytesOf = (body: Response['body']): Uint8Array | undefined => {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string') return encoder.encode(body)
  if (body instanceof Uint8Array) return body
  // Only JSON data (arrays, plain objects, numbers, booleans): a body of another class is the
  // engine's to handle (an event stream's `sseRoute` answer, a post to one) and left alone.
  if (typeof body === 'object' && !Array.isArray(body)) {
    const proto: unknown = Object.getPrototypeOf(body)
    if (proto !== Object.prototype && proto !== null) return undefined
  }
  const text = stringifyJson(body)
  return text === undefined ? undefined : encoder.encode(text)
}

const underAny = (path: string, prefixes: readonly string[]): boolean => {
  for (let i = 0; i < prefixes.length; i++) if (path.startsWith(prefixes[i] as string)) return true
  return false
}

const isEventStream = (contentType: string): boolean => contentType.slice(0, 17).toLowerCase() === 'text/event-stream'

/**
 * A streamed source compressed as it is pulled: an async iterator (not a generator, so that
 * `return()` cancels the source at once, even while a pull is pending).
 */
const compressedSource = (source: BodySource, coder: CodingStream): AsyncIterable<Uint8Array> => ({
  [Symbol.asyncIterator]: () => {
    let pull: Pull | undefined
    let state: 'open' | 'ended' | 'closed' = 'open'
    const close = (reason: unknown): void => {
      if (state === 'closed') return
      state = 'closed'
      pull?.cancel(reason)
      coder.abort()
    }
    return {
      async next(): Promise<IteratorResult<Uint8Array>> {
        pull ??= pullOf(source)
        try {
          while (state === 'open') {
            const step = await pull.next()
            if (state !== 'open') break
            if (step.done === true) {
              state = 'ended'
              const tail = await coder.end()
              return { done: false, value: tail }
            }
            const value = step.value
            const piece = typeof value === 'string' ? encoder.encode(value) : value
            if (!(piece instanceof Uint8Array)) throw new TypeError('a streamed body gave a piece that is neither a Uint8Array nor a string')
            if (piece.length === 0) continue
            const out = await coder.write(piece)
            if (out.length > 0) return { done: false, value: out }
          }
        } catch (error) {
          close(error)
          throw error
        }
        return { done: true, value: undefined }
      },
      async return(): Promise<IteratorResult<Uint8Array>> {
        close(new Error('the answer was cut'))
        return { done: true, value: undefined }
      },
    }
  },
})

/** A server's compression of answers; made only when the option is on and the runtime has a codec. */
export class HttpCompression {
  private readonly policy: CompressionPolicy
  private readonly paths: readonly string[] | undefined
  private readonly variants: VariantCache | undefined

  constructor(
    config: CompressConfig,
    private readonly codec: HttpCodec,
    private readonly onError: (error: unknown) => void,
  ) {
    this.policy = { codings: config.codings.filter((c) => codec.codings.includes(c)), threshold: config.threshold }
    this.paths = config.paths.length === 0 ? undefined : config.paths
    this.variants = config.cacheBytes > 0 ? createVariantCache(config.cacheBytes) : undefined
  }

  /** The codings actually on offer (the option's, less what the runtime lacks). */
  get codings(): readonly ContentCoding[] {
    return this.policy.codings
  }

  /**
   * `res` as it is sent to `request`: compressed, marked as varying, or as it was.
   *
   * @example
   * const sent = await compression.apply(request, html(page)) // Content-Encoding: br, Vary: Accept-Encoding
   */
  apply(request: HttpRequest, res: Response): Response | Promise<Response> {
    const paths = this.paths
    if (paths !== undefined && !underAny(request.path, paths)) return res
    if (res.status === 304) {
      const headers = notModifiedHeaders(res.headers, headerValue(request.headers, 'if-none-match'))
      return headers === undefined ? res : { ...res, headers }
    }
    const body = res.body
    // The SSE transport's answer: its events are written by the event-stream client the
    // connection becomes, encoded once per broadcast; wrapping the body would hide what it is.
    if (isEventStreamBody(body)) return res
    const streamed = isStreamBody(body)
    const bytes = streamed ? undefined : bytesOf(body)
    if (!streamed && bytes === undefined) return res
    const size = streamed ? body.length : (bytes as Uint8Array).length
    const plan = planCompression({ method: request.method, acceptEncoding: headerValue(request.headers, 'accept-encoding') }, res, size, this.policy)
    if (plan._tag === 'Leave') return res
    // JSON data was encoded for its size: the serialiser gets the text, not the data again.
    const sent = typeof body === 'string' || body instanceof Uint8Array || streamed ? body : (bytes as Uint8Array)
    if (plan._tag === 'Vary') return { ...res, headers: encodedHeaders(res.headers, undefined), body: sent }
    const headers = encodedHeaders(res.headers, plan.coding)
    if (streamed) {
      const source = compressedSource(body.source, this.codec.stream(plan.coding, isEventStream(res.contentType)))
      return { ...res, headers, body: new StreamBody(source, undefined) }
    }
    const coding = plan.coding
    const key = this.variants === undefined ? undefined : variantKey(request.target, headerValue(res.headers, 'etag'), res.contentType, coding)
    const compressing =
      key === undefined || this.variants === undefined
        ? this.codec.compress(coding, bytes as Uint8Array)
        : this.variants.get(key, () => this.codec.compress(coding, bytes as Uint8Array))
    return compressing.then(
      (compressed): Response => ({ ...res, headers, body: compressed }),
      (error: unknown): Response => {
        // The runtime's coder failed: the answer still goes, uncompressed.
        this.onError(error)
        return { ...res, headers: encodedHeaders(res.headers, undefined), body: sent }
      },
    )
  }
}
