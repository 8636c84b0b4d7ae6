/**
 * A web-standard `Request` (what `Bun.serve`, `Deno.serve`, Workers and Hono hand a fetch
 * handler) as the engine reads requests: the request-target split from its URL
 * (`targetOf`), the parsed `HttpRequest` value for the embedded dispatch (`httpRequestOfWeb`),
 * and its body as the pieces `hostBodyStream` takes (`piecesOf`). Part of
 * `toFetch`.
 *
 * Portable: no node:* imports, no Buffer, no process.
 */
import type { HostBody } from '../engine/http/host-body.js'
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

/**
 * The `HttpRequest` of `request` with `body` (already read). Header names are as the
 * `Headers` object gives them (lower case, a repeated field's values joined with `, `); a
 * request made without `Host` (a direct call) gets the URL's.
 *
 * @example
 * httpRequestOfWeb(new Request('http://a.test/hello'), targetOf('http://a.test/hello'), new Uint8Array(0))
 */
export const httpRequestOfWeb = (request: Request, target: Target, body: Uint8Array): HttpRequest => {
  const headers: Header[] = []
  let host = false
  request.headers.forEach((value, name) => {
    if (name === 'host') host = true
    headers.push([name, value])
  })
  if (!host) headers.unshift(['host', hostOf(request.url)])
  return {
    method: request.method,
    target: target.target,
    path: target.path,
    rawQuery: target.rawQuery,
    protocol: 'HTTP/1.1',
    headers,
    trailers: NO_HEADERS,
    body,
    keepAlive: true,
    expectContinue: false,
  }
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
