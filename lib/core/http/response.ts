/**
 * Building responses (seed §2.10): the generic constructor `response`, one factory per seed
 * static (`json`, `html`, `text`, `ok`, `redirect`, `download`, `notFound`, `serverError`,
 * `unauthorized`, `forbidden`, `badRequest`, `noContent`), `errorResponse` for the
 * `{"error": text}` bodies of DESIGN §5, and the guard `isResponse`. Responses are immutable
 * values; `response-updates.ts` holds the `with…` updates, `read-response.ts` the reads.
 *
 * Pure and portable: no node:* imports.
 */
import { APPLICATION_JSON, defaultContentType, OCTET_STREAM, TEXT_HTML, TEXT_PLAIN } from './content-types.js'
import { type HeaderInput, normalizeHeaders, sanitizeHeaderText } from './normalize-headers.js'
import type { ErrorResponse, Json, JsonResponse, JsonSafe, Response, ResponseBody } from './types.js'

export type { HeaderInput } from './normalize-headers.js'

const build = (body: ResponseBody, status: number, headers: HeaderInput, contentType: string): Response => {
  const norm = normalizeHeaders(headers)
  return { _tag: 'Response', status, headers: norm.headers, contentType: norm.contentType ?? contentType, body }
}

/**
 * The generic constructor (seed `new Response($body, $code, $headers)`). An array or object
 * body is sent as JSON; a string as UTF-8 text; bytes as they are; `undefined`/`null` as no
 * body. A `Content-Type` among `headers` wins over the default.
 *
 * @example
 * response({ id: 1 }, 201).contentType // 'application/json'
 */
export const response = (body?: ResponseBody, status = 200, headers: HeaderInput = {}): Response =>
  build(body, status, headers, defaultContentType(body))

/**
 * A JSON response. A string is encoded as a JSON string (`json('hi')` sends `"hi"`), so the
 * stored body of a string is its JSON text; other data is kept as given and encoded when sent.
 * Its type remembers the data's type and the status (`JsonResponse<T, S>`), for typed clients.
 * The data may be typed by a `type` or an `interface`; what cannot be sent as JSON (a
 * function, a bigint, `unknown`) is a type error (`JsonSafe<T>`). (The bound on `T` keeps
 * the inference of before: `json({ n: 1 })` is a `JsonResponse<{ n: number }>`.)
 *
 * @example
 * json({ ok: true }).contentType // 'application/json'
 * interface Room { name: string; members: number }
 * const room: Room = { name: 'lobby', members: 2 }
 * json(room, 201).status // 201
 */
export const json = <T extends null | boolean | number | string | object, S extends number = 200>(data: T & JsonSafe<T>, status: S = 200 as S, headers: HeaderInput = {}): JsonResponse<T, S> =>
  // `JsonSafe<T>` admits only what JSON.stringify sends as data, so the value is Json; `build` keeps the status.
  build(typeof data === 'string' ? JSON.stringify(data) : (data as Json), status, headers, APPLICATION_JSON) as JsonResponse<T, S>

/** An HTML response (`text/html; charset=utf-8`). */
export const html = (markup: string, status = 200, headers: HeaderInput = {}): Response =>
  build(markup, status, headers, TEXT_HTML)

/** A plain-text response (`text/plain; charset=utf-8`). */
export const text = (content: string, status = 200, headers: HeaderInput = {}): Response =>
  build(content, status, headers, TEXT_PLAIN)

/** Status 200 with any body (typed as `response` types it). */
export const ok = (data: ResponseBody = null, headers: HeaderInput = {}): Response => response(data, 200, headers)

/**
 * A redirect to `url` with a `Location` header and no body (302 unless told otherwise).
 *
 * @example
 * redirect('/login').headers // [['Location', '/login']]
 */
export const redirect = (url: string, status = 302, headers: HeaderInput = {}): Response => {
  const base = build(undefined, status, headers, '')
  return { ...base, headers: [['Location', sanitizeHeaderText(url)], ...base.headers.filter(([n]) => n.toLowerCase() !== 'location')] }
}

