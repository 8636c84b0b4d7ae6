/**
 * A hand-made Standard Schema library for the specs (zod is not a dev dependency yet): just
 * enough of one (`string`, `number`, `object`, `optional`, an async `refine`) implementing
 * `~standard` the way Zod, Valibot and ArkType do, with a Standard JSON Schema converter on
 * request. Its messages name the expected type as io-ts does, so the same table written with
 * either answers byte for byte the same.
 */
import type { StandardIssue, StandardResult, StandardSchemaV1 } from '../../lib/core/route/standard-schema.js'

type Check<O> = (value: unknown, path: readonly PropertyKey[]) => { readonly value: O } | { readonly issues: readonly StandardIssue[] }

export interface MiniSchema<I, O = I> extends StandardSchemaV1<I, O> {
  readonly check: Check<O>
  readonly describe: () => object
}

const make = <I, O>(check: Check<O>, describe: () => object, withJson: boolean, async = false): MiniSchema<I, O> => ({
  check,
  describe,
  '~standard': {
    version: 1,
    vendor: 'mini',
    validate: (value): StandardResult<O> | Promise<StandardResult<O>> => {
      const result = check(value, [])
      return async ? Promise.resolve(result) : result
    },
    ...(withJson ? { jsonSchema: { input: (options: { readonly target: string }) => ({ $schema: options.target, ...describe() }) } } : {}),
  },
})

const fail = (path: readonly PropertyKey[], message: string) => ({ issues: [{ message, path: path.map((key) => ({ key })) }] })

export const string = (withJson = true): MiniSchema<string> =>
  make((v, path) => (typeof v === 'string' ? { value: v } : fail(path, 'string')), () => ({ type: 'string' }), withJson)

export const number = (withJson = true): MiniSchema<number> =>
  make((v, path) => (typeof v === 'number' ? { value: v } : fail(path, 'number')), () => ({ type: 'number' }), withJson)

/** A field that may be absent. */
export const optional = <I, O>(inner: MiniSchema<I, O>): MiniSchema<I | undefined, O | undefined> =>
  make<I | undefined, O | undefined>((v, path) => (v === undefined ? { value: undefined } : inner.check(v, path)), inner.describe, true)

type Shape = { readonly [key: string]: MiniSchema<unknown, unknown> }
type InOf<S extends Shape> = { [K in keyof S]: S[K] extends MiniSchema<infer I, unknown> ? I : never }
type OutOf<S extends Shape> = { [K in keyof S]: S[K] extends MiniSchema<unknown, infer O> ? O : never }

export const object = <S extends Shape>(shape: S, withJson = true): MiniSchema<InOf<S>, OutOf<S>> =>
  make<InOf<S>, OutOf<S>>(
    (v, path) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(path, 'object')
      const out: Record<string, unknown> = {}
      const issues: StandardIssue[] = []
      for (const [key, field] of Object.entries(shape)) {
        const result = field.check((v as Record<string, unknown>)[key], [...path, key])
        if ('issues' in result) issues.push(...result.issues)
        else if (result.value !== undefined) out[key] = result.value
      }
      return issues.length > 0 ? { issues } : { value: out as OutOf<S> }
    },
    () => ({
      type: 'object',
      properties: Object.fromEntries(Object.entries(shape).map(([k, f]) => [k, f.describe()])),
      required: Object.keys(shape),
    }),
    withJson,
  )

/** `inner`, answering through a promise (an async refinement). */
export const asyncOf = <I, O>(inner: MiniSchema<I, O>): MiniSchema<I, O> => make(inner.check, inner.describe, true, true)

/** A schema turning text into a number: input `string`, output `number`. */
export const numberFromText = (): MiniSchema<string, number> =>
  make(
    (v, path) => (typeof v === 'string' && /^-?\d+$/.test(v) ? { value: Number(v) } : fail(path, 'integer')),
    () => ({ type: 'string', pattern: '^-?\\d+$' }),
    true,
  )
