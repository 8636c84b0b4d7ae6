import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { rebaseRefs } from '../../../lib/core/contract/rebase-refs.js'
import type { JsonSchema } from '../../../lib/core/route/json-schema.js'

const BASE = '#/components/schemas/Tree'

test('rebaseRefs :: local refs move under the base, others stay', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { children: { type: 'array', items: { $ref: '#' } }, leaf: { $ref: '#/$defs/Leaf' }, remote: { $ref: 'https://example.com/s.json' } },
    $defs: { Leaf: { anyOf: [{ type: 'string' }, { $ref: '#' }] } },
  }
  assert.equal(rebaseRefs(schema, BASE), {
    type: 'object',
    properties: {
      children: { type: 'array', items: { $ref: BASE } },
      leaf: { $ref: `${BASE}/$defs/Leaf` },
      remote: { $ref: 'https://example.com/s.json' },
    },
    $defs: { Leaf: { anyOf: [{ type: 'string' }, { $ref: BASE }] } },
  })
})

test('rebaseRefs :: a schema without local refs is the same object; data keywords are not references', () => {
  const plain = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }
  assert.ok(rebaseRefs(plain, BASE) === plain)
  const data = { const: { $ref: '#' }, enum: [{ $ref: '#' }], default: { $ref: '#' }, examples: [{ $ref: '#' }] }
  assert.ok(rebaseRefs(data, BASE) === data)
})

test('rebaseRefs :: a property named $ref is a schema like any other', () => {
  assert.equal(rebaseRefs({ properties: { $ref: { items: { $ref: '#' } } } }, BASE), { properties: { $ref: { items: { $ref: BASE } } } })
})

test.run()
