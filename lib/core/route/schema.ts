/**
 * `Schema`: what a route accepts to check data with: an io-ts decoder, or a schema of any
 * Standard Schema library (Zod, Valibot, ArkType, …). `SchemaOutput` and `SchemaInput` name
 * what a schema gives a handler and what a sender writes. Types and one guard.
 * Pure and portable: no node:* imports.
 */
import type * as t from 'io-ts'
import { isStandardSchema, type StandardSchemaV1 } from './standard-schema.js'

/** A schema that turns unknown data into an `A`: an io-ts decoder (`t.Type` included) or a Standard Schema. */
export type Schema<A = unknown> = t.Decoder<unknown, A> | StandardSchemaV1<unknown, A>

/**
 * What a schema gives the handler once the data passed it.
 *
 * @example
 * type N = SchemaOutput<typeof intParam> // number
 */
export type SchemaOutput<S> =
  S extends StandardSchemaV1<infer _I, infer O> ? O : S extends t.Decoder<unknown, infer A> ? A : unknown

/**
 * What a sender writes for the schema to accept: a Standard Schema's input type, an io-ts
 * `t.Type`'s output (the encoded form: `string` for `intParam`), `unknown` for a bare decoder.
 *
 * @example
 * type S = SchemaInput<typeof intParam> // string
 */
export type SchemaInput<S> =
  S extends StandardSchemaV1<infer I, infer _O> ? I : S extends { readonly encode: (value: never) => infer O } ? O : unknown

/** Whether a value is a schema: a Standard Schema, or an io-ts decoder (it has `decode`). */
export const isSchema = (value: unknown): value is Schema =>
  isStandardSchema(value) ||
  (typeof value === 'object' && value !== null && typeof (value as { readonly decode?: unknown }).decode === 'function')
