/**
 * The Standard Schema interface (standardschema.dev, v1): what Zod (3.24+, 4), Valibot (1),
 * ArkType (2) and others implement under the `~standard` key, written here as types so the
 * core accepts any of them without depending on one; and the optional JSON Schema side of
 * it (Standard JSON Schema: `~standard.jsonSchema`). Types and one guard.
 * Pure and portable: no node:* imports.
 */

/** A schema of any Standard Schema library: `Input` is what it accepts, `Output` what it gives. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>
}

/** The `~standard` record. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1
  /** The library's name, e.g. `'zod'`, `'valibot'`. */
  readonly vendor: string
  /** Checks a value: the output, or the issues. May answer with a promise. */
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
  /** Type-level only: the input and output types. */
  readonly types?: { readonly input: Input; readonly output: Output } | undefined
  /** Standard JSON Schema, where the library provides it (Zod 4.2+, ArkType, Valibot's converter). */
  readonly jsonSchema?: StandardJsonSchemaConverter | undefined
}

/** What `validate` answers. */
export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] }

/** One problem: a message and where (keys, or records with a `key`). */
export interface StandardIssue {
  readonly message: string
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined
}

/** The Standard JSON Schema converter of `~standard.jsonSchema`. */
export interface StandardJsonSchemaConverter {
  readonly input: (options: { readonly target: string }) => unknown
  readonly output?: (options: { readonly target: string }) => unknown
}

/**
 * Whether a value implements Standard Schema (checked before io-ts: Zod 4 schemas also have
 * a `decode` method, of another kind).
 *
 * @example
 * isStandardSchema(z.string()) // true
 */
export const isStandardSchema = (value: unknown): value is StandardSchemaV1 => {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
  const props = (value as { readonly '~standard'?: unknown })['~standard']
  return typeof props === 'object' && props !== null && typeof (props as { readonly validate?: unknown }).validate === 'function'
}
