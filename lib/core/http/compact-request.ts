/**
 * `compactRequest`: the same request in less memory, for a request kept for as long as a
 * connection lives (a WebSocket client's upgrade request, `ctx.request`). The header lines
 * are held as one string (the usual names and values of an upgrade as one character each)
 * and become `[name, value]` pairs again on first read; an empty body and empty trailers
 * share one constant. A server with 10,000 idle clients keeps
 * 10,000 of these, so the pairs' arrays (about half a KiB a request) are worth dropping.
 *
 * Pure and portable: no node:* imports.
 */
import type { Header, HttpRequest } from './types.js'

// Neither a field name nor a field value can hold a line feed (RFC 9112 §5, RFC 9110 §5.5),
// so it separates them without escaping.
const SEPARATOR = '\n'

const NO_HEADERS: readonly Header[] = Object.freeze([])
const NO_BODY = new Uint8Array(0)

// The names and values most upgrade requests carry (browsers', `ws`', undici's, proxies'),
// each held as one control character, like HPACK's static table (RFC 7541 Appendix A): a
// parsed name is a token and a parsed value holds no control character but HTAB (RFC 9110
// §5.1, §5.5), so a part that is one control character is a code. A request that has such a
// part anyway (built by hand) keeps its pairs as they are.
const NAMES: readonly string[] = Object.freeze([
  'Host', 'Connection', 'Upgrade', 'Origin', 'User-Agent', 'Pragma', 'Cache-Control', 'Accept-Encoding',
  'Accept-Language', 'Accept', 'Cookie', 'Authorization', 'Sec-WebSocket-Key', 'Sec-WebSocket-Version',
  'Sec-WebSocket-Extensions', 'Sec-WebSocket-Protocol', 'X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Host',
  'X-Real-IP', 'Referer', 'host', 'connection', 'upgrade', 'sec-websocket-key', 'sec-websocket-version',
  'sec-websocket-extensions', 'user-agent', 'origin', 'authorization',
])
const VALUES: readonly string[] = Object.freeze([
  'websocket', 'Upgrade', '13', 'no-cache', 'upgrade', 'permessage-deflate; client_max_window_bits', 'permessage-deflate',
  'gzip, deflate, br, zstd', 'gzip, deflate, br', 'gzip, deflate', 'keep-alive, Upgrade', 'https', 'http', '*/*',
  'en-US,en;q=0.9', 'en-US,en;q=0.5', 'no-cache, no-store', 'WebSocket',
])

// The 30 codes: every control character but HTAB (a value may be one) and the separator.
const CODES: readonly string[] = Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)).filter((c) => c !== '\t' && c !== SEPARATOR)
const isCode = (part: string): boolean => part.length === 1 && part.charCodeAt(0) < 0x20
const encoder = (table: readonly string[]): ReadonlyMap<string, string> => new Map(table.map((text, i) => [text, CODES[i] as string]))
const decoder = (table: readonly string[]): readonly (string | undefined)[] => {
  const out: (string | undefined)[] = new Array<string | undefined>(0x20).fill(undefined)
  table.forEach((text, i) => (out[(CODES[i] as string).charCodeAt(0)] = text))
  return out
}
const NAME_CODE = encoder(NAMES)
const VALUE_CODE = encoder(VALUES)
const NAME_OF = decoder(NAMES)
const VALUE_OF = decoder(VALUES)

// Whether a part would not come back as itself: it holds the separator, or reads as a code.
const unsafe = (part: string): boolean => isCode(part) || part.includes(SEPARATOR)

// One flat string (`join` builds it in one piece; `+=` would keep every part alive in a rope),
// or `undefined` when a part cannot be held in it.
const joinHeaders = (headers: readonly Header[]): string | undefined => {
  const parts: string[] = []
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i] as Header
    if (unsafe(name) || unsafe(value)) return undefined
    parts.push(NAME_CODE.get(name) ?? name, VALUE_CODE.get(value) ?? value)
  }
  return parts.join(SEPARATOR)
}

const splitHeaders = (joined: string): readonly Header[] => {
  const parts = joined.split(SEPARATOR)
  const headers: Header[] = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const name = parts[i] as string
    const value = parts[i + 1] as string
    headers.push([isCode(name) ? (NAME_OF[name.charCodeAt(0)] as string) : name, isCode(value) ? (VALUE_OF[value.charCodeAt(0)] as string) : value])
  }
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
  // The header lines joined into one string until first read, then the pairs.
  #headers: string | readonly Header[]

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
    this.#headers = request.headers.length === 0 ? NO_HEADERS : (joinHeaders(request.headers) ?? request.headers)
  }

  get headers(): readonly Header[] {
    const headers = this.#headers
    if (typeof headers !== 'string') return headers
    return (this.#headers = splitHeaders(headers))
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
