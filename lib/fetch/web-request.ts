/**
 * A web-standard `Request` (what `Bun.serve`, `Deno.serve`, Workers and Hono hand a fetch
 * handler) as the engine reads requests: the request-target split from its URL
 * (`targetOf`), the parsed `HttpRequest` value for the embedded dispatch (`httpRequestOfWeb`,
 * a view whose headers stay in the host's `Headers` until read),
 * and its body as the pieces `hostBodyStream` takes (`piecesOf`). Part of
 * `toFetch`.
 *
 * Portable: no node:* imports, no Buffer, no process.
 */
import type { HostBody } from '../engine/http/host-body.js'
import { headerValue } from '../core/http/header-value.js'
import type { HeaderLookup } from '../core/http/request-header.js'
import type { Header, HttpRequest } from '../core/http/types.js'

/** The request-target of a URL (origin-form: path and query, no fragment), its path and its query. */
export interface Target {
  readonly target: string
  readonly path: string
  readonly rawQuery: string
}

/**
 * The target of an absolute URL, as the host's parser left it (still percent-encoded).
 *
 * @example
 * targetOf('http://a.test/users/1?full=1') // { target: '/users/1?full=1', path: '/users/1', rawQuery: 'full=1' }
 */
export const targetOf = (url: string): Target => {
  const scheme = url.indexOf('://')
  const slash = url.indexOf('/', scheme === -1 ? 0 : scheme + 3)
  const hash = url.indexOf('#')
  const end = hash === -1 ? url.length : hash
  const target = slash === -1 || slash > end ? '/' : url.slice(slash, end)
  const q = target.indexOf('?')
  return q === -1 ? { target, path: target, rawQuery: '' } : { target, path: target.slice(0, q), rawQuery: target.slice(q + 1) }
}

const hostOf = (url: string): string => {
  const scheme = url.indexOf('://')
  const from = scheme === -1 ? 0 : scheme + 3
  const slash = url.indexOf('/', from)
  return url.slice(from, slash === -1 ? url.length : slash)
}

const NO_HEADERS: readonly Header[] = []

// Every header of `request` as pairs, in the order `Headers` gives them; a request made without
// `Host` (a direct call) gets the URL's.
const headerListOf = (request: Request): readonly Header[] => {
  const headers: Header[] = []
  let host = false
  request.headers.forEach((value, name) => {
    if (name === 'host') host = true
    headers.push([name, value])
  })
  if (!host) headers.unshift(['host', hostOf(request.url)])
  return headers
}

// The request as the engine reads it, its headers left in the host's `Headers` until asked:
// `headerOf` reads one name (a `get`), the `headers` list is built on first read and kept.
class WebHttpRequest implements HttpRequest, HeaderLookup {
  readonly method: string
  readonly target: string
  readonly path: string
  readonly rawQuery: string
  readonly protocol = 'HTTP/1.1'
  readonly trailers: readonly Header[] = NO_HEADERS
  readonly body: Uint8Array
  readonly keepAlive = true
  readonly expectContinue = false
  readonly #request: Request
  #headers: readonly Header[] | undefined

  constructor(request: Request, target: Target, body: Uint8Array) {
    this.method = request.method
    this.target = target.target
    this.path = target.path
    this.rawQuery = target.rawQuery
    this.body = body
    this.#request = request
  }

  get headers(): readonly Header[] {
    return (this.#headers ??= headerListOf(this.#request))
  }

  headerOf(lowerName: string): string | undefined {
    if (this.#headers !== undefined) return headerValue(this.#headers, lowerName)
    let value: string | null
    try {
      value = this.#request.headers.get(lowerName)
    } catch {
      // Not a header name `Headers` takes (a space, a colon): no header has it.
      return undefined
    }
    return value ?? (lowerName === 'host' ? hostOf(this.#request.url) : undefined)
  }

  // `headers` is a getter, which `{ ...request }` would not copy: JSON gets every field.
  toJSON(): HttpRequest {
    return { ...this, headers: this.headers }
  }
}

// The same getter as an own property, for a request that application middleware receives: a
// spread (`next({ ...request, path })`) then copies the headers (reading them) as it copies a
// plain record's. A prototype getter would be left behind by it.
const SPREADABLE_HEADERS: PropertyDescriptor = {
  get(this: WebHttpRequest): readonly Header[] {
    return Reflect.get(WebHttpRequest.prototype, 'headers', this) as readonly Header[]
  },
  enumerable: true,
  configurable: false,
}

/**
 * The `HttpRequest` of `request` with `body` (already read). Header names are as the
 * `Headers` object gives them (lower case, a repeated field's values joined with `, `); a
 * request made without `Host` (a direct call) gets the URL's. The headers are not read until
 * asked: one by name (`requestHeader`, `getHeader`, `req.headerMap.get`) is one `get` on the
 * host's `Headers`; the whole list (`headers`) is built on first read. `headers` is a getter on
 * the prototype (copy the request with `{ ...request, headers: request.headers }`), or, with
 * `spreadable` (the server runs HTTP middleware, which may copy the request with a spread), an
 * own one that a spread copies.
 *
 * @example
 * httpRequestOfWeb(new Request('http://a.test/hello'), targetOf('http://a.test/hello'), new Uint8Array(0))
 */
export const httpRequestOfWeb = (request: Request, target: Target, body: Uint8Array, spreadable = false): HttpRequest & HeaderLookup => {
  const http = new WebHttpRequest(request, target, body)
  if (spreadable) Object.defineProperty(http, 'headers', SPREADABLE_HEADERS)
  return http
}

/**
 * The pieces of a web body stream, read only as they are asked for (the stream's own
 * backpressure reaches the client); leaving early cancels the stream.
 *
 * @example
 * for await (const piece of piecesOf(request.body)) total += piece.length
 */
export const piecesOf = (body: ReadableStream<Uint8Array>): HostBody => ({
  [Symbol.asyncIterator]: () => {
    const reader = body.getReader()
    let done = false
    return {
      next: async () => {
        if (done) return { done: true, value: undefined }
        const step = await reader.read()
        if (step.done) done = true
        return step.done ? { done: true, value: undefined } : { done: false, value: step.value }
      },
      return: async () => {
        if (!done) {
          done = true
          await reader.cancel().catch(() => undefined)
        }
        return { done: true, value: undefined }
      },
    }
  },
})