// RFC 8187 §3.2.1: attr-char is ALPHA / DIGIT / "!#$&+-.^_`|~"; everything else is %XX of UTF-8.
const rfc8187 = (value: string): string => {
  const bytes = new TextEncoder().encode(value)
  let out = ''
  for (const b of bytes) {
    const c = String.fromCharCode(b)
    out += /[A-Za-z0-9!#$&+\-.^_`|~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/**
 * A download of in-memory content: `Content-Disposition: attachment` with the file name as a
 * plain ASCII `filename` (quotes, backslashes and non-ASCII replaced) and, for every client
 * that reads it, the exact name as `filename*` (RFC 6266 §4.3, RFC 8187).
 *
 * @example
 * download('a,b', 'report.csv', 'text/csv')
 */
export const download = (
  content: string | Uint8Array,
  filename: string,
  contentType: string = OCTET_STREAM,
  headers: HeaderInput = {},
): Response => {
  const base = build(content, 200, headers, contentType)
  const plain = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  const disposition = `attachment; filename="${plain}"; filename*=UTF-8''${rfc8187(filename)}`
  const others = base.headers.filter(([n]) => n.toLowerCase() !== 'content-disposition')
  return { ...base, headers: [...others, ['Content-Disposition', disposition]] }
}

/**
 * An error response with the body `{"error": text}` (DESIGN §5). Its type (`ErrorResponse`)
 * keeps the status and marks it an error, so a typed client never takes it for a result.
 *
 * @example
 * errorResponse(409, 'room_exists').body // { error: 'room_exists' }
 */
export const errorResponse = <S extends number>(status: S, message: string, headers: HeaderInput = {}): ErrorResponse<S> =>
  // `build` keeps the status it is given.
  build({ error: message }, status, headers, APPLICATION_JSON) as ErrorResponse<S>

/**
 * An error helper of one status: a string (or nothing: the status's text) becomes
 * `{"error": string}`, any other data is sent as JSON as is (and typed as given).
 */
export interface ErrorHelper<S extends number> {
  (message?: string, headers?: HeaderInput): ErrorResponse<S>
  <T extends null | boolean | number | object>(data: T & JsonSafe<T>, headers?: HeaderInput): ErrorResponse<S, T>
}

const errorHelper = <S extends number>(status: S, fallback: string): ErrorHelper<S> =>
  // Both call forms are this one function; the interface tells the data's type apart.
  ((data: Json = fallback, headers: HeaderInput = {}): Response =>
    typeof data === 'string' ? errorResponse(status, data, headers) : build(data, status, headers, APPLICATION_JSON)) as ErrorHelper<S>

/** 404; a string becomes `{"error": string}` (default `"Not Found"`). */
export const notFound = errorHelper(404, 'Not Found')
/** 500; a string becomes `{"error": string}` (default `"Internal Server Error"`). */
export const serverError = errorHelper(500, 'Internal Server Error')
/** 401; a string becomes `{"error": string}` (default `"Unauthorized"`). */
export const unauthorized = errorHelper(401, 'Unauthorized')
/** 403; a string becomes `{"error": string}` (default `"Forbidden"`). */
export const forbidden = errorHelper(403, 'Forbidden')
/** 400; a string becomes `{"error": string}` (default `"Bad Request"`). */
export const badRequest = errorHelper(400, 'Bad Request')

/** 204 with no body and no content type. */
export const noContent = (): Response => ({ _tag: 'Response', status: 204, headers: [], contentType: '', body: undefined })

/**
 * Whether `x` is a Response value (its `_tag` is `'Response'`).
 *
 * @example
 * isResponse(text('hi')) // true
 * isResponse({ hi: 1 })  // false
 */
export const isResponse = (x: unknown): x is Response =>
  typeof x === 'object' && x !== null && (x as { readonly _tag?: unknown })._tag === 'Response'
