/**
 * `compactRequest`: the same request in less memory, for a request kept for as long as a
 * connection lives (a WebSocket client's upgrade request, `ctx.request`). Two fields: the path
 * (what handlers read most, e.g. on every message) and one string holding the rest: the
 * method, the target (the query is read back from it), the protocol and the two yes-or-no
 * facts, then the header lines (the usual names and values of an upgrade as one character
 * each). The fields are getters that read the string; the header lines become `[name, value]`
 * pairs on the first read of `headers`, and the request a plain record from then on. A
 * request with a body or trailers (none of an upgrade's) is held as given. A server with
 * 10,000 idle clients keeps 10,000 of these: 40 bytes and one string each (was 104 bytes, ten
 * fields, with the string; the pairs' arrays are about half a KiB a request).
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
// `line`: parts that go before the header lines (the request line's, `pack`).
const joinHeaders = (headers: readonly Header[], line: readonly string[] = []): string | undefined => {
  const parts: string[] = [...line]
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

// The request line's facts that are not strings, as one character after the method: bit 0
// HTTP/1.1, bit 1 keep-alive, bit 2 `Expect: 100-continue` ('0' to '7').
const FACTS = 0x30
const HTTP11 = 1
const KEEP_ALIVE = 2
const EXPECT_CONTINUE = 4

// The query of `target` as the parser gives it: what follows its first `?`.
const queryOf = (target: string): string => {
  const at = target.indexOf('?')
  return at < 0 ? '' : target.slice(at + 1)
}

// `request` as one string: the facts, the method and the target (the query is read back from
// it), then the header lines (joinHeaders); `undefined` when it has a body or trailers, or a
// part that cannot be held in it (a request built by hand).
const pack = (request: HttpRequest): string | undefined => {
  const { method, target } = request
  // A record cast to a request (a test's) may lack a field: held as given, like any odd request.
  if (typeof method !== 'string' || typeof target !== 'string' || request.body?.length !== 0 || request.trailers?.length !== 0 || !Array.isArray(request.headers)) return undefined
  if (unsafe(method) || target.includes(SEPARATOR)) return undefined
  if (request.rawQuery !== queryOf(target)) return undefined
  const facts = (request.protocol === 'HTTP/1.1' ? HTTP11 : 0) | (request.keepAlive ? KEEP_ALIVE : 0) | (request.expectContinue ? EXPECT_CONTINUE : 0)
  // One `join`, so the string is flat (a `+` of the parts would be a rope keeping each alive).
  return joinHeaders(request.headers, [String.fromCharCode(FACTS + facts) + method, target])
}

// Where the target ends in a packed request (its header lines follow, after a separator).
const targetEnd = (packed: string): number => {
  const at = packed.indexOf(SEPARATOR, packed.indexOf(SEPARATOR) + 1)
  return at < 0 ? packed.length : at
}

// A packed request's fields.
const factsOf = (packed: string): number => packed.charCodeAt(0) - FACTS
const methodOf = (packed: string): string => packed.slice(1, packed.indexOf(SEPARATOR))
const targetOf = (packed: string): string => packed.slice(packed.indexOf(SEPARATOR) + 1, targetEnd(packed))
const headersOf = (packed: string): readonly Header[] => {
  const end = targetEnd(packed)
  return end === packed.length ? NO_HEADERS : splitHeaders(packed.slice(end + 1))
}

// Two fields: the path (what handlers read most, e.g. on every message) and the rest of the
// request packed in one string (`pack`), which becomes a plain request on the first read of
// the headers and stays one; a request that cannot be packed is held as given.
class CompactRequest implements HttpRequest {
  readonly path: string
  #held: string | HttpRequest

  constructor(request: HttpRequest) {
    this.path = request.path
    this.#held = pack(request) ?? request
  }

  get method(): string {
    const held = this.#held
    return typeof held === 'string' ? methodOf(held) : held.method
  }
  get target(): string {
    const held = this.#held
    return typeof held === 'string' ? targetOf(held) : held.target
  }
  get rawQuery(): string {
    const held = this.#held
    return typeof held === 'string' ? queryOf(targetOf(held)) : held.rawQuery
  }
  get protocol(): 'HTTP/1.0' | 'HTTP/1.1' {
    const held = this.#held
    if (typeof held !== 'string') return held.protocol
    return (factsOf(held) & HTTP11) !== 0 ? 'HTTP/1.1' : 'HTTP/1.0'
  }
  get keepAlive(): boolean {
    const held = this.#held
    return typeof held === 'string' ? (factsOf(held) & KEEP_ALIVE) !== 0 : held.keepAlive
  }
  get expectContinue(): boolean {
    const held = this.#held
    return typeof held === 'string' ? (factsOf(held) & EXPECT_CONTINUE) !== 0 : held.expectContinue
  }
  get trailers(): readonly Header[] {
    const held = this.#held
    return typeof held === 'string' || held.trailers.length === 0 ? NO_HEADERS : held.trailers
  }
  get body(): Uint8Array {
    const held = this.#held
    return typeof held === 'string' || held.body.length === 0 ? NO_BODY : held.body
  }
  get headers(): readonly Header[] {
    const held = this.#held
    if (typeof held !== 'string') return held.headers
    const headers = headersOf(held)
    this.#held = {
      method: methodOf(held), target: targetOf(held), path: this.path, rawQuery: queryOf(targetOf(held)), protocol: this.protocol,
      headers, trailers: NO_HEADERS, body: NO_BODY, keepAlive: this.keepAlive, expectContinue: this.expectContinue,
    }
    return headers
  }

  // The fields are getters, which `{ ...request }` would not copy: JSON gets every field.
  toJSON(): HttpRequest {
    return {
      method: this.method, target: this.target, path: this.path, rawQuery: this.rawQuery, protocol: this.protocol,
      headers: this.headers, trailers: this.trailers, body: this.body, keepAlive: this.keepAlive, expectContinue: this.expectContinue,
    }
  }
}

/**
 * `request` with the same fields and headers, held compactly; `headers` is rebuilt on first
 * read (and kept from then on). Every field but `path` is a getter: to copy the request with a
 * change, name the fields (`{ method: kept.method, ..., path }`), or spread `JSON` of it.
 *
 * @example
 * const kept = compactRequest(request)
 * kept.headers // the same [name, value] pairs, in the same order
 */
export const compactRequest = (request: HttpRequest): HttpRequest =>
  request instanceof CompactRequest ? request : new CompactRequest(request)
