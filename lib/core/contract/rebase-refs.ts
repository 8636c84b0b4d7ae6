/**
 * `rebaseRefs`: a JSON Schema whose local `$ref`s (`#`, `#/$defs/Node`) point into itself,
 * rewritten to point at where the schema sits in a larger document. A library's converter
 * writes a recursive schema as `{"$ref": "#"}`; printed inside an OpenAPI or AsyncAPI
 * document unchanged, `#` would name the whole document instead (a reference that resolves,
 * to the wrong thing, so no validator sees it).
 * Pure and portable: no node:* imports.
 */
import type { Json } from '../http/types.js'
import type { JsonSchema } from '../route/json-schema.js'

// Keywords whose values are data, not schemas: a `$ref` inside them is not a reference.
const DATA_KEYWORDS: readonly string[] = Object.freeze(['const', 'enum', 'default', 'examples', 'example'])

const isObject = (value: Json): value is { readonly [key: string]: Json } => typeof value === 'object' && value !== null && !Array.isArray(value)

// Returns `node` itself when nothing under it changed, so a schema without local refs is kept as is.
const rebase = (node: Json, base: string): Json => {
  if (Array.isArray(node)) {
    const items = node.map((item: Json) => rebase(item, base))
    return items.some((item, i) => item !== node[i]) ? items : node
  }
  if (!isObject(node)) return node
  let changed = false
  const out: { [key: string]: Json } = {}
  for (const [key, value] of Object.entries(node)) {
    const next =
      typeof value === 'string'
        ? key === '$ref' && value.startsWith('#')
          ? `${base}${value.slice(1)}`
          : value
        : DATA_KEYWORDS.includes(key)
          ? value
          : rebase(value, base)
    if (next !== value) changed = true
    out[key] = next
  }
  return changed ? out : node
}

/**
 * `schema` with every local `$ref` (one starting with `#`) moved under `base`, a JSON pointer
 * of the document the schema is placed in (`#/components/schemas/Tree`); `schema` itself
 * (the same object) when it has none, so `rebaseRefs(s, base) === s` tells whether the
 * schema refers to itself and must be given a place of its own.
 *
 * @example
 * rebaseRefs({ type: 'array', items: { $ref: '#' } }, '#/components/schemas/Tree')
 * // { type: 'array', items: { $ref: '#/components/schemas/Tree' } }
 */
export const rebaseRefs = (schema: JsonSchema, base: string): JsonSchema => rebase(schema, base) as JsonSchema
