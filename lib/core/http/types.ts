/**
 * The HTTP values shared by the parser, the Request/Response helpers, the router and
 * the shell. Plain readonly data; the functions that build and read them live in their
 * own modules. Pure and portable: no node:* imports, no Buffer.
 */
import type { StreamBody } from './stream-body.js'

/** One header line as received or to be sent: the name keeps its case, the value is trimmed. */
export type Header = readonly [name: string, value: string]

/** What `parseHttpRequest` produces for one request on the wire (RFC 9112 §2–§7). */
export interface HttpRequest {
  readonly method: string
  /** The request-target exactly as received (origin-form or absolute-form). */
  readonly target: string
  /** The path of the target, still percent-encoded, without the query. */
  readonly path: string
  /** The query of the target without the `?` (empty when there is none), still encoded. */
  readonly rawQuery: string
  readonly protocol: 'HTTP/1.0' | 'HTTP/1.1'
  /** Every header line in arrival order, repeated names kept. */
  readonly headers: readonly Header[]
  /** Trailer fields of a chunked body (empty otherwise). */
  readonly trailers: readonly Header[]
  /** The body after transfer decoding (empty when the request has none). */
  readonly body: Uint8Array
  /** Whether the connection stays open after the response (RFC 9112 §9.3). */
  readonly keepAlive: boolean
  /** `Expect: 100-continue` was sent. */
  readonly expectContinue: boolean
}

/** JSON as data: what `JSON.parse` can give back. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json }

/**
 * `T` where it can be sent as JSON, with `never` at each place that cannot: a function, a
 * symbol, a bigint, `undefined` outside an optional property, `unknown`. Unlike `Json` it takes
 * a value typed by an `interface` (which has no index signature): `json(data)` takes a `T`
 * that fits `JsonSafe<T>`.
 *
 * @example
 * interface User { name: string; tags: string[] }
 * type Ok = JsonSafe<User> // { name: string; tags: string[] }
 * type No = JsonSafe<{ at: () => number }> // { at: never }
 */
export type JsonSafe<T> = unknown extends T
  ? never
  : T extends Json
    ? T
    : T extends undefined | bigint | symbol | ((...args: never[]) => unknown)
      ? never
      : T extends readonly unknown[]
        ? { readonly [I in keyof T]: JsonSafe<T[I]> }
        : T extends object
          ? { [K in keyof T]: K extends string ? JsonSafe<T[K]> : never }
          : never

/**
 * A response body as set by the application: text, bytes, data that is sent as JSON
 * (any array or object; `null` means no body), or a body produced over time (`stream(...)`).
 */
export type ResponseBody = string | Uint8Array | Json | StreamBody | undefined

/** An HTTP response as a value (seed §2.10). Build it with the factories of `response.ts`. */
export interface Response {
  readonly _tag: 'Response'
  readonly status: number
  /** Headers other than `Content-Type` and `Content-Length`, which are derived when serialised. */
  readonly headers: readonly Header[]
  readonly contentType: string
  readonly body: ResponseBody
}

/**
 * What `json(data, status)` returns: a `Response` whose type remembers the data and the
 * status, so the typed HTTP client of `twinport/client` knows what a route answers when it
 * succeeds (`json(x, 201)`) and what is an error (`json(e, 400)`). Nothing changes at run time.
 */
export interface JsonResponse<T, S extends number = number> extends Response {
  readonly status: S
  /** Type-level only, never set at run time: the JSON data of the body. */
  readonly '~json'?: T
}

/** The body of an error answer (DESIGN §5): `{"error": text}`, sometimes with a `message`. */
export interface ErrorBody {
  readonly error: string
  readonly message?: string
}

/**
 * What `errorResponse(status, text)`, `httpErrorResponse(error)` and the error helpers
 * (`notFound`, `badRequest`, …) return: a `JsonResponse` (of an `ErrorBody` unless the helper
 * was given other data) whose type says it is an error whatever its status, so the typed HTTP
 * client never takes it for a result (it rejects with it). Nothing changes at run time.
 */
export interface ErrorResponse<S extends number = number, T = ErrorBody> extends JsonResponse<T, S> {
  /** Type-level only, never set at run time. */
  readonly '~error'?: true
}
