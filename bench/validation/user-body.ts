/**
 * The validation bench's request (bench/validation.ts): a small JSON body, its shape as one
 * schema per library (io-ts, Zod, Valibot, and Fastify's JSON Schema), and what every contender
 * answers. All check the same thing: `name` and `email` strings, `age` an integer, `tags`
 * an array of strings; extra keys pass.
 */
import * as t from 'io-ts'
import * as v from 'valibot'
import { z } from 'zod'

/** The body every request sends (84 bytes). */
export const USER_BODY = JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', age: 36, tags: ['math', 'engines'] })

/**
 * A body each contender must refuse (no `email`): the probe checks validation is on. (Not a
 * mistyped field: Fastify's Ajv coerces `"36"` to 36 by default.)
 */
export const BAD_BODY = JSON.stringify({ name: 'Ada Lovelace', age: 36, tags: ['math'] })

/** What each contender answers a valid body with. */
export const USER_ANSWER = JSON.stringify({ ok: true, name: 'Ada Lovelace' })

export const IoTsUser = t.type({ name: t.string, email: t.string, age: t.Int, tags: t.array(t.string) })
export const ZodUser = z.object({ name: z.string(), email: z.string(), age: z.number().int(), tags: z.array(z.string()) })
export const ValibotUser = v.object({ name: v.string(), email: v.string(), age: v.pipe(v.number(), v.integer()), tags: v.array(v.string()) })

/** Fastify's schema (its Ajv compiles it once). */
export const JSON_SCHEMA_USER = {
  type: 'object',
  properties: { name: { type: 'string' }, email: { type: 'string' }, age: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['name', 'email', 'age', 'tags'],
} as const
