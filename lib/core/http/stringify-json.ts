/**
 * `stringifyJson`: `JSON.stringify` that never throws (cycles and BigInt give `undefined`),
 * so the core keeps its promise of never throwing on any value. Pure and portable.
 */

/**
 * The JSON text of `value`, or `undefined` when it has none (a cycle, a BigInt, a function).
 *
 * @example
 * stringifyJson({ a: 1 }) // '{"a":1}'
 */
export const stringifyJson = (value: unknown): string | undefined => {
  try {
    const out: unknown = JSON.stringify(value)
    return typeof out === 'string' ? out : undefined
  } catch {
    return undefined
  }
}
