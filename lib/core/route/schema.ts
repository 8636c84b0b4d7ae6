/**
 * `Schema`: what a route accepts to check data with: an io-ts decoder. `SchemaOutput` and
 * `SchemaInput` name what a schema gives a handler and what a sender writes. Types only.
 * Pure and portable: no node:* imports.
 */
import type * as t from 'io-ts'

/** A schema that turns unknown data into an `A`: any io-ts decoder (`t.Type` included). */
export type Schema<A = unknown> = t.Decoder<unknown, A>

/**
 * What a schema gives the handler once the data passed it.
 *
 * @example
 * type N = SchemaOutput<typeof intParam> // number
 */
export type SchemaOutput<S> = S extends t.Decoder<unknown, infer A> ? A : unknown

/**
 * What a sender writes for the schema to accept: an io-ts `t.Type`'s output (the encoded
 * form, `string` for `intParam`), `unknown` for a bare decoder.
 *
 * @example
 * type S = SchemaInput<typeof intParam> // string
 */
export type SchemaInput<S> = S extends { readonly encode: (value: never) => infer O } ? O : unknown

/** Whether a value is a schema (an io-ts decoder: it has `decode`). */
export const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && typeof (value as { readonly decode?: unknown }).decode === 'function'
