/**
 * `textResponder`: the common answer (a JSON or text body with a status that carries one, not
 * to a HEAD) as a web `Response`, built the way the host in hand sends cheapest (session 13,
 * `bench/embed/response-build.ts` and `bench/deno-shapes.ts`): the body kept as its text (the
 * host encodes it and derives `Content-Length`), and the headers
 * - `'other'` (Node's `@hono/node-server`, workerd): a plain record, which those hosts read
 *   without building a `Headers`;
 * - `'deno'`: a 200 answer built with its `Content-Type` alone (`Deno.serve`'s static fast
 *   path), any further header appended to its `headers` after: built with two or more headers
 *   at once, Deno makes a native response for it at construction (registered with a
 *   FinalizationRegistry until sent), about four times the CPU of the whole rest;
 * - `'bun'`: one `Headers` per answer shape (content type and a frozen list of headers, such as
 *   the CORS grant), made once and passed to every such `Response`, which copies it natively
 *   (cheaper than reading a record); never changed once made (`Response` copies it, so a
 *   change to an answer's `headers` reaches only that answer).
 * Everything else (bytes, streams, no body, HEAD, a body that is not JSON) is left to
 * `webResponseOf`'s general path (`undefined` here); so is a repeated header (Set-Cookie twice)
 * where a record would be built. The same rules as `responseParts`: exactly one `Content-Type`,
 * no framing header taken from the application. Part of `toFetch`.
 *
 * Portable: no node:* imports, no Buffer, no process.
 */
import { isJsonData } from '../core/http/content-types.js'
import { isFramingHeader } from '../core/http/is-framing-header.js'
import { stringifyJson } from '../core/http/stringify-json.js'
import type { Header, Response as Answer } from '../core/http/types.js'

/** Which host's cheap way to take: `hostKindOf` tells it from the globals. */
export type HostKind = 'deno' | 'bun' | 'other'

/** An answer as a `Response` with a text body, or `undefined` when it is not the common case. */
export type TextResponder = (answer: Answer, head: boolean) => Response | undefined

/**
 * The host kind of the runtime this runs in (`Deno` or `Bun` among the globals; else `'other'`).
 *
 * @example
 * hostKindOf() // 'deno' under Deno.serve
 */
export const hostKindOf = (global: object = globalThis): HostKind => ('Deno' in global ? 'deno' : 'Bun' in global ? 'bun' : 'other')

// A status that carries content (RFC 9110 §6.4.1; Fetch's "null body status" 205 too).
const carriesBody = (status: number): boolean => Number.isInteger(status) && status >= 200 && status <= 599 && status !== 204 && status !== 205 && status !== 304

// The text of a body sent as text, or undefined (bytes, a stream, no body, empty).
const textOf = (body: Answer['body']): string | undefined => {
  const text = typeof body === 'string' ? body : isJsonData(body) ? stringifyJson(body) : undefined
  return text === undefined || text.length === 0 ? undefined : text
}

// The headers as a record, or undefined when a name repeats or cannot be a record's key.
// Indexed, not `for (const [name, value] of …)`: Bun's profile put a tenth of toFetch's own
// time on that loop's iterator and destructuring (one header, the CORS grant, per answer).
const recordOf = (contentType: string, list: readonly Header[]): Record<string, string> | undefined => {
  const headers: Record<string, string> = { 'Content-Type': contentType }
  for (let i = 0; i < list.length; i++) {
    const header = list[i] as Header
    const name = header[0]
    if (isFramingHeader(name)) continue
    if (name === '__proto__' || Object.hasOwn(headers, name)) return undefined
    headers[name] = header[1]
  }
  return headers
}

const initOf = (status: number, headers: HeadersInit): ResponseInit => (status === 200 ? { headers } : { status, headers })

// The record way (and the fallback of the others).
const byRecord = (text: string, status: number, contentType: string, list: readonly Header[]): Response | undefined => {
  const headers = recordOf(contentType, list)
  return headers === undefined ? undefined : new Response(text, initOf(status, headers))
}

// Deno: the one-Content-Type 200 answer stays off the native response; the rest appended after.
const byDeno = (text: string, status: number, contentType: string, list: readonly Header[]): Response | undefined => {
  if (status !== 200) return byRecord(text, status, contentType, list)
  const response = new Response(text, { headers: { 'Content-Type': contentType } })
  let headers: Headers | undefined
  for (let i = 0; i < list.length; i++) {
    const header = list[i] as Header
    if (isFramingHeader(header[0])) continue
    headers ??= response.headers
    headers.append(header[0], header[1])
  }
  return response
}

// How many content types one list of headers keeps a shared `Headers` for (a content type made
// per answer, a multipart boundary, must not grow it without bound: past it, the record way).
const SHAPES_PER_LIST = 16

// Bun: one `Headers` per (content type, frozen list): a list made per answer is not a shape.
const byBun = (): ((text: string, status: number, contentType: string, list: readonly Header[]) => Response | undefined) => {
  const bare = new Map<string, Headers>()
  const withList = new WeakMap<readonly Header[], Map<string, Headers>>()
  const sharedOf = (contentType: string, list: readonly Header[]): Headers | undefined => {
    let shapes: Map<string, Headers> | undefined
    if (list.length === 0) shapes = bare
    else if (Object.isFrozen(list)) {
      shapes = withList.get(list)
      if (shapes === undefined) withList.set(list, (shapes = new Map()))
    } else return undefined
    let headers = shapes.get(contentType)
    if (headers === undefined && shapes.size < SHAPES_PER_LIST) {
      const record = recordOf(contentType, list)
      if (record === undefined) return undefined
      headers = new Headers(record)
      shapes.set(contentType, headers)
    }
    return headers
  }
  return (text, status, contentType, list) => {
    const shared = sharedOf(contentType, list)
    return shared === undefined ? byRecord(text, status, contentType, list) : new Response(text, initOf(status, shared))
  }
}

/**
 * The text responder for `kind` (one per `toFetch` app: the Bun one keeps its shared `Headers`).
 *
 * @example
 * const text = textResponder(hostKindOf())
 * text(json({ hello: 'world' }), false) // Response 200 {"hello":"world"}, Content-Type application/json
 * text(noContent(), false)              // undefined: the general path answers it
 */
export const textResponder = (kind: HostKind): TextResponder => {
  const build = kind === 'deno' ? byDeno : kind === 'bun' ? byBun() : byRecord
  return (answer, head) => {
    const { status, contentType } = answer
    // No Content-Type: a text body would get the host's default one (text/plain) instead of none.
    if (head || contentType === '' || !carriesBody(status)) return undefined
    const text = textOf(answer.body)
    return text === undefined ? undefined : build(text, status, contentType, answer.headers)
  }
}
