import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as t from 'io-ts'
import { type JsonSchemaConverter, toJsonSchema } from '../../../lib/core/contract/to-json-schema.js'
import { describeCodec } from '../../../lib/core/route/json-schema.js'
import { intParam, uuidParam } from '../../../lib/core/route/param-codecs.js'
import * as mini from '../../support/mini-schema.js'

const schemaOf = (codec: Parameters<typeof toJsonSchema>[0]): unknown => toJsonSchema(codec).schema

test('toJsonSchema :: io-ts primitives, literals, keyof', () => {
  assert.equal(
    [t.string, t.number, t.boolean, t.null, t.unknown, t.literal('a'), t.literal(3), t.keyof({ x: null, y: null }), t.Int].map(schemaOf),
    [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }, {}, { const: 'a' }, { const: 3 }, { enum: ['x', 'y'] }, { type: 'integer' }],
  )
})

test('toJsonSchema :: objects: required unless the codec takes undefined; partial, exact, readonly, record', () => {
  const User = t.type({ id: intParam, name: t.string, nick: t.union([t.string, t.undefined]) })
  assert.equal(schemaOf(User), {
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string' }, nick: { type: 'string' } },
    required: ['id', 'name'],
  })
  assert.equal(schemaOf(t.partial({ page: intParam })), { type: 'object', properties: { page: { type: 'integer' } } })
  assert.equal(schemaOf(t.exact(t.type({ a: t.string }))), { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })
  assert.equal(schemaOf(t.readonly(t.type({ a: t.string }))), schemaOf(t.type({ a: t.string })))
  assert.equal(schemaOf(t.record(t.string, t.number)), { type: 'object', additionalProperties: { type: 'number' } })
})

test('toJsonSchema :: arrays, tuples, unions, intersections', () => {
  assert.equal(schemaOf(t.array(uuidParam)), { type: 'array', items: { type: 'string', format: 'uuid' } })
  assert.equal(schemaOf(t.readonlyArray(t.string)), { type: 'array', items: { type: 'string' } })
  assert.equal(schemaOf(t.tuple([t.string, t.number])), { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], minItems: 2, maxItems: 2 })
  assert.equal(schemaOf(t.union([t.string, t.number])), { anyOf: [{ type: 'string' }, { type: 'number' }] })
  assert.equal(schemaOf(t.union([t.undefined, t.string])), { type: 'string' })
  assert.equal(schemaOf(t.intersection([t.type({ a: t.string }), t.partial({ b: t.number })])), {
    allOf: [
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      { type: 'object', properties: { b: { type: 'number' } } },
    ],
  })
})

test('toJsonSchema :: target draft-07: tuples as an items array; a Standard Schema\'s library asked for the same target', () => {
  const draft07 = { target: 'draft-07' } as const
  assert.equal(toJsonSchema(t.tuple([t.string, t.number]), draft07).schema, { type: 'array', items: [{ type: 'string' }, { type: 'number' }], minItems: 2, maxItems: 2 })
  const asked: string[] = []
  const spy = { '~standard': { version: 1 as const, vendor: 'spy', validate: () => ({ value: 1 }), jsonSchema: { input: (o: { readonly target: string }) => (asked.push(o.target), { type: 'string' }) } } }
  toJsonSchema(spy)
  toJsonSchema(spy, draft07)
  assert.equal(asked, ['draft-2020-12', 'draft-07'])
})

test('toJsonSchema :: what cannot be said is {} with a description and a note, never a wrong schema', () => {
  const Custom = new t.Type<string, string, unknown>('Custom', t.string.is, t.string.validate, t.identity)
  const result = toJsonSchema(t.type({ c: Custom }))
  assert.equal(result.schema, { type: 'object', properties: { c: { description: 'not described: the io-ts codec Custom' } }, required: ['c'] })
  assert.equal(result.notes, ['the io-ts codec Custom'])
  const Positive = t.refinement(t.number, (n) => n > 0, 'Positive')
  assert.equal(schemaOf(Positive), { type: 'number', description: 'refined: Positive' })
  assert.equal(schemaOf(describeCodec(Custom, { type: 'string', minLength: 1 })), { type: 'string', minLength: 1 })
})

test('toJsonSchema :: a Standard Schema gives its library\'s JSON Schema (its $schema dropped), or {} with a note', () => {
  assert.equal(toJsonSchema(mini.object({ a: mini.string() })), {
    schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
    notes: [],
  })
  assert.equal(toJsonSchema(mini.string(false)), {
    schema: { description: 'not described: a mini schema without ~standard.jsonSchema' },
    notes: ['a mini schema without ~standard.jsonSchema'],
  })
  const throwing = { '~standard': { version: 1 as const, vendor: 'v', validate: () => ({ value: 1 }), jsonSchema: { input: () => { throw new Error('no') } } } }
  assert.equal(toJsonSchema(throwing).notes, ['a v schema that its library could not convert'])
})

test('toJsonSchema :: jsonSchemaOf converts what exposes no ~standard.jsonSchema, only that, in the target asked for', () => {
  const asked: unknown[] = []
  const jsonSchemaOf: JsonSchemaConverter = (schema, { target }) => {
    asked.push([schema['~standard'].vendor, target])
    return { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', minLength: 1 }
  }
  assert.equal(toJsonSchema(mini.string(false), { target: 'draft-07', jsonSchemaOf }), { schema: { type: 'string', minLength: 1 }, notes: [] })
  // A library's own JSON Schema, and io-ts, never reach the converter.
  assert.equal(toJsonSchema(mini.string(), { jsonSchemaOf }).schema, { type: 'string' })
  assert.equal(toJsonSchema(t.type({ a: t.string }), { jsonSchemaOf }).notes, [])
  assert.equal(asked, [['mini', 'draft-07']])
})

test('toJsonSchema :: a converter that gives undefined, no object, or throws leaves {} with a note', () => {
  const notesWith = (jsonSchemaOf: JsonSchemaConverter): readonly string[] => toJsonSchema(mini.string(false), { jsonSchemaOf }).notes
  assert.equal(notesWith(() => undefined), ['a mini schema without ~standard.jsonSchema, which jsonSchemaOf did not convert'])
  assert.equal(notesWith(() => ['string']), ["a mini schema's JSON Schema"])
  assert.equal(notesWith(() => { throw new Error('unsupported') }), ['a mini schema that its library could not convert'])
})

test.run()
