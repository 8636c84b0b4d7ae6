/**
 * `toJsonSchema`: the JSON Schema (draft 2020-12, OpenAPI 3.1's dialect, or draft-07, the base
 * of AsyncAPI 3.0's schema format) of a route schema, for the generated documents. io-ts codecs are read from their combinators; a
 * `DescribedCodec` gives its own; a Standard Schema gives what its library exposes under
 * `~standard.jsonSchema`, or, when it exposes none, what the caller's `jsonSchemaOf` converter
 * gives (Valibot's `@valibot/to-json-schema`: the core imports no library). What cannot be
 * expressed becomes `{}` (anything) with a
 * `description` saying so, and a note in the result: never a schema that is silently wrong.
 * Pure and portable: no node:* imports.
 */
import type * as t from 'io-ts'
import type { Json } from '../http/types.js'
import { DescribedCodec, type JsonSchema } from '../route/json-schema.js'
import type { Schema } from '../route/schema.js'
import { isStandardSchema, type StandardSchemaV1 } from '../route/standard-schema.js'

/** The JSON Schema dialects `toJsonSchema` writes (Standard JSON Schema's target names). */
export type JsonSchemaTarget = 'draft-2020-12' | 'draft-07'

/**
 * Converts a Standard Schema whose library exposes no `~standard.jsonSchema` (Valibot 1.x)
 * to JSON Schema in `target`'s dialect: a plain object, or `undefined` for a schema it does
 * not know (noted as not described). The library's own converter, so the core depends on none.
 *
 * @example
 * import { toJsonSchema as valibotJsonSchema } from '@valibot/to-json-schema'
 * const jsonSchemaOf: JsonSchemaConverter = (schema, { target }) =>
 *   schema['~standard'].vendor === 'valibot' ? valibotJsonSchema(schema as v.GenericSchema, { target }) : undefined
 */
export type JsonSchemaConverter = (schema: StandardSchemaV1, options: { readonly target: JsonSchemaTarget }) => object | undefined

/** Options of `toJsonSchema`. */
export interface ToJsonSchemaOptions {
  /** The dialect (default `'draft-2020-12'`); a Standard Schema's library is asked for the same. */
  readonly target?: JsonSchemaTarget
  /** The converter for Standard Schemas without `~standard.jsonSchema` (default: none, they are noted). */
  readonly jsonSchemaOf?: JsonSchemaConverter
}

/** A schema's JSON Schema, and what could not be described (empty when all was). */
export interface JsonSchemaOf {
  readonly schema: JsonSchema
  readonly notes: readonly string[]
}

// The fields io-ts combinators carry, read without knowing which one a codec is.
interface IoNode {
  readonly _tag?: unknown
  readonly name: string
  readonly value?: unknown
  readonly keys?: { readonly [key: string]: unknown }
  readonly type?: t.Decoder<unknown, unknown>
  readonly types?: readonly t.Decoder<unknown, unknown>[]
  readonly props?: { readonly [key: string]: t.Decoder<unknown, unknown> }
  readonly codomain?: t.Decoder<unknown, unknown>
}

const isOptional = (codec: t.Decoder<unknown, unknown>): boolean => {
  const node = codec as unknown as IoNode
  if (node._tag === 'UndefinedType' || node._tag === 'VoidType') return true
  return node._tag === 'UnionType' && (node.types ?? []).some(isOptional)
}

const literal = (value: unknown): JsonSchema => (value === undefined ? {} : { const: value as Json })

class Reader {
  readonly notes: string[] = []

  constructor(
    readonly target: JsonSchemaTarget,
    readonly convert: JsonSchemaConverter | undefined,
  ) {}

  // A library's or a converter's answer, checked to be an object; the document states the
  // dialect once, so a nested `$schema` is dropped.
  converted(answer: unknown, vendor: string): JsonSchema {
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return this.unknown(`a ${vendor} schema's JSON Schema`)
    const { $schema: _dialect, ...rest } = answer as { readonly [key: string]: Json }
    return rest
  }

  unknown(what: string): JsonSchema {
    this.notes.push(what)
    return { description: `not described: ${what}` }
  }

