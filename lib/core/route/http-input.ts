/**
 * The typed inputs of an HTTP route (issue 27): the schemas `httpRoute` takes for the path
 * params, the query, the headers and the body, and the types of what its handler receives
 * (`req.input`). Types only. Pure and portable: no node:* imports.
 */
import type { DecompressOption } from '../http/decompress/plan-decoding.js'
import type { Params, Request, StreamRequest } from '../http/request.js'
import type { HttpContext } from './http-context.js'
import type { Schema, SchemaOutput } from './schema.js'

/** A body media type a route with a body schema accepts: JSON, a URL-encoded form, a multipart form. */
export type BodyType = 'json' | 'form' | 'multipart'

/** The schemas of a route's inputs, as kept on the route record. */
export interface HttpInputSchemas {
  /** Checks the path params record (`{ id: '42' }`, every value a string). */
  readonly params?: Schema
  /** Checks the query record (a repeated key holds an array of strings). */
  readonly query?: Schema
  /** Checks the headers as a record keyed by lower-case name (repeated lines joined with `, `). */
  readonly headers?: Schema
  /** Checks the body read by media type (`undefined` when the body is empty). */
  readonly body?: Schema
}

/**
 * The options of `httpRoute` with inputs: any of `params`, `query`, `headers` and `body`
 * schemas. A `body` schema reads the body whole; `bodyTypes` says which media types it
 * takes (default `['json']`). `body: 'stream'` keeps the body a stream (no body schema then).
 */
export interface HttpInputOptions {
  readonly params?: Schema
  readonly query?: Schema
  readonly headers?: Schema
  readonly body?: Schema | 'buffer' | 'stream'
  readonly bodyTypes?: readonly BodyType[]
  readonly maxBody?: number
  readonly decompress?: DecompressOption
  readonly responses?: DeclaredResponses
}

/** The answers of a route by status (`200`, `404`, …): the schema of each one's JSON body. */
export type DeclaredResponses = { readonly [status: number]: Schema }

type InputKey = 'params' | 'query' | 'headers' | 'body'

/**
 * What the handler of a route declared with options `O` finds in `req.input`: one key per
 * declared schema, holding the decoded value.
 *
 * @example
 * type I = DecodedInput<{ params: typeof IdParams; body: typeof Note }> // { params: { id: number }; body: { text: string } }
 */
export type DecodedInput<O> = { readonly [K in InputKey & keyof O as O[K] extends Schema ? K : never]: SchemaOutput<O[K]> }

/** The request of a route with inputs: a `Request` (or `StreamRequest`) and its decoded `input`. */
export type InputRequest<P extends Params, I, Streamed extends boolean = false> = (Streamed extends true ? StreamRequest<P> : Request<P>) & {
  /** The declared inputs, decoded by their schemas before the handler runs. */
  readonly input: I
}

/** The handler of a route with inputs. */
export type InputHttpHandler<P extends Params, I, R = unknown, Streamed extends boolean = false> = (req: InputRequest<P, I, Streamed>, ctx: HttpContext) => R
