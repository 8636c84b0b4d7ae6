/**
 * `textResponseOf`: the common answer (a JSON or text body with a status that carries one, not
 * to a HEAD) as a web `Response`, the cheap way every host has: the body kept as its text (the
 * host encodes it and derives `Content-Length` from it) and the headers as a plain record,
 * never a `Headers` object built entry by entry. Deno's `Response` takes a text body with a
 * single `Content-Type` (`application/json`, `text/plain`) on a static fast path; Bun and
 * `@hono/node-server` read a record without copying it. Everything else (bytes, streams, no
 * body, HEAD, a body that is not JSON, a repeated header) is left to `webResponseOf`'s general
 * path (`undefined` here). The same rules as `responseParts`: exactly one `Content-Type`, no
 * framing header taken from the application. Part of `toFetch`.
 *
 * Portable: no node:* imports, no Buffer, no process.
 */
import { isJsonData } from '../core/http/content-types.js'
import { isFramingHeader } from '../core/http/is-framing-header.js'
import { stringifyJson } from '../core/http/stringify-json.js'
import type { Response as Answer } from '../core/http/types.js'

// A status that carries content (RFC 9110 §6.4.1; Fetch's "null body status" 205 too).
const carriesBody = (status: number): boolean => Number.isInteger(status) && status >= 200 && status <= 599 && status !== 204 && status !== 205 && status !== 304

/**
 * `answer` as a `Response` with a text body, or `undefined` when it is not the common case.
 *
 * @example
 * textResponseOf(json({ hello: 'world' }), false) // Response 200 {"hello":"world"}, Content-Type application/json
 * textResponseOf(noContent(), false)              // undefined: the general path answers it
 */
export const textResponseOf = (answer: Answer, head: boolean): Response | undefined => {
  const { status, body, contentType } = answer
  // No Content-Type: a text body would get the host's default one (text/plain) instead of none.
  if (head || contentType === '' || !carriesBody(status)) return undefined
  const text = typeof body === 'string' ? body : isJsonData(body) ? stringifyJson(body) : undefined
  if (text === undefined || text.length === 0) return undefined
  const headers: Record<string, string> = { 'Content-Type': contentType }
  // Indexed, not `for (const [name, value] of …)`: Bun's profile put a tenth of toFetch's own
  // time on that loop's iterator and destructuring (one header, the CORS grant, per answer).
  const list = answer.headers
  for (let i = 0; i < list.length; i++) {
    const header = list[i] as (typeof list)[number]
    const name = header[0]
    if (isFramingHeader(name)) continue
    // A repeated name (Set-Cookie twice) or one a record cannot hold: the general path's Headers.
    if (name === '__proto__' || Object.hasOwn(headers, name)) return undefined
    headers[name] = header[1]
  }
  return new Response(text, status === 200 ? { headers } : { status, headers })
}