  object(props: { readonly [key: string]: t.Decoder<unknown, unknown> }, partial: boolean): JsonSchema {
    const properties: { [key: string]: JsonSchema } = {}
    const required: string[] = []
    for (const [key, codec] of Object.entries(props)) {
      properties[key] = this.io(codec)
      if (!partial && !isOptional(codec)) required.push(key)
    }
    return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties }
  }

  io(codec: t.Decoder<unknown, unknown>): JsonSchema {
    if (codec instanceof DescribedCodec) return codec.jsonSchema
    const node = codec as unknown as IoNode
    switch (node._tag) {
      case 'StringType':
        return { type: 'string' }
      case 'NumberType':
        return { type: 'number' }
      case 'BooleanType':
        return { type: 'boolean' }
      case 'NullType':
        return { type: 'null' }
      case 'UnknownType':
      case 'AnyType':
        return {}
      case 'NeverType':
        return { not: {} }
      case 'LiteralType':
        return literal(node.value)
      case 'KeyofType':
        return { enum: Object.keys(node.keys ?? {}) }
      case 'AnyArrayType':
        return { type: 'array' }
      case 'AnyDictionaryType':
      case 'ObjectType':
        return { type: 'object' }
      case 'ArrayType':
      case 'ReadonlyArrayType':
        return node.type === undefined ? { type: 'array' } : { type: 'array', items: this.io(node.type) }
      case 'InterfaceType':
        return this.object(node.props ?? {}, false)
      case 'PartialType':
        return this.object(node.props ?? {}, true)
      case 'DictionaryType':
        return node.codomain === undefined ? { type: 'object' } : { type: 'object', additionalProperties: this.io(node.codomain) }
      case 'TupleType': {
        const items = (node.types ?? []).map((member) => this.io(member))
        // Draft 2020-12 names positional items `prefixItems`; draft-07 gives `items` an array.
        const positional: JsonSchema = this.target === 'draft-07' ? { items } : { prefixItems: items }
        return { type: 'array', ...positional, minItems: items.length, maxItems: items.length }
      }
      case 'UnionType': {
        // `undefined` members make a property optional (see `object`); they have no JSON form.
        const members = (node.types ?? []).filter((member) => !isOptional(member) || (member as unknown as IoNode)._tag === 'UnionType')
        const schemas = members.map((member) => this.io(member))
        const only = schemas[0]
        return only === undefined ? {} : schemas.length === 1 ? only : { anyOf: schemas }
      }
      case 'IntersectionType':
        return { allOf: (node.types ?? []).map((member) => this.io(member)) }
      case 'ExactType':
      case 'ReadonlyType':
        return node.type === undefined ? {} : this.io(node.type)
      case 'RefinementType':
        // t.Int (a brand) is the one refinement JSON Schema can say; others keep their base type.
        if (node.name === 'Int' || node.name === 'Integer') return { type: 'integer' }
        return node.type === undefined ? {} : { ...this.io(node.type), description: `refined: ${node.name}` }
      default:
        return this.unknown(`the io-ts codec ${node.name}`)
    }
  }

  standard(schema: StandardSchemaV1): JsonSchema {
    const props = schema['~standard']
    const own = props.jsonSchema?.input
    if (own === undefined && this.convert === undefined) return this.unknown(`a ${props.vendor} schema without ~standard.jsonSchema`)
    try {
      if (own !== undefined) return this.converted(own({ target: this.target }), props.vendor)
      const answer = this.convert?.(schema, { target: this.target })
      if (answer === undefined) return this.unknown(`a ${props.vendor} schema without ~standard.jsonSchema, which jsonSchemaOf did not convert`)
      return this.converted(answer, props.vendor)
    } catch {
      return this.unknown(`a ${props.vendor} schema that its library could not convert`)
    }
  }
}

/**
 * The JSON Schema of `schema`, with notes on what could not be described.
 *
 * io-ts: `string`, `number`, `boolean`, `null`, `unknown`, literals, `keyof`, arrays, `type`
 * (required unless the property's codec accepts `undefined`), `partial`, `record`, tuples,
 * unions (`anyOf`), intersections (`allOf`), `exact`, `readonly`, `t.Int`; other refinements
 * keep their base type. Recursive and custom codecs are `{}` with a note
 * (give them a schema with `describeCodec`). A Standard Schema without `~standard.jsonSchema`
 * is given to `options.jsonSchemaOf` when there is one. A `DescribedCodec`'s schema is printed as given,
 * whatever the target. Local `$ref`s a library writes (`#` for a recursive schema) point into
 * the schema itself: the documents give such a schema a place of its own (`rebaseRefs`).
 *
 * @example
 * toJsonSchema(t.type({ id: intParam, tags: t.array(t.string) })).schema
 * // { type: 'object', properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['id', 'tags'] }
 */
export const toJsonSchema = (schema: Schema, options: ToJsonSchemaOptions = {}): JsonSchemaOf => {
  const reader = new Reader(options.target ?? 'draft-2020-12', options.jsonSchemaOf)
  const result = isStandardSchema(schema) ? reader.standard(schema) : reader.io(schema)
  return { schema: result, notes: reader.notes }
}
