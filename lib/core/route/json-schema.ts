/**
 * `JsonSchema` (draft 2020-12, the dialect of OpenAPI 3.1) as plain JSON data, and
 * `DescribedCodec`: an io-ts codec that carries the JSON Schema it stands for, so documents
 * generated from a route table describe it exactly. Pure and portable: no node:* imports.
 */
import * as t from 'io-ts'
import type { Json } from '../http/types.js'

/** A JSON Schema object (`{}` accepts anything). */
export type JsonSchema = { readonly [keyword: string]: Json }

/**
 * An io-ts codec with its JSON Schema: what `openApi` and `asyncApi` print for it instead of
 * deriving one from the combinators. The ready-made param codecs are of this kind, and so
 * can a codec of your own be (`describeCodec`).
 */
export class DescribedCodec<A, O = A, I = unknown> extends t.Type<A, O, I> {
  constructor(codec: t.Type<A, O, I>, readonly jsonSchema: JsonSchema) {
    super(codec.name, codec.is, codec.validate, codec.encode)
  }
}

/**
 * `codec`, described by `jsonSchema` in generated documents.
 *
 * @example
 * const Slug = describeCodec(t.string, { type: 'string', pattern: '^[a-z0-9-]+$' })
 */
export const describeCodec = <A, O, I>(codec: t.Type<A, O, I>, jsonSchema: JsonSchema): DescribedCodec<A, O, I> =>
  new DescribedCodec(codec, jsonSchema)
