/**
 * `Request`: what a route handler reads (seed §2.9, §4.2), an immutable value built once by
 * `makeRequest` from the parsed `HttpRequest` and the path params the router matched. The
 * accessors of the seed are pure functions in `request-accessors.ts`, which imports this
 * file's types (never the other way round: no import cycle).
 *
 * What costs something is computed on first read and kept (`path` decoded, `headerMap`,
 * `query`, `body`), so a handler pays only for what it reads; `headers` is the parsed request's,
 * read when asked (a request that reads a header by name, `HeaderLookup`, gives `headerMap` a
 * lookup per name and builds its list only when the whole set is asked for). These are getters on the
 * prototype: they read like fields but are not own properties, so `{ ...req }` does not copy
 * them (build a new Request with `makeRequest` instead).
 *
 * The body is parsed by media type (see `parse-request-body.ts`) and kept as an `Either`: a JSON body that does not parse is `left(InvalidJson)` (400 `invalid_json`), and
 * a route that needs it calls `readBody` / `readJsonBody` and answers the Left with
 * `errorResponse(err.status, err.reason)`. `getBody` gives `undefined` for such a body.
 *
 * Pure and portable: no node:* imports.
 */
import type { Either } from 'fp-ts/lib/Either.js'
import type { BodyStream, ExchangeOwner } from './body-stream.js'
import { bodyStreamOf } from './in-process-exchange.js'
import type { InvalidJson } from './http-error.js'
import { lazyHeaderMap } from './lazy-header-map.js'
import { percentDecode } from './percent-decode.js'
import { hasHeaderLookup } from './request-header.js'
import { parseQuery, type Query } from './parse-query.js'
import { parseRequestBody, type RequestBodyValue } from './parse-request-body.js'
import type { Header, HttpRequest } from './types.js'
import type { TraceContext } from '../trace/trace-context.js'

export type { Query, QueryValue } from './parse-query.js'
export type { RequestBodyValue } from './parse-request-body.js'

/** Path parameters: name → URL-decoded value. */
export type Params = Readonly<Record<string, string>>

/** A request as a route sees it. */
export interface Request<P extends Params = Params> {
  readonly method: string
  /** The path, percent-decoded (left as received where it does not decode). */
  readonly path: string
  readonly protocol: 'HTTP/1.0' | 'HTTP/1.1'
  /** Every header line as received, repeated names kept. */
  readonly headers: readonly Header[]
  /** Header values by lower-case name, repeated lines joined with `, ` (the seed's normalised headers). */
  readonly headerMap: ReadonlyMap<string, string>
  /** The query, URL-decoded; a repeated key holds an array. */
  readonly query: Query
  /** Path parameters from the route. */
  readonly params: P
  /** The body read by media type, or `InvalidJson` for a JSON body that does not parse. */
  readonly body: Either<InvalidJson, RequestBodyValue>
  /** The body bytes after transfer decoding, always available. */
  readonly rawBody: Uint8Array
  /** The parsed request this was built from. */
  readonly http: HttpRequest
  /**
   * Aborted when the client goes away, the exchange times out (`limits.streamIdleMs` for a
   * streamed answer) or the server drains: pass it on to whatever the handler starts
   * (a `fetch`, a database cursor) so nothing outlives the exchange.
   */
  readonly signal: AbortSignal
  /**
   * The address of the peer the request came from, as the socket saw it (a proxy's, behind
   * one); `undefined` where the server has none (in process, or a host that does not say).
   * `rateLimit`'s `'ip'` key reads it through the server's trusted-proxy rule.
   */
  readonly remoteAddress?: string | undefined
  /**
   * The request's span as W3C Trace Context (its parent: the `traceparent` header), when the
   * server traces (`instrumentation`): a handler's own spans take it as their parent
   * (`otelContext(req.trace)` from `twinport/otel`). `undefined` otherwise.
   */
  readonly trace?: TraceContext | undefined
}

