/**
 * `compactRequest`: the same request in less memory, for a request kept for as long as a
 * connection lives (a WebSocket client's upgrade request, `ctx.request`). The header lines
 * are held as one string and become `[name, value]` pairs again on first read; an empty
 * body and empty trailers share one constant. A server with 10,000 idle clients keeps
 * 10,000 of these, so the pairs' arrays (about half a KiB a request) are worth dropping.
 *
 * Pure and portable: no node:* imports.
 */
import type { Header, HttpRequest } from './types.js'

// Neither a field name nor a field value can hold a line feed (RFC 9112 §5, RFC 9110 §5.5),
// so it separates them without escaping.
const SEPARATOR = '\n'

const NO_HEADERS: readonly Header[] = []
const NO_BODY = new Uint8Array(0)

// One flat string (`join` builds it in one piece; `+=` would keep every part alive in a rope).
const joinHeaders = (headers: readonly Header[]): string => {
  const parts: string[] = []
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i] as Header
    parts.push(name, value)
  }
  return parts.join(SEPARATOR)
}

const splitHeaders = (joined: string): readonly Header[] => {
  const parts = joined.split(SEPARATOR)
  const headers: Header[] = []
  for (let i = 0; i + 1 < parts.length; i += 2) headers.push([parts[i] as string, parts[i + 1] as string])
  return headers
}

class CompactRequest implements HttpRequest {
  readonly method: string
  readonly target: string
  readonly path: string
  readonly rawQuery: string
  readonly protocol: 'HTTP/1.0' | 'HTTP/1.1'
  readonly trailers: readonly Header[]
  readonly body: Uint8Array
  readonly keepAlive: boolean
  readonly expectContinue: boolean
  #joined: string
  #headers: readonly Header[] | undefined

  constructor(request: HttpRequest) {
    this.method = request.method
    this.target = request.target
    this.path = request.path
    this.rawQuery = request.rawQuery
    this.protocol = request.protocol
    this.trailers = request.trailers.length === 0 ? NO_HEADERS : request.trailers
    this.body = request.body.length === 0 ? NO_BODY : request.body
    this.keepAlive = request.keepAlive
    this.expectContinue = request.expectContinue
    this.#joined = joinHeaders(request.headers)
    this.#headers = request.headers.length === 0 ? NO_HEADERS : undefined
  }

  get headers(): readonly Header[] {
    return (this.#headers ??= splitHeaders(this.#joined))
  }

  // `headers` is a getter, which `{ ...request }` would not copy: JSON gets every field.
  toJSON(): HttpRequest {
    return { ...this, headers: this.headers }
  }
}

/**
 * `request` with the same fields and headers, held compactly; `headers` is rebuilt on first
 * read (and kept from then on). `headers` is a getter: to copy the request with a change,
 * name it (`{ ...kept, headers: kept.headers, path }`).
 *
 * @example
 * const kept = compactRequest(request)
 * kept.headers // the same [name, value] pairs, in the same order
 */
export const compactRequest = (request: HttpRequest): HttpRequest =>
  request instanceof CompactRequest ? request : new CompactRequest(request)
