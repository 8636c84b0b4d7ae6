/**
 * `safeJson`: JSON text for any log context value without ever throwing: bigints as
 * strings, errors as `{name, message}`, cycles as `"[Circular]"`. Pure and portable.
 */

const plain = (_key: string, value: unknown): unknown => {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Error) return { name: value.name, message: value.message }
  return value
}

/**
 * `JSON.stringify` that survives cycles, bigints and throwing `toJSON` methods; gives
 * `undefined` for values JSON cannot hold at all (a function, `undefined`).
 *
 * @example
 * safeJson({ n: 1n }) // '{"n":"1"}'
 */
export const safeJson = (value: unknown): string | undefined => {
  try {
    return JSON.stringify(value, plain)
  } catch {
    // Cycles (or a throwing toJSON): repeat visits become a marker; shared references too.
    const seen = new WeakSet<object>()
    try {
      return JSON.stringify(value, (key, v: unknown) => {
        const out = plain(key, v)
        if (typeof out !== 'object' || out === null) return out
        if (seen.has(out)) return '[Circular]'
        seen.add(out)
        return out
      })
    } catch {
      return '"[unserialisable]"'
    }
  }
}