/**
 * The request a route declared with `{ body: 'stream' }` receives: the body is a
 * {@link BodyStream}, read as it arrives, after the middleware has accepted the head.
 */
export interface StreamRequest<P extends Params = Params> extends Omit<Request<P>, 'body' | 'rawBody'> {
  readonly body: BodyStream
}

const indexHeaders = (headers: readonly Header[]): ReadonlyMap<string, string> => {
  const map = new Map<string, string>()
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i] as Header
    const lower = name.toLowerCase()
    const seen = map.get(lower)
    map.set(lower, seen === undefined ? value : `${seen}, ${value}`)
  }
  return map
}

// The Request value: plain fields for what is free, memoised getters for the rest.
class LazyRequest<P extends Params> implements Request<P> {
  readonly method: string
  readonly protocol: 'HTTP/1.0' | 'HTTP/1.1'
  readonly params: P
  readonly rawBody: Uint8Array
  readonly http: HttpRequest
  #path: string | undefined
  #headerMap: ReadonlyMap<string, string> | undefined
  #query: Query | undefined
  #body: Either<InvalidJson, RequestBodyValue> | undefined
  #signal: AbortSignal | undefined
  readonly #owner: ExchangeOwner | undefined
  readonly #exchange: number
  readonly #streamed: boolean
  #stream: BodyStream | undefined

  constructor(http: HttpRequest, params: P, owner: ExchangeOwner | undefined, exchange: number, streamed: boolean) {
    this.#owner = owner
    this.#exchange = exchange
    this.#streamed = streamed
    this.method = http.method
    this.protocol = http.protocol
    this.params = params
    this.rawBody = http.body
    this.http = http
  }

  get path(): string {
    return (this.#path ??= percentDecode(this.http.path))
  }

  // Read from the parsed request when asked: a request that reads its headers by name (toFetch's
  // view over a web Request) builds its list only if the handler takes the whole set.
  get headers(): readonly Header[] {
    return this.http.headers
  }

  get headerMap(): ReadonlyMap<string, string> {
    if (this.#headerMap !== undefined) return this.#headerMap
    const http = this.http
    return (this.#headerMap = hasHeaderLookup(http) ? lazyHeaderMap(http, () => indexHeaders(http.headers)) : indexHeaders(http.headers))
  }

  get query(): Query {
    return (this.#query ??= parseQuery(this.http.rawQuery))
  }

  get body(): Either<InvalidJson, RequestBodyValue> {
    // A route that streams its body is typed with `StreamRequest`, whose body is a stream: the
    // exchange's, or one piece when the whole body came with the head.
    if (this.#streamed) {
      const streamed = (this.#stream ??= this.#owner?.bodyOf(this.#exchange) ?? bodyStreamOf([this.rawBody], this.rawBody.length))
      return streamed as unknown as Either<InvalidJson, RequestBodyValue>
    }
    return (this.#body ??= parseRequestBody(this.rawBody.length === 0 ? undefined : this.headerMap.get('content-type'), this.rawBody))
  }

  get signal(): AbortSignal {
    // Made on first read only: most handlers never look.
    return (this.#signal ??= this.#owner?.signalOf(this.#exchange) ?? new AbortController().signal)
  }

  get remoteAddress(): string | undefined {
    return this.#owner?.remoteAddress?.()
  }

  get trace(): TraceContext | undefined {
    return this.#owner?.traceOf?.(this.#exchange)
  }
}

/**
 * Builds the Request of `http` with the router's `params`; a server passes itself as the
 * exchange's `owner` (its signal and streamed body) with the exchange's number, and says
 * whether the route streams its body (`req.body` is then a `BodyStream`).
 *
 * @example
 * const req = makeRequest(httpRequest, { id: '42' })
 * getParam(req, 'id') // '42'
 */
export const makeRequest = <P extends Params>(http: HttpRequest, params: P, owner?: ExchangeOwner, exchange = 0, streamed = false): Request<P> =>
  new LazyRequest(http, params, owner, exchange, streamed)
